package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The daily puzzle (docs/puzzles.md): one public puzzle per server and
// day, and who solved it. The (guild, day) key of daily_posts is the
// compare-and-set that makes the post happen once however many instances
// fire the day's event.

// DailyPost is one server's puzzle of one day.
type DailyPost struct {
	Guild, Day, Game, PuzzleID, Channel string
	Posted                              time.Time // the slot: when it was due
	MessageID                           string    // the post's Discord id once delivered
}

// DailySolver is a player who opened a daily puzzle.
type DailySolver struct {
	Player, Name string
	Misses       int       // failed attempts
	Solved       time.Time // zero while not solved
}

// PostDaily records p and, only when no post of p.Guild for p.Day exists
// yet, applies eff (its announcement queued); either way the pending
// events of kind next.Kind for next.Ref are replaced by next (the
// following day's), all in one transaction. It reports whether p was
// new.
func (s *Store) PostDaily(ctx context.Context, p DailyPost, next Event, eff Effects) (bool, error) {
	var fresh bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := cancelEvents(ctx, tx, next.Ref, []string{next.Kind}, s.now()); err != nil {
			return err
		}
		if _, err := insertEvent(ctx, tx, next); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO daily_posts(guild, day, game, puzzle_id, channel, posted_at) VALUES(?,?,?,?,?,?)
			ON CONFLICT(guild, day) DO NOTHING`, p.Guild, p.Day, p.Game, p.PuzzleID, p.Channel, p.Posted.UnixNano())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if fresh = n == 1; !fresh {
			return nil
		}
		return s.apply(ctx, tx, 0, eff)
	})
	if err != nil {
		return false, fmt.Errorf("daily puzzle of server %s on %s: %w", p.Guild, p.Day, err)
	}
	return fresh, nil
}

// RecentDailies are a server's last n daily puzzles, newest first.
func (s *Store) RecentDailies(ctx context.Context, guild string, n int) ([]DailyPost, error) {
	out, err := queryAll(ctx, s.r, scanDailyPost, `SELECT guild, day, game, puzzle_id, channel, posted_at, message_id FROM daily_posts
		WHERE guild=? ORDER BY day DESC LIMIT ?`, guild, n)
	if err != nil {
		return nil, fmt.Errorf("daily puzzles of server %s: %w", guild, err)
	}
	return out, nil
}

func scanDailyPost(r scanner) (DailyPost, error) {
	var p DailyPost
	var at int64
	if err := r.Scan(&p.Guild, &p.Day, &p.Game, &p.PuzzleID, &p.Channel, &at, &p.MessageID); err != nil {
		return DailyPost{}, err
	}
	p.Posted = fromNanos(at)
	return p, nil
}

// OpenDaily notes that player (shown as name) opened the daily puzzle of
// guild on day; opening it again keeps their record. It returns that
// record.
func (s *Store) OpenDaily(ctx context.Context, guild, day, player, name string) (DailySolver, error) {
	var d DailySolver
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO daily_solvers(guild, day, player, name) VALUES(?,?,?,?)
			ON CONFLICT(guild, day, player) DO UPDATE SET name=excluded.name`, guild, day, player, name); err != nil {
			return err
		}
		var at sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT player, name, misses, solved_at FROM daily_solvers WHERE guild=? AND day=? AND player=?`,
			guild, day, player).Scan(&d.Player, &d.Name, &d.Misses, &at); err != nil {
			return err
		}
		if at.Valid {
			d.Solved = fromNanos(at.Int64)
		}
		return nil
	})
	if err != nil {
		return d, fmt.Errorf("open the daily puzzle of server %s on %s for %s: %w", guild, day, player, err)
	}
	return d, nil
}

// FinishDaily records the end of player's attempt at puzzle: on every
// daily puzzle with that id the player opened and has not solved yet, a
// solve (at) or a miss.
func (s *Store) FinishDaily(ctx context.Context, player, puzzleID string, solved bool, at time.Time) error {
	q, args := `UPDATE daily_solvers SET misses=misses+1`, []any{}
	if solved {
		q, args = `UPDATE daily_solvers SET solved_at=?`, []any{at.UnixNano()}
	}
	q += ` WHERE player=? AND solved_at IS NULL AND EXISTS (SELECT 1 FROM daily_posts p
		WHERE p.guild=daily_solvers.guild AND p.day=daily_solvers.day AND p.puzzle_id=?)`
	args = append(args, player, puzzleID)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	})
	if err != nil {
		return fmt.Errorf("daily result of %s on %s: %w", player, puzzleID, err)
	}
	return nil
}

// DailySolvers are the players who solved the daily puzzle of guild on
// day before until, fastest first.
func (s *Store) DailySolvers(ctx context.Context, guild, day string, until time.Time) ([]DailySolver, error) {
	out, err := queryAll(ctx, s.r, scanDailySolver, `SELECT player, name, misses, solved_at FROM daily_solvers
		WHERE guild=? AND day=? AND solved_at IS NOT NULL AND solved_at<? ORDER BY solved_at, player`, guild, day, until.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("solvers of the daily puzzle of server %s on %s: %w", guild, day, err)
	}
	return out, nil
}

// scanDailySolver reads a solver (solved_at not NULL).
func scanDailySolver(r scanner) (DailySolver, error) {
	var d DailySolver
	var at int64
	if err := r.Scan(&d.Player, &d.Name, &d.Misses, &at); err != nil {
		return DailySolver{}, err
	}
	d.Solved = fromNanos(at)
	return d, nil
}

// DailyPost reads the daily puzzle of guild on day; ErrNotFound when none.
func (s *Store) DailyPost(ctx context.Context, guild, day string) (DailyPost, error) {
	p := DailyPost{}
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT guild, day, game, puzzle_id, channel, posted_at, message_id FROM daily_posts WHERE guild=? AND day=?`, guild, day).
		Scan(&p.Guild, &p.Day, &p.Game, &p.PuzzleID, &p.Channel, &at, &p.MessageID)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("daily puzzle of server %s on %s: %w", guild, day, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("daily puzzle of server %s on %s: %w", guild, day, err)
	}
	p.Posted = fromNanos(at)
	return p, nil
}

