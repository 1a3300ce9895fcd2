package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
		var err error
		id, err = insertEvent(ctx, tx, e)
		return err
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
		var err error
		out, err = queryAll(ctx, tx, scanEvent, q, now.Add(lease).UnixNano(), now.UnixNano(), now.UnixNano())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim due events: %w", err)
	}
	sortByDue(out, func(e Event) (time.Time, int64) { return e.Due, e.ID })
	return out, nil
}

// sortByDue orders claimed rows by due time, then id: RETURNING gives no
// order guarantee and due order is the contract.
func sortByDue[T any](xs []T, key func(T) (time.Time, int64)) {
	slices.SortFunc(xs, func(a, b T) int {
		da, ia := key(a)
		db, ib := key(b)
		if c := da.Compare(db); c != 0 {
			return c
		}
		return cmp.Compare(ia, ib)
	})
}

// Complete marks a claimed event done, writing its effects (Ref 0: the
// event's ref; at most one Effects) in the same transaction: a reminder and
// its message are one write, so a crash never sends it twice.
func (s *Store) Complete(ctx context.Context, id int64, eff ...Effects) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var ref int64
		err := tx.QueryRowContext(ctx, `UPDATE events SET done=1, done_at=? WHERE id=? AND done=0 RETURNING ref`, s.now().UnixNano(), id).Scan(&ref)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // completed already (a lease ran out and another claimer finished it)
		}
		if err != nil {
			return fmt.Errorf("complete event %d: %w", id, err)
		}
		return s.apply(ctx, tx, ref, one(eff))
	})
}

// CancelEvents drops the pending events of ref of the given kinds (all
// kinds when none is given).
func (s *Store) CancelEvents(ctx context.Context, ref int64, kinds ...string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := cancelEvents(ctx, tx, ref, kinds, s.now()); err != nil {
			return fmt.Errorf("cancel events of %d: %w", ref, err)
		}
		return nil
	})
}

// PendingEvents lists the pending events of ref (any kind when kind is ""),
// in due order.
func (s *Store) PendingEvents(ctx context.Context, ref int64, kind string) ([]Event, error) {
	out, err := queryAll(ctx, s.r, scanEvent, `SELECT id, kind, ref, ply, due_at, payload, attempts FROM events
		WHERE ref=? AND done=0 AND (?='' OR kind=?) ORDER BY due_at, id`, ref, kind, kind)
	if err != nil {
		return nil, fmt.Errorf("events of %d: %w", ref, err)
	}
	return out, nil
}

// scanEvent reads id, kind, ref, ply, due_at, payload, attempts.
func scanEvent(r scanner) (Event, error) {
	var e Event
	var due int64
	if err := r.Scan(&e.ID, &e.Kind, &e.Ref, &e.Ply, &due, &e.Payload, &e.Attempts); err != nil {
		return Event{}, err
	}
	e.Due = fromNanos(due)
	return e, nil
}
