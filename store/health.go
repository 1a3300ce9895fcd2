package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"
)

// Ready tells whether the database can serve the bot: it answers on both
// pools, its schema is exactly this binary's, and (SQLite) its file is
// still there. The error says what is wrong, for /readyz.
func (s *Store) Ready(ctx context.Context) error {
	if !s.pg {
		if _, err := os.Stat(s.path); err != nil {
			return fmt.Errorf("database file: %w", err)
		}
	}
	for _, db := range []*sql.DB{s.w, s.r} {
		if err := db.PingContext(ctx); err != nil {
			return fmt.Errorf("database unreachable: %w", err)
		}
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return fmt.Errorf("database unreadable: %w", err)
	}
	ms, err := migrations(s.pg)
	if err != nil {
		return err
	}
	if v != len(ms) {
		return fmt.Errorf("database schema is at version %d, this tankbot needs %d", v, len(ms))
	}
	return nil
}

// Stats are the live figures the metrics show.
type Stats struct {
	ActiveGames   int
	OutboxPending int
	OutboxOldest  time.Time // created time of the oldest pending message; zero when none
}

// Stats reads the number of active games and the outbox's backlog.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	var oldest int64
	err := s.r.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM games WHERE status=?),
		(SELECT COUNT(*) FROM outbox WHERE state='pending'), (SELECT COALESCE(MIN(created_at), 0) FROM outbox WHERE state='pending')`,
		StatusActive).Scan(&st.ActiveGames, &st.OutboxPending, &oldest)
	if err != nil {
		return st, fmt.Errorf("stats: %w", err)
	}
	st.OutboxOldest = fromNanos(oldest)
	return st, nil
}
