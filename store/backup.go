package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mattn/go-sqlite3"
)

// ErrInUse is a restore refused because a process has the database open.
var ErrInUse = errors.New("store: the database is in use by a running tankbot (stop it first)")

// ErrExists is a restore refused because the target exists and was not
// forced.
var ErrExists = errors.New("store: the database already exists (pass --force to replace it; the old file is kept)")

// sqliteURI is the go-sqlite3 DSN of a file with extra parameters.
func sqliteURI(path, params string) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + params
}

// BackupFile writes a consistent copy of the SQLite database at dbPath to
// out (which must not exist) without migrating or writing to the database:
// a read-only connection runs VACUUM INTO, a single read transaction, so the
// copy holds exactly the writes committed before it began, while the bot
// keeps writing beside it (WAL). PostgreSQL: use pg_dump (docs/operations.md).
func BackupFile(ctx context.Context, dbPath, out string) error {
	if IsPostgres(dbPath) {
		return fmt.Errorf("backup: %w: PostgreSQL is backed up with pg_dump -Fc (see docs/operations.md)", ErrNotSupported)
	}
	if _, err := os.Stat(dbPath); err != nil {
		return fmt.Errorf("backup %s: %w", dbPath, err)
	}
	if _, err := os.Lstat(out); err == nil {
		return fmt.Errorf("backup to %s: %w", out, os.ErrExist)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
		return fmt.Errorf("backup to %s: %w", out, err)
	}
	db, err := sql.Open("sqlite3", sqliteURI(dbPath, "mode=ro&_busy_timeout=10000"))
	if err != nil {
		return fmt.Errorf("backup %s: %w", dbPath, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, out); err != nil {
		return fmt.Errorf("backup %s to %s: %w", dbPath, out, err)
	}
	// The copy holds the same private data as the database.
	if err := os.Chmod(out, 0o600); err != nil {
		return fmt.Errorf("backup to %s: %w", out, err)
	}
	return nil
}

// RestoreResult says what Restore did.
type RestoreResult struct {
	SchemaVersion int    // the restored database's schema version (after migrating)
	Previous      string // where the replaced database was moved, or ""
}

// Restore replaces the SQLite database at dbPath by the backup at from. The
// backup is verified first (integrity_check, a schema this binary knows) on
// a private copy, which is then renamed into place, so a bad backup leaves
// the database untouched. Restore refuses (ErrInUse) while any process has
// dbPath open: replacing a live database under a running bot would lose the
// writes it makes afterwards or corrupt it. An existing database is only
// replaced with force, and then moved aside to dbPath.before-restore-UNIX,
// never deleted.
func Restore(ctx context.Context, from, dbPath string, force bool, now time.Time) (RestoreResult, error) {
	var res RestoreResult
	if IsPostgres(dbPath) || IsPostgres(from) {
		return res, fmt.Errorf("restore: %w: PostgreSQL is restored with pg_restore (see docs/operations.md)", ErrNotSupported)
	}
	if _, err := os.Stat(from); err != nil {
		return res, fmt.Errorf("restore from %s: %w", from, err)
	}
	exists := false
	if _, err := os.Lstat(dbPath); err == nil {
		exists = true
		if err := notInUse(ctx, dbPath); err != nil {
			return res, err
		}
		if !force {
			return res, fmt.Errorf("restore to %s: %w", dbPath, ErrExists)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o700); err != nil {
		return res, fmt.Errorf("restore to %s: %w", dbPath, err)
	}
	tmp := dbPath + ".restoring-" + strconv.FormatInt(now.UnixNano(), 10)
	removeTmp := func() {
		for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm"} {
			os.Remove(f)
		}
	}
	if err := BackupFile(ctx, from, tmp); err != nil {
		removeTmp()
		return res, fmt.Errorf("restore: read the backup: %w", err)
	}
	// Open (and so migrate) the copy, check it, and close it so no WAL is
	// left beside it.
	s, err := Open(ctx, tmp)
	if err != nil {
		removeTmp()
		return res, fmt.Errorf("restore: the backup %s: %w", from, err)
	}
	verdict, cerr := s.Check(ctx)
	v, verr := s.SchemaVersion(ctx)
	if err := errors.Join(cerr, verr, s.Close()); err != nil || verdict != "ok" {
		removeTmp()
		return res, fmt.Errorf("restore: the backup %s fails its integrity check (%q): %v", from, verdict, err)
	}
	res.SchemaVersion = v
	if exists {
		if err := notInUse(ctx, dbPath); err != nil { // it may have started meanwhile
			removeTmp()
			return res, err
		}
		res.Previous = dbPath + ".before-restore-" + strconv.FormatInt(now.Unix(), 10)
		if err := os.Rename(dbPath, res.Previous); err != nil {
			removeTmp()
			return res, fmt.Errorf("restore: move the old database aside: %w", err)
		}
		// The old WAL belongs to the old file: it goes with it.
		for _, suf := range []string{"-wal", "-shm"} {
			if err := os.Rename(dbPath+suf, res.Previous+suf); err != nil && !errors.Is(err, os.ErrNotExist) {
				removeTmp()
				return res, fmt.Errorf("restore: move the old database aside: %w", err)
			}
		}
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		removeTmp()
		return res, fmt.Errorf("restore to %s: %w", dbPath, err)
	}
	removeTmp()
	return res, nil
}

// notInUse fails with ErrInUse when another connection has the database
// open. Every WAL-mode connection holds a shared lock on the file while
// open, so an exclusive locking-mode read fails with SQLITE_BUSY at once.
func notInUse(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite3", sqliteURI(path, "_busy_timeout=0&_locking_mode=EXCLUSIVE"))
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// BEGIN EXCLUSIVE takes the file's exclusive lock (and in WAL mode the
	// WAL index's): it fails while any other connection has it open.
	busy := func(err error) error {
		var se sqlite3.Error
		if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
			return fmt.Errorf("restore to %s: %w", path, ErrInUse)
		}
		return fmt.Errorf("restore: open %s: %w", path, err)
	}
	// The connection's setup (locking mode) may already meet the lock.
	conn, err := db.Conn(ctx)
	if err != nil {
		return busy(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		return busy(err)
	}
	_, err = conn.ExecContext(ctx, `ROLLBACK`)
	return err
}
