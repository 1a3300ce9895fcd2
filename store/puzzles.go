package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Puzzles solved in Discord: the puzzle each player is solving, their
// Glicko-2 puzzle rating per game, each puzzle's own rating and the first
// attempts. The store keeps the numbers; the rating math is the caller's
// (FinishPuzzle takes it as a function).

// ActivePuzzle is the puzzle a player is solving.
type ActivePuzzle struct {
	Player, Game, PuzzleID string
	Step                   int  // solver moves already played right
	Hinted                 bool // a hint was taken
	Started                time.Time
}

// ErrPuzzleMoved: the active puzzle changed (finished or replaced) since it
// was read.
var ErrPuzzleMoved = errors.New("store: the active puzzle changed")

// PuzzleRating is a player's puzzle standing in one game.
type PuzzleRating struct {
	Player, Game          string
	Glicko                // Rating, RD, Vol
	Solved, Clean, Failed int
	Streak, BestStreak    int
	Last                  time.Time
}

// PuzzleRateFunc computes the player's and the puzzle's new ratings from
// their current ones (nil: none yet) and the attempt's result. It runs
// inside the write transaction, so it must not use the store.
type PuzzleRateFunc func(player, puzzle *Glicko, solved, hinted bool) (newPlayer, newPuzzle Glicko)

// ActivePuzzle reads the puzzle player is solving; ErrNotFound when none.
func (s *Store) ActivePuzzle(ctx context.Context, player string) (*ActivePuzzle, error) {
	var a ActivePuzzle
	var hinted, at int64
	err := s.r.QueryRowContext(ctx, `SELECT player, game, puzzle_id, step, hinted, started_at FROM puzzle_active WHERE player=?`, player).
		Scan(&a.Player, &a.Game, &a.PuzzleID, &a.Step, &hinted, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("active puzzle of %s: %w", player, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("active puzzle of %s: %w", player, err)
	}
	a.Hinted, a.Started = hinted != 0, fromNanos(at)
	return &a, nil
}

// SetActivePuzzle writes the puzzle a player is solving (replacing any).
func (s *Store) SetActivePuzzle(ctx context.Context, a *ActivePuzzle) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO puzzle_active(player, game, puzzle_id, step, hinted, started_at) VALUES(?,?,?,?,?,?)
			ON CONFLICT(player) DO UPDATE SET game=excluded.game, puzzle_id=excluded.puzzle_id, step=excluded.step,
			hinted=excluded.hinted, started_at=excluded.started_at`,
			a.Player, a.Game, a.PuzzleID, a.Step, boolInt(a.Hinted), a.Started.UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("set active puzzle of %s: %w", a.Player, err)
	}
	return nil
}

// UpdateActivePuzzle moves the player's active puzzle from old to the
// step and hint of next, if it is still old (same puzzle, step and hint):
// ErrPuzzleMoved otherwise, so that a double answer or hint counts once.
func (s *Store) UpdateActivePuzzle(ctx context.Context, old, next *ActivePuzzle) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE puzzle_active SET step=?, hinted=? WHERE player=? AND puzzle_id=? AND step=? AND hinted=?`,
			next.Step, boolInt(next.Hinted), old.Player, old.PuzzleID, old.Step, boolInt(old.Hinted))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrPuzzleMoved
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("update active puzzle of %s: %w", old.Player, err)
	}
	return nil
}

const puzzleRatingCols = `player, game, rating, rd, vol, solved, clean, failed, streak, best_streak, last_at`

func scanPuzzleRating(r scanner) (*PuzzleRating, error) {
	var p PuzzleRating
	var last int64
	if err := r.Scan(&p.Player, &p.Game, &p.Rating, &p.RD, &p.Vol, &p.Solved, &p.Clean, &p.Failed, &p.Streak, &p.BestStreak, &last); err != nil {
		return nil, err
	}
	p.Last = fromNanos(last)
	return &p, nil
}

// PuzzleRating reads a player's puzzle rating in a game; ErrNotFound when
// the player has not finished a puzzle of that game.
func (s *Store) PuzzleRating(ctx context.Context, player, game string) (*PuzzleRating, error) {
	p, err := scanPuzzleRating(s.r.QueryRowContext(ctx, `SELECT `+puzzleRatingCols+` FROM puzzle_ratings WHERE player=? AND game=?`, player, game))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("puzzle rating of %s in %s: %w", player, game, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("puzzle rating of %s in %s: %w", player, game, err)
	}
	return p, nil
}