// SetDailyMessage records the Discord id of a day's post once delivered,
// so that the next day's post can take its Solve button away.
func (s *Store) SetDailyMessage(ctx context.Context, guild, day, messageID string) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE daily_posts SET message_id=? WHERE guild=? AND day=?`, messageID, guild, day)
		return err
	})
	if err != nil {
		return fmt.Errorf("message of the daily puzzle of server %s on %s: %w", guild, day, err)
	}
	return nil
}

// DailyAttempt is a daily puzzle a player opened, for their data export.
type DailyAttempt struct {
	Guild, Day, PuzzleID string
	DailySolver
}

// dailyAttempts lists the daily puzzles user opened, oldest first.
func dailyAttempts(ctx context.Context, tx *sql.Tx, user string) ([]DailyAttempt, error) {
	return queryAll(ctx, tx, scanDailyAttempt, `SELECT s.guild, s.day, COALESCE(p.puzzle_id, ''), s.player, s.name, s.misses, s.solved_at
		FROM daily_solvers s LEFT JOIN daily_posts p ON p.guild=s.guild AND p.day=s.day WHERE s.player=? ORDER BY s.day, s.guild`, user)
}

func scanDailyAttempt(r scanner) (DailyAttempt, error) {
	var a DailyAttempt
	var at sql.NullInt64
	if err := r.Scan(&a.Guild, &a.Day, &a.PuzzleID, &a.Player, &a.Name, &a.Misses, &at); err != nil {
		return DailyAttempt{}, err
	}
	if at.Valid {
		a.Solved = fromNanos(at.Int64)
	}
	return a, nil
}
