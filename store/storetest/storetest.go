// Package storetest hands tests fresh databases on both store backends: a
// SQLite file in the test's temporary directory, and a PostgreSQL schema of
// its own on the server named by TANKBOT_TEST_POSTGRES (dropped after the
// test). Without that variable the PostgreSQL cases skip, except under
// CI=true, where they fail: CI must run them.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// EnvPostgres names the variable holding the test server's URL, e.g.
// postgres://postgres@/postgres?host=/tmp/tankbot-pg.x&sslmode=disable
// (`source .ci/postgres.sh` starts a throwaway server and sets it).
const EnvPostgres = "TANKBOT_TEST_POSTGRES"

// Backend makes fresh databases of one kind.
type Backend struct {
	Name string // "sqlite" or "postgres"
	New  func(t testing.TB) string
}

// Backends are SQLite then PostgreSQL.
func Backends() []Backend {
	return []Backend{{"sqlite", SQLite}, {"postgres", Postgres}}
}

// Run runs fn as a subtest per backend.
func Run(t *testing.T, fn func(t *testing.T, b Backend)) {
	t.Helper()
	for _, b := range Backends() {
		t.Run(b.Name, func(t *testing.T) { fn(t, b) })
	}
}

// SQLite is the path of a new database file (not yet created) in the
// test's temporary directory.
func SQLite(t testing.TB) string {
	return filepath.Join(t.TempDir(), "tankbot.db")
}

// PostgresURL is the test server's URL; it skips the test when unset, or
// fails it under CI=true.
func PostgresURL(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvPostgres)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is unset: the PostgreSQL tests must run in CI (.ci/run sources .ci/postgres.sh)", EnvPostgres)
		}
		t.Skipf("%s unset: skipping PostgreSQL (run `source .ci/postgres.sh` first)", EnvPostgres)
	}
	return dsn
}

var admin struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// Postgres is the URL of a new, empty schema on the test server, made the
// connection's search_path, so the store creates its tables there. The
// schema is dropped when the test ends (after the stores it opened are
// closed, since cleanups run last-in first-out).
func Postgres(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	admin.once.Do(func() { admin.db, admin.err = sql.Open("pgx", base) })
	if admin.err != nil {
		t.Fatalf("%s: %v", EnvPostgres, admin.err)
	}
	var buf [6]byte
	rand.Read(buf[:])
	schema := "tankbot_test_" + hex.EncodeToString(buf[:])
	ctx := context.Background()
	if _, err := admin.db.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("create test schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.db.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop test schema %s: %v", schema, err)
		}
	})
	return withSearchPath(t, base, schema)
}

// withSearchPath is dsn with its search_path set to schema.
func withSearchPath(t testing.TB, dsn, schema string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || !strings.HasPrefix(u.Scheme, "postgres") {
		t.Fatalf("%s is not a postgres:// URL", EnvPostgres)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
