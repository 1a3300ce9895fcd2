package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
)

// DefaultBusyTimeout is how long a SQLite operation waits out another
// connection's or process's lock before it fails.
const DefaultBusyTimeout = 10 * time.Second

// WithBusyTimeout sets how long SQLite work (opening, migrating, each write
// transaction) waits out locks held by other connections or processes.
func WithBusyTimeout(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.busy = d
		}
	}
}

// isBusy tells SQLite's "database is locked" (SQLITE_BUSY) and "database
// table is locked" (SQLITE_LOCKED), with any extended code. SQLite returns
// them at once, without calling the busy handler, where waiting could
// deadlock (a lock upgrade in a deferred transaction, a journal-mode switch
// by a connection that already reads); the caller then retries the whole
// step.
func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// retryBusy runs fn again while it fails with a busy/locked error; see
// retryWhile.
func retryBusy(ctx context.Context, budget time.Duration, fn func() error) error {
	return retryWhile(ctx, budget, isBusy, fn)
}

// retryWhile runs fn again while its error is retryable, with a growing
// pause, until budget has passed since the first try (then the last error
// is returned) or ctx ends. fn must be safe to run again: a whole
// transaction, never one statement of an open one.
func retryWhile(ctx context.Context, budget time.Duration, retryable func(error) bool, fn func() error) error {
	deadline := time.Now().Add(budget)
	pause := time.Millisecond
	for {
		err := fn()
		if err == nil || !retryable(err) || time.Now().Add(pause).After(deadline) {
			return err
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// setWAL switches the file to write-ahead logging (persistent in the file,
// so only the first opener of a new file changes anything). It is a
// statement of its own rather than a DSN parameter so that the errors it can
// return at once while other openers race on a new file are retried instead
// of failing Open: "database is locked", and the I/O errors of two processes
// switching the same file's journal at once (one deleting the rollback
// journal the other just deleted, a lock probe answered EAGAIN); seen in
// TestOpenSQLiteTwoProcesses. A lasting I/O error still fails Open once the
// busy timeout has passed.
func setWAL(ctx context.Context, db *sql.DB, budget time.Duration) error {
	racing := func(err error) bool {
		var se sqlite3.Error
		return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked || se.Code == sqlite3.ErrIoErr)
	}
	var mode string
	err := retryWhile(ctx, budget, racing, func() error {
		if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode == "wal" {
			return err
		}
		return db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode)
	})
	if err != nil {
		return fmt.Errorf("journal mode: %w", err)
	}
	if mode != "wal" {
		return fmt.Errorf("journal mode is %q, want wal (a file system without shared memory?)", mode)
	}
	return nil
}
