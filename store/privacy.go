package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Players' data rights: everything stored about a user, exported in one
// read, or erased in one transaction.

// DeletedPlayer replaces an erased user's id (and, through Scrub, their
// name) in the records other players keep.
const DeletedPlayer = "deleted player"

// ReasonErased ends the active games of an erased player: aborted, without
// a result, never rated.
const ReasonErased = "player data deleted"

// UserData is everything the store holds about one user.
type UserData struct {
	User        string
	Exported    time.Time
	Profile     *Player // nil when none was saved
	Ratings     []*PlayerRating
	Changes     []RatingChange // the user's own rating changes, game by game
	Games       []UserGame     // every game they played, with its moves
	Challenges  []*Challenge   // challenges they made or received
	Daily       []DailyAttempt `json:",omitempty"` // the servers' daily puzzles they opened
	Backend     string
	SchemaLevel int
}

// UserGame is one of the user's games with its move log.
type UserGame struct {
	*Game
	Moves []MoveRecord
}

// ExportUser reads everything stored about user in one read transaction
// (one consistent snapshot). A user the bot never saw gives empty lists and
// no profile, not an error.
func (s *Store) ExportUser(ctx context.Context, user string) (*UserData, error) {
	if user == "" || user == DeletedPlayer {
		return nil, fmt.Errorf("export user %q: not a user id", user)
	}
	opts := &sql.TxOptions{ReadOnly: true}
	if s.pg {
		opts.Isolation = sql.LevelRepeatableRead // one snapshot for every query
	}
	tx, err := s.r.BeginTx(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("export user %s: %w", user, err)
	}
	defer tx.Rollback()
	d := &UserData{User: user, Exported: s.now().UTC(), Backend: s.Backend()}
	fail := func(what string, err error) (*UserData, error) {
		return nil, fmt.Errorf("export user %s: %s: %w", user, what, err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&d.SchemaLevel); err != nil {
		return fail("schema", err)
	}
	p := Player{ID: user}
	var rating sql.NullFloat64
	err = tx.QueryRowContext(ctx, `SELECT name, locale, seen_locale, flip, rating, text_mode FROM players WHERE id=?`, user).
		Scan(&p.Name, &p.Locale, &p.SeenLocale, &p.Flip, &rating, &p.TextMode)
	switch {
	case err == nil:
		if rating.Valid {
			p.Rating = &rating.Float64
		}
		d.Profile = &p
	case !errors.Is(err, sql.ErrNoRows):
		return fail("profile", err)
	}
	if d.Ratings, err = queryAll(ctx, tx, scanRating, `SELECT `+ratingCols+` FROM ratings WHERE player=? ORDER BY guild, kind`, user); err != nil {
		return fail("ratings", err)
	}
	d.Changes, err = queryAll(ctx, tx, func(r scanner) (RatingChange, error) {
		c := RatingChange{Player: user}
		var at int64
		if err := r.Scan(&c.GameID, &c.Side, &c.Before.Rating, &c.Before.RD, &c.After.Rating, &c.After.RD, &c.After.Vol, &at); err != nil {
			return RatingChange{}, err
		}
		c.At = fromNanos(at)
		return c, nil
	}, `SELECT game_id, side, rating_before, rd_before, rating_after, rd_after, vol_after, at
		FROM rating_changes WHERE player=? ORDER BY at, game_id`, user)
	if err != nil {
		return fail("rating changes", err)
	}
	d.Games, err = queryAll(ctx, tx, func(r scanner) (UserGame, error) {
		g, err := scanGame(r)
		return UserGame{Game: g}, err
	}, `SELECT `+gameCols+` FROM games WHERE player0=? OR player1=? ORDER BY id`, user, user)
	if err != nil {
		return fail("games", err)
	}
	for i := range d.Games {
		if d.Games[i].Moves, err = moves(ctx, tx, d.Games[i].ID); err != nil {
			return fail("moves", err)
		}
	}
	if d.Challenges, err = queryAll(ctx, tx, scanChallenge, `SELECT `+challengeCols+` FROM challenges WHERE challenger=? OR challenged=? ORDER BY id`, user, user); err != nil {
		return fail("challenges", err)
	}
	if d.Daily, err = dailyAttempts(ctx, tx, user); err != nil {
		return fail("daily puzzles", err)
	}
	return d, nil
}

// Scrub rewrites the caller's opaque Extra of a game or challenge so that
// it no longer names the erased player, who plays side (0 or 1; for a
// challenge 0 is the challenger). The store cannot read Extra itself; the
// name columns it replaces itself.
type Scrub struct {
	Game      func(extra string, side int) (string, error)
	Challenge func(extra string, side int) (string, error)
}

// Erased counts what DeleteUser changed.
type Erased struct {
	Profiles, Ratings, RatingChanges, Games, Aborted, Challenges int64
}

// DeleteUser erases user in one transaction: their profile and ratings are
// removed; in games, rating changes and challenges their id becomes
// DeletedPlayer and scrub removes their name from the rows' Extra, so the
// other players keep their records (moves, results, their own ratings).
// Their active games are aborted (ReasonErased, no result, not rated) and
// their pending challenges cancelled. Deleting a user the store does not
// know changes nothing and is not an error.
func (s *Store) DeleteUser(ctx context.Context, user string, scrub Scrub) (Erased, error) {
	var e Erased
	if user == "" || user == DeletedPlayer {
		return e, fmt.Errorf("delete user %q: not a user id", user)
	}
	now := s.now().UnixNano()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		exec := func(n *int64, q string, args ...any) error {
			res, err := tx.ExecContext(ctx, q, args...)
			if err != nil {
				return err
			}
			c, err := res.RowsAffected()
			*n += c
			return err
		}
		if err := exec(&e.Profiles, `DELETE FROM players WHERE id=?`, user); err != nil {
			return fmt.Errorf("profile: %w", err)
		}
		if err := exec(&e.Ratings, `DELETE FROM ratings WHERE player=?`, user); err != nil {
			return fmt.Errorf("ratings: %w", err)
		}
		var daily int64 // the daily puzzles they opened (names shown in posts)
		if err := exec(&daily, `DELETE FROM daily_solvers WHERE player=?`, user); err != nil {
			return fmt.Errorf("daily puzzles: %w", err)
		}
		if err := exec(&e.RatingChanges, `UPDATE rating_changes SET player=? WHERE player=?`, DeletedPlayer, user); err != nil {
			return fmt.Errorf("rating changes: %w", err)
		}
		// Abort first: the active-pair index then never sees two
		// "deleted player" games against one opponent in one channel.
		if err := exec(&e.Aborted, `UPDATE games SET rev=rev+1, status=?, result='', reason=?, draw_offer=0, takeback=0, rated=0, updated_at=?
			WHERE status=? AND (player0=? OR player1=?)`, StatusFinished, ReasonErased, now, StatusActive, user, user); err != nil {
			return fmt.Errorf("abort active games: %w", err)
		}
		type row struct {
			id    int64
			side  int
			extra string
		}
		read := func(q string) ([]row, error) {
			return queryAll(ctx, tx, func(r scanner) (row, error) {
				var x row
				err := r.Scan(&x.id, &x.side, &x.extra)
				return x, err
			}, q, user, user)
		}
		games, err := read(`SELECT id, CASE WHEN player0=? THEN 0 ELSE 1 END, extra FROM games WHERE ? IN (player0, player1) ORDER BY id`)
		if err != nil {
			return fmt.Errorf("games: %w", err)
		}
		for _, g := range games {
			extra := g.extra
			if scrub.Game != nil {
				if extra, err = scrub.Game(extra, g.side); err != nil {
					return fmt.Errorf("scrub game %d: %w", g.id, err)
				}
			}
			// A game against oneself names the user on both sides.
			// SET reads the old row, so each CASE sees the id being replaced.
			if err := exec(&e.Games, `UPDATE games SET rev=rev+1, extra=?, updated_at=?,
				name0=CASE WHEN player0=? THEN ? ELSE name0 END, name1=CASE WHEN player1=? THEN ? ELSE name1 END,
				player0=CASE WHEN player0=? THEN ? ELSE player0 END, player1=CASE WHEN player1=? THEN ? ELSE player1 END WHERE id=?`,
				extra, now, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, g.id); err != nil {
				return fmt.Errorf("game %d: %w", g.id, err)
			}
		}
		var cancelled int64
		if err := exec(&cancelled, `UPDATE challenges SET status=? WHERE status=? AND (challenger=? OR challenged=?)`,
			ChallengeCancelled, ChallengePending, user, user); err != nil {
			return fmt.Errorf("cancel challenges: %w", err)
		}
		chs, err := read(`SELECT id, CASE WHEN challenger=? THEN 0 ELSE 1 END, extra FROM challenges WHERE ? IN (challenger, challenged) ORDER BY id`)
		if err != nil {
			return fmt.Errorf("challenges: %w", err)
		}
		for _, c := range chs {
			extra := c.extra
			if scrub.Challenge != nil {
				if extra, err = scrub.Challenge(extra, c.side); err != nil {
					return fmt.Errorf("scrub challenge %d: %w", c.id, err)
				}
			}
			if err := exec(&e.Challenges, `UPDATE challenges SET extra=?,
				challenger_name=CASE WHEN challenger=? THEN ? ELSE challenger_name END, challenged_name=CASE WHEN challenged=? THEN ? ELSE challenged_name END,
				challenger=CASE WHEN challenger=? THEN ? ELSE challenger END, challenged=CASE WHEN challenged=? THEN ? ELSE challenged END WHERE id=?`,
				extra, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, c.id); err != nil {
				return fmt.Errorf("challenge %d: %w", c.id, err)
			}
		}
		return nil
	})
	if err != nil {
		return Erased{}, fmt.Errorf("delete user %s: %w", user, err)
	}
	return e, nil
}
