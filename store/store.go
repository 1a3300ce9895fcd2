// Package store keeps tankbot's games, move logs, challenges, scheduled
// events, players and settings in one SQLite file (the default) or in a
// PostgreSQL database shared by several instances. It knows nothing of game
// rules: positions and moves are opaque strings.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Errors callers branch on (errors.Is).
var (
	ErrNotFound           = errors.New("store: not found")
	ErrStalePly           = errors.New("store: the game moved on (stale ply)")
	ErrActiveGameExists   = errors.New("store: an active game already exists there for these players")
	ErrNotPending         = errors.New("store: challenge is no longer pending")
	ErrDuplicateChallenge = errors.New("store: a pending challenge between these players already exists")
	ErrSchemaTooNew       = errors.New("store: database schema is newer than this binary")
)

// The two dialects' migrations: same numbers and names, one directory each.
//
//go:embed migrations/*.sql migrations_pg/*.sql
var migrationFS embed.FS

// Store is an open database. On SQLite writes go through one connection
// (SQLite has one writer; queueing in database/sql beats busy retries),
// reads through a small pool that WAL lets run beside the writer. On
// PostgreSQL both are one pool (pool_max_conns in the DSN).
type Store struct {
	w, r *sql.DB
	path string // the SQLite file, or the redacted DSN
	pg   bool
	now  func() time.Time
	busy time.Duration // SQLite: how long work waits out others' locks
}

// Option configures Open.
type Option func(*Store)

// WithNow sets the time source for created/updated stamps (tests).
func WithNow(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// DefaultPath is where the database lives unless configured: tankbot.db in
// the user's data folder, the same wherever the bot is started from —
// $XDG_DATA_HOME/tankbot (default ~/.local/share/tankbot) on Linux and other
// Unix systems, ~/Library/Application Support/tankbot on macOS,
// %LocalAppData%\tankbot on Windows — else ./tankbot.db.
func DefaultPath() string {
	if dir := userDataDir(); dir != "" {
		return filepath.Join(dir, "tankbot", "tankbot.db")
	}
	return "tankbot.db"
}

// userDataDir is the user's folder for application data, or "".
func userDataDir() string {
	switch runtime.GOOS {
	case "windows":
		return os.Getenv("LocalAppData")
	case "darwin", "ios":
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, "Library", "Application Support")
		}
		return ""
	}
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return d
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share")
	}
	return ""
}

// Open opens the database and brings its schema up to date. A postgres:// or
// postgresql:// URL selects PostgreSQL (the database must exist; several
// instances may share it); anything else is a SQLite file, created with its
// directory if needed. Errors never show a DSN's password.
func Open(ctx context.Context, dsnOrPath string, opts ...Option) (*Store, error) {
	if IsPostgres(dsnOrPath) {
		return openPG(ctx, dsnOrPath, opts)
	}
	path := dsnOrPath
	s := &Store{path: path, now: time.Now, busy: DefaultBusyTimeout}
	for _, o := range opts {
		o(s)
	}
	// The database holds who plays whom and where: private to the bot's
	// user. A directory we create is 0700 (one the operator chose is left
	// alone); the files are 0600 whatever the umask.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// No _journal_mode here: a connection setting it while others open the
	// file can get "database is locked" at once (issue 33); setWAL does it
	// once, retried. The writer's transactions are BEGIN IMMEDIATE, so
	// migrations and writes take the write lock up front and wait in the
	// busy handler instead of failing a lock upgrade.
	base := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_busy_timeout=" + strconv.FormatInt(s.busy.Milliseconds(), 10) + "&_foreign_keys=on&_synchronous=NORMAL"
	w, err := sql.Open("sqlite3", base+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	err = setWAL(ctx, w, s.busy)
	if err == nil {
		err = retryBusy(ctx, s.busy, func() error { return migrate(ctx, w, false, s.now) })
	}
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r, err := sql.Open("sqlite3", base+"&_query_only=true")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	s.w, s.r = w, r
	// WAL and SHM files exist now (the migration wrote through WAL).
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(f, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.Close()
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	return s, nil
}

func openPG(ctx context.Context, dsn string, opts []Option) (*Store, error) {
	s := &Store{path: RedactDSN(dsn), pg: true, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	db, err := openPostgres(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", s.path, err)
	}
	if err := migrate(ctx, db, true, s.now); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", s.path, err)
	}
	s.w, s.r = db, db
	return s, nil
}

// createPrivate creates path as an empty 0600 file when it does not exist,
// so SQLite never creates it with the umask's permissions (SQLite gives the
// WAL and SHM files the database file's mode). It refuses a symbolic link.
func createPrivate(path string) error {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link", path)
		}
		return nil
	}
	fh, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return fh.Close()
}

