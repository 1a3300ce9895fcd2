package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Event is a scheduled job: a flag fall, a reminder, a challenge expiry...
type Event struct {
	ID       int64
	Kind     string
	Ref      int64 // game or challenge id
	Ply      int   // the ply it was scheduled at, so stale events can be dropped
	Due      time.Time
	Payload  string
	Attempts int // claims so far, this one included
}

// Schedule stores e (ID and Attempts are ignored) and returns its id.
func (s *Store) Schedule(ctx context.Context, e Event) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO events(kind, ref, ply, due_at, payload) VALUES(?,?,?,?,?) RETURNING id`,
			e.Kind, e.Ref, e.Ply, e.Due.UnixNano(), e.Payload).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("schedule %s for %d: %w", e.Kind, e.Ref, err)
	}
	return id, nil
}

// ClaimDue returns, in due order, the events due at now that are not done
// and not held by a live claim, and holds them until now+lease. A claimer
// that dies without Complete lets the lease run out and the event is
// claimed again (Attempts counts the claims). Several stores on one
// PostgreSQL database (or one SQLite file) may claim at once: each due
// event goes to exactly one of them per lease.
func (s *Store) ClaimDue(ctx context.Context, now time.Time, lease time.Duration) ([]Event, error) {
	var out []Event
	err := s.tx(ctx, func(tx *sql.Tx) error {
		q := `UPDATE events SET attempts=attempts+1, claimed_until=?
			WHERE done=0 AND due_at<=? AND claimed_until<=?
			RETURNING id, kind, ref, ply, due_at, payload, attempts`
		if s.pg {
			// Instances claiming at once skip each other's locked rows
			// instead of queueing behind them; a row another claimer has
			// just leased fails claimed_until<=now when rechecked.
			q = `UPDATE events SET attempts=attempts+1, claimed_until=?
			WHERE id IN (SELECT id FROM events WHERE done=0 AND due_at<=? AND claimed_until<=? FOR UPDATE SKIP LOCKED)
			RETURNING id, kind, ref, ply, due_at, payload, attempts`
		}
		rows, err := tx.QueryContext(ctx, q, now.Add(lease).UnixNano(), now.UnixNano(), now.UnixNano())
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e Event
			var due int64
			if err := rows.Scan(&e.ID, &e.Kind, &e.Ref, &e.Ply, &due, &e.Payload, &e.Attempts); err != nil {
				return err
			}
			e.Due = fromNanos(due)
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("claim due events: %w", err)
	}
	// RETURNING gives no order guarantee; due order is the contract.
	slices.SortFunc(out, func(a, b Event) int {
		if c := a.Due.Compare(b.Due); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Complete marks a claimed event done.
func (s *Store) Complete(ctx context.Context, id int64) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE events SET done=1 WHERE id=?`, id); err != nil {
			return fmt.Errorf("complete event %d: %w", id, err)
		}
		return nil
	})
}

// CancelEvents drops the pending events of ref of the given kinds (all
// kinds when none is given).
func (s *Store) CancelEvents(ctx context.Context, ref int64, kinds ...string) error {
	q, args := `DELETE FROM events WHERE ref=? AND done=0`, []any{ref}
	if len(kinds) > 0 {
		q += ` AND kind IN (?` + strings.Repeat(",?", len(kinds)-1) + `)`
		for _, k := range kinds {
			args = append(args, k)
		}
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("cancel events of %d: %w", ref, err)
		}
		return nil
	})
}