// PuzzleRatings are a player's puzzle ratings in every game, by game name.
func (s *Store) PuzzleRatings(ctx context.Context, player string) ([]*PuzzleRating, error) {
	out, err := queryAll(ctx, s.r, scanPuzzleRating, `SELECT `+puzzleRatingCols+` FROM puzzle_ratings WHERE player=? ORDER BY game`, player)
	if err != nil {
		return nil, fmt.Errorf("puzzle ratings of %s: %w", player, err)
	}
	return out, nil
}

// PuzzleCurrentRatings are the Glicko-2 ratings the puzzles of game have
// now (puzzle_stats), by puzzle id: the puzzles attempted at least once.
func (s *Store) PuzzleCurrentRatings(ctx context.Context, game string) (map[string]float64, error) {
	type row struct {
		id string
		r  float64
	}
	rows, err := queryAll(ctx, s.r, func(r scanner) (row, error) {
		var x row
		err := r.Scan(&x.id, &x.r)
		return x, err
	}, `SELECT puzzle_id, rating FROM puzzle_stats WHERE game=?`, game)
	if err != nil {
		return nil, fmt.Errorf("current puzzle ratings of %s: %w", game, err)
	}
	out := make(map[string]float64, len(rows))
	for _, x := range rows {
		out[x.id] = x.r
	}
	return out, nil
}

// PuzzlesTried are the ids of the puzzles of game player has attempted.
func (s *Store) PuzzlesTried(ctx context.Context, player, game string) (map[string]bool, error) {
	ids, err := queryAll(ctx, s.r, func(r scanner) (string, error) {
		var id string
		err := r.Scan(&id)
		return id, err
	}, `SELECT puzzle_id FROM puzzle_attempts WHERE player=? AND game=?`, player, game)
	if err != nil {
		return nil, fmt.Errorf("puzzles tried by %s: %w", player, err)
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// FinishPuzzle ends the player's active puzzle a (it must still be the
// stored one: ErrPuzzleMoved otherwise) as solved or failed. The first
// attempt at a puzzle records it and rates both the player and the puzzle
// with rate; a later one only ends it. It returns the player's rating
// after (nil when the attempt was not the first and the player has none)
// and whether the attempt counted.
func (s *Store) FinishPuzzle(ctx context.Context, a *ActivePuzzle, solved bool, at time.Time, rate PuzzleRateFunc) (*PuzzleRating, bool, error) {
	var out *PuzzleRating
	first := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM puzzle_active WHERE player=? AND puzzle_id=?`, a.Player, a.PuzzleID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrPuzzleMoved
		}
		var seen int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM puzzle_attempts WHERE player=? AND puzzle_id=?`, a.Player, a.PuzzleID).Scan(&seen); err != nil {
			return err
		}
		if seen == 0 {
			first = true
			if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_attempts(player, puzzle_id, game, solved, hinted, at) VALUES(?,?,?,?,?,?)`,
				a.Player, a.PuzzleID, a.Game, boolInt(solved), boolInt(a.Hinted), at.UnixNano()); err != nil {
				return err
			}
			p, err := scanPuzzleRating(tx.QueryRowContext(ctx, `SELECT `+puzzleRatingCols+` FROM puzzle_ratings WHERE player=? AND game=?`, a.Player, a.Game))
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			var pz *Glicko
			var g Glicko
			switch err := tx.QueryRowContext(ctx, `SELECT rating, rd, vol FROM puzzle_stats WHERE puzzle_id=?`, a.PuzzleID).Scan(&g.Rating, &g.RD, &g.Vol); {
			case err == nil:
				pz = &g
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			var before *Glicko
			if p != nil {
				before = &p.Glicko
			} else {
				p = &PuzzleRating{Player: a.Player, Game: a.Game}
			}
			np, npz := rate(before, pz, solved, a.Hinted)
			p.Glicko, p.Last = np, at
			switch {
			case solved && !a.Hinted:
				p.Solved++
				p.Clean++
				p.Streak++
				p.BestStreak = max(p.BestStreak, p.Streak)
			case solved:
				p.Solved++
				p.Streak = 0
			default:
				p.Failed++
				p.Streak = 0
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_ratings(`+puzzleRatingCols+`) VALUES(?,?,?,?,?,?,?,?,?,?,?)
				ON CONFLICT(player, game) DO UPDATE SET rating=excluded.rating, rd=excluded.rd, vol=excluded.vol, solved=excluded.solved,
				clean=excluded.clean, failed=excluded.failed, streak=excluded.streak, best_streak=excluded.best_streak, last_at=excluded.last_at`,
				p.Player, p.Game, p.Rating, p.RD, p.Vol, p.Solved, p.Clean, p.Failed, p.Streak, p.BestStreak, at.UnixNano()); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_stats(puzzle_id, game, rating, rd, vol, attempts, solved) VALUES(?,?,?,?,?,1,?)
				ON CONFLICT(puzzle_id) DO UPDATE SET rating=excluded.rating, rd=excluded.rd, vol=excluded.vol,
				attempts=puzzle_stats.attempts+1, solved=puzzle_stats.solved+excluded.solved`,
				a.PuzzleID, a.Game, npz.Rating, npz.RD, npz.Vol, boolInt(solved)); err != nil {
				return err
			}
			out = p
			return nil
		}
		p, err := scanPuzzleRating(tx.QueryRowContext(ctx, `SELECT `+puzzleRatingCols+` FROM puzzle_ratings WHERE player=? AND game=?`, a.Player, a.Game))
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		out = p
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("finish puzzle %s of %s: %w", a.PuzzleID, a.Player, err)
	}
	return out, first, nil
}

// PoolPuzzle is a puzzle found in a finished game of a server (Guild) and
// served to that server's players. The store keeps it as its collection
// line; engine/puzzle reads it (ParseLine).
type PoolPuzzle struct {
	Guild, ID, Game string
	Line            string
	Rating          int   // the puzzle's starting rating
	GameID          int64 // the finished game it came from
	Added           time.Time
}

// UnminedGames are the oldest finished games not yet mined for puzzles
// (MarkMined), at most limit.
func (s *Store) UnminedGames(ctx context.Context, limit int) ([]*Game, error) {
	out, err := queryAll(ctx, s.r, scanGame, `SELECT `+gameCols+` FROM games WHERE status=?
		AND NOT EXISTS (SELECT 1 FROM puzzle_mined WHERE puzzle_mined.game_id=games.id) ORDER BY id LIMIT ?`, StatusFinished, limit)
	if err != nil {
		return nil, fmt.Errorf("unmined games: %w", err)
	}
	return out, nil
}

// MarkMined records, in one transaction, that game was mined and the
// puzzles it gave: each joins its server's pool once (a puzzle already
// there, from this game mined again after a crash or from another game,
// is left as it is). It returns how many were new.
func (s *Store) MarkMined(ctx context.Context, game int64, found []*PoolPuzzle, at time.Time) (int, error) {
	added := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		added = 0
		for _, p := range found {
			res, err := tx.ExecContext(ctx, `INSERT INTO puzzle_pool(guild, puzzle_id, game, line, rating, game_id, added_at) VALUES(?,?,?,?,?,?,?)
				ON CONFLICT(guild, puzzle_id) DO NOTHING`, p.Guild, p.ID, p.Game, p.Line, p.Rating, game, at.UnixNano())
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n > 0 {
				added++
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO puzzle_mined(game_id, found, mined_at) VALUES(?,?,?)
			ON CONFLICT(game_id) DO UPDATE SET found=excluded.found, mined_at=excluded.mined_at`, game, len(found), at.UnixNano())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("puzzles of game %d: %w", game, err)
	}
	return added, nil
}