// Close closes the pools.
func (s *Store) Close() error {
	if s.pg {
		return s.w.Close()
	}
	return errors.Join(s.r.Close(), s.w.Close())
}

// Path is the SQLite file, or the PostgreSQL DSN without its password.
func (s *Store) Path() string { return s.path }

// Backend is "sqlite" or "postgres".
func (s *Store) Backend() string {
	if s.pg {
		return "postgres"
	}
	return "sqlite"
}

type migration struct {
	version int
	name    string
}

func migrationDir(pg bool) string {
	if pg {
		return "migrations_pg"
	}
	return "migrations"
}

func migrations(pg bool) ([]migration, error) {
	entries, err := migrationFS.ReadDir(migrationDir(pg))
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration file %q is not NNNN_name.sql", e.Name())
		}
		out = append(out, migration{v, e.Name()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migrations are not numbered 1..n: %s", m.name)
		}
	}
	return out, nil
}

// migrate applies, in order and each in its own transaction with its
// schema_version row, the embedded migrations the database has not seen.
// Instances starting together take turns: on PostgreSQL each step holds a
// transaction-level advisory lock (per schema) and rereads the version under
// it; on SQLite the writer's BEGIN IMMEDIATE does the same.
func migrate(ctx context.Context, db *sql.DB, pg bool, now func() time.Time) error {
	ms, err := migrations(pg)
	if err != nil {
		return err
	}
	create := `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`
	if pg {
		create = `CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)`
	}
	for {
		done := false
		err := inTx(ctx, db, func(tx *sql.Tx) error {
			if pg {
				// Wait out another instance's migration (or traffic holding
				// a table lock) longer than the session's lock_timeout.
				if _, err := tx.ExecContext(ctx, `SELECT set_config('lock_timeout', '5min', true)`); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tankbot.migrate.' || current_schema()))`); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, create); err != nil {
				return err
			}
			var cur int
			if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&cur); err != nil {
				return err
			}
			if cur > len(ms) {
				return fmt.Errorf("database is at schema version %d but this tankbot knows versions up to %d; run a newer tankbot (or restore a backup): %w", cur, len(ms), ErrSchemaTooNew)
			}
			if cur == len(ms) {
				done = true
				return nil
			}
			m := ms[cur]
			body, err := migrationFS.ReadFile(migrationDir(pg) + "/" + m.name)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO schema_version(version, applied_at) VALUES(?, ?)`, m.version, now().UnixNano())
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if done {
			return nil
		}
	}
}

// SchemaVersion is the version recorded in the database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v)
	return v, err
}

func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return commitError{err}
	}
	return nil
}

// tx runs fn in a write transaction (BEGIN IMMEDIATE on the SQLite writer;
// READ COMMITTED on PostgreSQL, where the compare-and-set UPDATEs serialize
// on the row they touch). A failure that may well pass runs the whole
// transaction again: on SQLite a busy/locked error (another process's lock
// outlasting the busy handler's turn) within the busy timeout, on
// PostgreSQL a transient one (pgRetryable: a restart, a reset connection, a
// serialization failure) within TransientBudget. So fn must only set its
// results, not append to them.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	if s.pg {
		return s.pgTx(ctx, fn)
	}
	return retryBusy(ctx, s.busy, func() error { return inTx(ctx, s.w, fn) })
}

// querier is what queryAll reads through: s.r, s.w or a transaction (on
// PostgreSQL the rebinding connector turns the ? placeholders into $n).
type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// scanner is one row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(...any) error }

// queryAll runs query and scans each row with scan: the package's one
// query/Next/Scan/Err loop. No rows gives a nil slice; any error gives
// nil and the error, unwrapped (callers add their context).
func queryAll[T any](ctx context.Context, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		x, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Backup writes a consistent copy of the database to path (which must not
// exist) with VACUUM INTO; safe while the bot runs. SQLite only: a
// PostgreSQL database is backed up with the server's tools.
func (s *Store) Backup(ctx context.Context, path string) error {
	if s.pg {
		return fmt.Errorf("backup: %w: PostgreSQL is backed up with pg_dump (e.g. pg_dump -Fc -f tankbot.dump DSN) or the server's own backups", ErrNotSupported)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	if _, err := s.w.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}

// Check runs PRAGMA integrity_check and returns its verdict ("ok" when
// sound). SQLite only: PostgreSQL's counterpart is pg_amcheck.
func (s *Store) Check(ctx context.Context) (string, error) {
	if s.pg {
		return "", fmt.Errorf("integrity check: %w: run pg_amcheck against the database", ErrNotSupported)
	}
	var res string
	err := s.w.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res)
	return res, err
}

// isUnique tells a unique-constraint violation, on either backend.
func isUnique(err error) bool {
	if isPgUnique(err) {
		return true
	}
	var se sqlite3.Error
	return errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey)
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}
