package store

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestRebind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT * FROM t WHERE a=? AND b IN (?,?)`, `SELECT * FROM t WHERE a=$1 AND b IN ($2,$3)`},
		{`UPDATE t SET a=COALESCE(NULLIF(?, ''), a) WHERE id=?`, `UPDATE t SET a=COALESCE(NULLIF($1, ''), a) WHERE id=$2`},
		{`SELECT '?', 'it''s ?', "odd?col", ? -- why?` + "\n" + `, ? /* what? */ , ?`, `SELECT '?', 'it''s ?', "odd?col", $1 -- why?` + "\n" + `, $2 /* what? */ , $3`},
		{`SELECT $$a ? b$$, $x$ ? $x$, ?`, `SELECT $$a ? b$$, $x$ ? $x$, $1`},
		{`SELECT 'unterminated ?`, `SELECT 'unterminated ?`},
		{`SELECT ? -- trailing ?`, `SELECT $1 -- trailing ?`},
		{`SELECT ?, $1x`, `SELECT $1, $1x`},
	} {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// FuzzRebind: rebinding never panics, only ever replaces a `?` by $n (so a
// query without `?` is untouched), and numbers the placeholders 1..n.
func FuzzRebind(f *testing.F) {
	for _, s := range []string{`a=? AND b='?'`, `$$?$$ ?`, `-- ?` + "\n?", `/* ? */?`, `"?"?`, `$a$?`, `'`, `$`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := rebind(q)
		if !strings.Contains(q, "?") && got != q {
			t.Fatalf("changed a query without ?: %q -> %q", q, got)
		}
		if strings.Count(got, "?") > strings.Count(q, "?") {
			t.Fatalf("more ? after rebinding: %q -> %q", q, got)
		}
		if strings.Contains(q, "$") || numbered.MatchString(q) {
			return // the numbering check below reads $n back
		}
		// Undoing the numbering gives the input back, and it counts 1..n.
		for i, m := range placeholder.FindAllStringSubmatch(got, -1) {
			if m[1] != strconv.Itoa(i+1) {
				t.Fatalf("rebind(%q) = %q: placeholder %d is $%s", q, got, i+1, m[1])
			}
		}
		if back := placeholder.ReplaceAllString(got, "?"); back != q {
			t.Fatalf("rebind(%q) = %q changed more than placeholders", q, got)
		}
	})
}

var placeholder, numbered = regexp.MustCompile(`\$([0-9]+)`), regexp.MustCompile(`\?[0-9]`)

func TestRedactDSN(t *testing.T) {
	for in, want := range map[string]string{
		"/var/lib/tankbot/tankbot.db":                                "/var/lib/tankbot/tankbot.db",
		"postgres://bot:s3cret@db.example:5432/tankbot":              "postgres://bot:xxxxx@db.example:5432/tankbot",
		"postgresql://bot@db/tankbot?sslmode=require":                "postgresql://bot@db/tankbot?sslmode=require",
		"postgres://db/tankbot?password=s3cret&user=bot":             "postgres://db/tankbot?password=xxxxx&user=bot",
		"postgres://bot:s3cr%zz@db/tankbot":                          "postgres://(unparsable DSN)",
		"postgres://bot:p%40ss@db/tankbot?pool_max_conns=5":          "postgres://bot:xxxxx@db/tankbot?pool_max_conns=5",
		"postgres://postgres@/postgres?host=/tmp/pg&sslmode=disable": "postgres://postgres@/postgres?host=/tmp/pg&sslmode=disable",
	} {
		if got := RedactDSN(in); got != want {
			t.Errorf("RedactDSN(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOpenErrorsHidePassword: a server that cannot be reached, a bad pool
// size and an unparsable URL all fail Open without echoing the password.
func TestOpenErrorsHidePassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, dsn := range []string{
		"postgres://bot:hunter2@127.0.0.1:1/tankbot?connect_timeout=2",
		"postgres://bot:hunter2@127.0.0.1:1/tankbot?pool_max_conns=zero",
		"postgres://bot:hunter2@127.0.0.1:1/tankbot?sslmode=bogus",
		"postgres://bot:hunter2%zz@127.0.0.1:1/tankbot",
	} {
		_, err := Open(ctx, dsn)
		if err == nil {
			t.Fatalf("%s opened", RedactDSN(dsn))
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("error shows the password: %v", err)
		}
		t.Log(err)
	}
}

// TestPostgresPoolSize: pool_max_conns in the DSN sizes the pool and is
// not sent to the server as a setting; the session defaults apply unless
// the DSN sets them.
func TestPostgresPoolSize(t *testing.T) {
	dsn := storetest.Postgres(t)
	s := open(t, dsn+"&pool_max_conns=3", nil)
	if got := s.w.Stats().MaxOpenConnections; got != 3 {
		t.Fatalf("pool of %d", got)
	}
	s2 := open(t, dsn, nil)
	if got := s2.w.Stats().MaxOpenConnections; got != DefaultPoolSize {
		t.Fatalf("default pool of %d", got)
	}
	if strings.Contains(s.Path(), "xxxxx") || s.Backend() != "postgres" {
		t.Fatalf("path %q backend %q", s.Path(), s.Backend())
	}
	// Session defaults, and a DSN overriding one.
	var lock, idle, app string
	if err := s2.r.QueryRow(`SELECT current_setting('lock_timeout'), current_setting('idle_in_transaction_session_timeout'), current_setting('application_name')`).Scan(&lock, &idle, &app); err != nil {
		t.Fatal(err)
	}
	if lock != "10s" || idle != "1min" || app != "tankbot" {
		t.Fatalf("session settings %q %q %q", lock, idle, app)
	}
	s3 := open(t, dsn+"&lock_timeout=2s", nil)
	if err := s3.r.QueryRow(`SHOW lock_timeout`).Scan(&lock); err != nil || lock != "2s" {
		t.Fatalf("lock_timeout from the DSN: %q %v", lock, err)
	}
}
