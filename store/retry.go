package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
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

// TransientBudget is how long PostgreSQL work retries transient failures
// (a server restarting, a connection reset, a serialization failure or a
// deadlock) before returning the error: inside the 3 seconds Discord gives
// an interaction's first answer.
const TransientBudget = 2500 * time.Millisecond

// pgTransient tells a PostgreSQL failure that the same work may well not
// meet again: the connection or server went away (class 08, admin or crash
// shutdown, "cannot connect now", refused or reset connections) or the
// transaction lost a race (serialization failure, deadlock). A cancelled
// or expired context is never transient.
func pgTransient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "40001", "40P01", "57P01", "57P02", "57P03":
			return true
		}
		return strings.HasPrefix(pe.Code, "08")
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.Is(err, driver.ErrBadConn) || pgconn.SafeToRetry(err) || errors.As(err, &ce) || errors.As(err, &ne) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// retryUntil, in a context, bounds the retries of work done on its behalf
// (a transaction's attempts and the connections they wait for) to one
// TransientBudget in all.
type retryUntil struct{}

// budgetLeft is TransientBudget, or what is left of the one ctx carries.
func budgetLeft(ctx context.Context) time.Duration {
	if until, ok := ctx.Value(retryUntil{}).(time.Time); ok {
		return min(TransientBudget, time.Until(until))
	}
	return TransientBudget
}

// commitError marks a failure of COMMIT itself: when the connection broke
// there, the transaction may have committed, so it is not run again.
type commitError struct{ err error }

func (e commitError) Error() string { return e.err.Error() }
func (e commitError) Unwrap() error { return e.err }

// pgRetryable tells a transaction failure worth running the whole
// transaction again: transient, and not a COMMIT whose outcome is unknown
// (a serialization failure or deadlock at COMMIT is a sure rollback).
func pgRetryable(err error) bool {
	var ce commitError
	if errors.As(err, &ce) {
		var pe *pgconn.PgError
		return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
	}
	return pgTransient(err)
}

// pgTx runs fn in a transaction on PostgreSQL, again on a transient failure
// (pgRetryable) within TransientBudget. Each attempt writes a token of its
// own in tx_done; when COMMIT itself fails with the connection, the token
// (read once the server answers again) tells whether the attempt committed:
// then the work is done, else it runs again. So a restart during COMMIT
// neither loses a change nor applies it twice.
func (s *Store) pgTx(ctx context.Context, fn func(*sql.Tx) error) error {
	ctx = context.WithValue(ctx, retryUntil{}, time.Now().Add(TransientBudget))
	return retryWhile(ctx, TransientBudget, pgRetryable, func() error {
		token := newNonce()
		err := inTx(ctx, s.w, func(tx *sql.Tx) error {
			if err := fn(tx); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO tx_done(token, at) VALUES(?, ?)`, token, s.now().UnixNano())
			return err
		})
		var ce commitError
		if err == nil || !errors.As(err, &ce) || !pgTransient(err) {
			return err
		}
		var n int
		if qerr := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM tx_done WHERE token=?`, token).Scan(&n); qerr != nil {
			return err // still unknown: reported as it came
		}
		if n == 1 {
			return nil
		}
		return fmt.Errorf("rolled back: %w", errors.Unwrap(err)) // not committed: retryable
	})
}