const poolCols = `guild, puzzle_id, game, line, rating, game_id, added_at`

func scanPool(r scanner) (*PoolPuzzle, error) {
	var p PoolPuzzle
	var at int64
	if err := r.Scan(&p.Guild, &p.ID, &p.Game, &p.Line, &p.Rating, &p.GameID, &at); err != nil {
		return nil, err
	}
	p.Added = fromNanos(at)
	return &p, nil
}

// PoolPuzzles are the puzzles of game found in guild's games, oldest first.
func (s *Store) PoolPuzzles(ctx context.Context, guild, game string) ([]*PoolPuzzle, error) {
	out, err := queryAll(ctx, s.r, scanPool, `SELECT `+poolCols+` FROM puzzle_pool WHERE guild=? AND game=? ORDER BY added_at, puzzle_id`, guild, game)
	if err != nil {
		return nil, fmt.Errorf("puzzle pool of %s: %w", guild, err)
	}
	return out, nil
}

// PoolPuzzle reads a pooled puzzle by id, from whichever server found it
// (an id names one position and its proven line); ErrNotFound when none.
func (s *Store) PoolPuzzle(ctx context.Context, id string) (*PoolPuzzle, error) {
	p, err := scanPool(s.r.QueryRowContext(ctx, `SELECT `+poolCols+` FROM puzzle_pool WHERE puzzle_id=? ORDER BY added_at LIMIT 1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("pooled puzzle %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("pooled puzzle %s: %w", id, err)
	}
	return p, nil
}
