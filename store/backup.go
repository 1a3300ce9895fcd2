package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
		return fmt.Errorf("backup to %s: %w", out, err)
	}
	// The copy holds the same private data as the database: it is created
	// here, 0600 and exclusively (never over a file or link that exists),
	// and VACUUM INTO fills the empty file.
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("backup to %s: %w", out, err)
	}
	cerr := f.Chmod(0o600) // the umask can only have narrowed it; be explicit
	if err := errors.Join(cerr, f.Close()); err != nil {
		os.Remove(out)
		return fmt.Errorf("backup to %s: %w", out, err)
	}
	db, err := sql.Open("sqlite3", sqliteURI(dbPath, "mode=ro&_busy_timeout=10000"))
	if err != nil {
		os.Remove(out)
		return fmt.Errorf("backup %s: %w", dbPath, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, out); err != nil {
		os.Remove(out)
		return fmt.Errorf("backup %s to %s: %w", dbPath, out, err)
	}
	return nil
}

// ErrNotTankbot is a restore refused because the file is not a tankbot
// database with at least one migration applied.
var ErrNotTankbot = errors.New("not a tankbot database")

// sqliteMagic starts every SQLite 3 database file.
const sqliteMagic = "SQLite format 3\x00"

// CheckTankbotFile says whether path is a tankbot SQLite database with at
// least one migration applied, and if not, what it is instead (an empty
// file, some other file, another program's database, a tankbot database
// that was never migrated). It only reads.
func CheckTankbotFile(ctx context.Context, path string) (version int, err error) {
	fail := func(format string, args ...any) (int, error) {
		return 0, fmt.Errorf("%s: %w: %s", path, ErrNotTankbot, fmt.Sprintf(format, args...))
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	head := make([]byte, len(sqliteMagic))
	n, rerr := io.ReadFull(f, head)
	fi, serr := f.Stat()
	f.Close()
	switch {
	case serr != nil:
		return 0, serr
	case !fi.Mode().IsRegular():
		return fail("it is not a regular file (%s)", fi.Mode().Type())
	case fi.Size() == 0:
		return fail("the file is empty (0 bytes)")
	case rerr != nil && !errors.Is(rerr, io.ErrUnexpectedEOF):
		return 0, rerr
	case string(head[:n]) != sqliteMagic:
		return fail("it is not an SQLite database (%d bytes starting %q)", fi.Size(), head[:n])
	}
	db, err := sql.Open("sqlite3", sqliteURI(path, "mode=ro&_busy_timeout=10000"))
	if err != nil {
		return 0, err
	}
	defer db.Close()
	tables, err := queryAll(ctx, db, func(r scanner) (string, error) {
		var t string
		return t, r.Scan(&t)
	}, `SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return fail("SQLite cannot read it: %v", err)
	}
	if !slices.Contains(tables, "schema_version") {
		if len(tables) == 0 {
			return fail("an SQLite database with no tables")
		}
		if len(tables) > 8 {
			tables = append(tables[:8], "…")
		}
		return fail("an SQLite database of another program (no schema_version table; tables: %s)", strings.Join(tables, ", "))
	}
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&version); err != nil {
		return fail("its schema_version table cannot be read: %v", err)
	}
	if version < 1 {
		return fail("a tankbot database with no migration applied (schema version 0)")
	}
	return version, nil
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
	// An empty or foreign file would otherwise be migrated into an empty
	// tankbot database and replace the live one.
	if _, err := CheckTankbotFile(ctx, from); err != nil {
		return res, fmt.Errorf("refused: %w", err)
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
		prev, err := keepAside(dbPath, now)
		if err != nil {
			removeTmp()
			return res, fmt.Errorf("restore: move the old database aside: %w", err)
		}
		res.Previous = prev
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		removeTmp()
		return res, fmt.Errorf("restore to %s: %w", dbPath, err)
	}
	removeTmp()
	return res, nil
}

// keepAside keeps the database at dbPath (with its WAL) under a new name, dbPath.before-restore-UNIX, or with -2, -3, ...
// when that is taken: hard links made with link(2) never replace a file, so
// two restores in one second keep two copies. dbPath's own names are then
// removed, ready for the restored file.
func keepAside(dbPath string, now time.Time) (string, error) {
	base := dbPath + ".before-restore-" + strconv.FormatInt(now.Unix(), 10)
	for n := 1; n < 1000; n++ {
		prev := base
		if n > 1 {
			prev += "-" + strconv.Itoa(n)
		}
		if taken(prev) {
			continue
		}
		err := os.Link(dbPath, prev)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		// The WAL may hold the old file's last commits; the shared-memory
		// index is rebuilt from it, so it is not kept.
		if err := os.Link(dbPath+"-wal", prev+"-wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		// The old WAL belongs to the old file: it must not meet the new one.
		for _, suf := range []string{"-wal", "-shm", ""} {
			if err := os.Remove(dbPath + suf); err != nil && !errors.Is(err, os.ErrNotExist) {
				return "", err
			}
		}
		return prev, nil
	}
	return "", fmt.Errorf("%s: too many kept copies with this time", base)
}

// taken: a kept copy's name or one of its companions exists.
func taken(prev string) bool {
	for _, suf := range []string{"", "-wal", "-shm"} {
		if _, err := os.Lstat(prev + suf); err == nil {
			return true
		}
	}
	return false
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
