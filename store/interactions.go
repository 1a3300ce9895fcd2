package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// InteractionMemory is how long the ids of handled interactions are kept
// at least: beyond Discord's 5-minute window in which a signed interaction
// can be replayed, with room for clock skew. Purge keeps them that long
// whatever its cutoff.
const InteractionMemory = 15 * time.Minute

// FirstInteraction records that interaction id is being handled (at now)
// and reports whether it is the first time any instance on this database
// saw it. False means a replay or a duplicate delivery: answer it
// harmlessly and change nothing.
func (s *Store) FirstInteraction(ctx context.Context, id string, now time.Time) (bool, error) {
	var first bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO interactions(id, seen_at) VALUES(?, ?) ON CONFLICT(id) DO NOTHING`, id, now.UnixNano())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		first = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("interaction %s: %w", id, err)
	}
	return first, nil
}

// SeenInteraction reports whether interaction id was recorded by
// FirstInteraction (and not yet purged).
func (s *Store) SeenInteraction(ctx context.Context, id string) (bool, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM interactions WHERE id=?`, id).Scan(&n); err != nil {
		return false, fmt.Errorf("interaction %s: %w", id, err)
	}
	return n > 0, nil
}

// purgeInteractions drops the interaction ids seen before before, but never
// one younger than InteractionMemory (by the store's clock).
func (s *Store) purgeInteractions(ctx context.Context, tx *sql.Tx, before time.Time) (int64, error) {
	if latest := s.now().Add(-InteractionMemory); before.After(latest) {
		before = latest
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE seen_at<?`, before.UnixNano())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
