package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// ErrNotSupported is returned by operations the backend cannot do (SQLite's
// file backup or integrity check on PostgreSQL); the message says what to
// use instead.
var ErrNotSupported = errors.New("not supported on this backend")

// IsPostgres tells whether dsnOrPath names a PostgreSQL server
// (postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(dsnOrPath string) bool {
	return strings.HasPrefix(dsnOrPath, "postgres://") || strings.HasPrefix(dsnOrPath, "postgresql://")
}

// RedactDSN hides the password of a PostgreSQL URL (and any password query
// parameter) so the DSN can be logged; a SQLite path comes back unchanged.
func RedactDSN(dsnOrPath string) string {
	if !IsPostgres(dsnOrPath) {
		return dsnOrPath
	}
	u, err := url.Parse(dsnOrPath)
	if err != nil {
		// Never echo what we could not parse: it may hold a password.
		scheme, _, _ := strings.Cut(dsnOrPath, "://")
		return scheme + "://(unparsable DSN)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// DefaultPoolSize is how many connections one Store keeps to PostgreSQL
// unless the DSN says pool_max_conns=N.
const DefaultPoolSize = 10

func openPostgres(ctx context.Context, dsn string) (*sql.DB, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, errors.New("bad PostgreSQL URL")
	}
	// pool_max_conns is ours (the name pgxpool uses), not a server setting.
	pool := DefaultPoolSize
	q := u.Query()
	if v := q.Get("pool_max_conns"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return nil, fmt.Errorf("pool_max_conns=%q: want a number from 1 to 1000", v)
		}
		pool = n
		q.Del("pool_max_conns")
		u.RawQuery = q.Encode()
	}
	cfg, err := pgx.ParseConfig(u.String())
	if err != nil {
		return nil, err // pgx redacts the password in its parse errors
	}
	// Session defaults the DSN may override: lock_timeout is the
	// counterpart of SQLite's busy timeout (a move waiting on a row lock
	// fails after it instead of hanging), and a transaction left open by a
	// hung instance cannot hold its row locks for ever.
	for k, v := range map[string]string{
		"lock_timeout":                        "10s",
		"idle_in_transaction_session_timeout": "60s",
		"application_name":                    "tankbot",
	} {
		if _, ok := cfg.RuntimeParams[k]; !ok {
			cfg.RuntimeParams[k] = v
		}
	}
	db := sql.OpenDB(rebindConnector{stdlib.GetConnector(*cfg)})
	db.SetMaxOpenConns(pool)
	db.SetMaxIdleConns(pool)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// rebindConnector hands out connections that accept the store's SQLite-style
// `?` placeholders: the one place where queries are rebound to $1, $2, ...
// Working at the driver level keeps *sql.DB and *sql.Tx as they are, so
// every query in the package runs unchanged on both backends.
type rebindConnector struct{ driver.Connector }

// Connect also waits out a server that is restarting (refused
// connections, "the database system is starting up") for up to
// TransientBudget: database/sql takes a new connection when a pooled one
// died with the old server, so a short restart costs a pause, not an error.
func (c rebindConnector) Connect(ctx context.Context) (driver.Conn, error) {
	var cn driver.Conn
	err := retryWhile(ctx, budgetLeft(ctx), pgTransient, func() error {
		var err error
		cn, err = c.Connector.Connect(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &rebindConn{cn.(*stdlib.Conn)}, nil
}

// rebindConn is pgx's connection with its query entry points rebound; the
// embedded *stdlib.Conn supplies the rest (transactions, ping, session reset,
// value checks).
type rebindConn struct{ *stdlib.Conn }

func (c *rebindConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(rebind(query))
}

func (c *rebindConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(query))
}

func (c *rebindConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query), boolsAsInts(args))
}

// QueryContext turns a transient failure of a query outside a transaction
// (the store's reads: its writes all run in transactions) into
// driver.ErrBadConn, so database/sql drops the connection and sends the
// query again on a new one, which Connect waits for while the server
// restarts. A query inside a transaction is never resent: s.tx reruns the
// whole transaction instead.
func (c *rebindConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	idle := c.Conn.Conn().PgConn().TxStatus() == 'I'
	rows, err := c.Conn.QueryContext(ctx, rebind(query), boolsAsInts(args))
	if err != nil && idle && ctx.Err() == nil && pgTransient(err) && !errors.Is(err, driver.ErrBadConn) {
		return nil, fmt.Errorf("%w: %w", driver.ErrBadConn, err)
	}
	return rows, err
}

// boolsAsInts sends Go booleans as 0/1: SQLite has no boolean type, so the
// schema keeps flags as integers in both dialects (scanning 0/1 back into a
// bool works on both).
func boolsAsInts(args []driver.NamedValue) []driver.NamedValue {
	for i, a := range args {
		if b, ok := a.Value.(bool); ok {
			args[i].Value = int64(0)
			if b {
				args[i].Value = int64(1)
			}
		}
	}
	return args
}

// rebind turns each `?` placeholder into $1, $2, ... in order, leaving those
// inside string literals, quoted identifiers, dollar-quoted bodies and
// comments alone. A `?` is therefore always a placeholder in store SQL (use
// jsonb_exists rather than PostgreSQL's ? operator).
func rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		case c == '\'' || c == '"':
			j := strings.IndexByte(q[i+1:], c)
			if j < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+j+2]) // a doubled quote is two literals back to back
			i += j + 1
			continue
		case c == '-' && strings.HasPrefix(q[i:], "--"):
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+j])
			i += j - 1
			continue
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+j+4])
			i += j + 3
			continue
		case c == '$':
			if tag, ok := dollarTag(q[i:]); ok {
				j := strings.Index(q[i+len(tag):], tag)
				if j < 0 {
					b.WriteString(q[i:])
					return b.String()
				}
				end := i + len(tag) + j + len(tag)
				b.WriteString(q[i:end])
				i = end - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// dollarTag reads the $tag$ opening a dollar-quoted string at the start of s.
func dollarTag(s string) (string, bool) {
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '$':
			return s[:i+1], true
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 1 && c >= '0' && c <= '9':
		default:
			return "", false
		}
	}
	return "", false
}

// pgUniqueViolation is SQLSTATE unique_violation.
const pgUniqueViolation = "23505"

func isPgUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == pgUniqueViolation
}
