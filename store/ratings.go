package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Ratings: one Glicko-2 state per (ladder, game kind, player); the ladder
// (column guild) is a server's id or GlobalLadder, as the game's Ladder. The store
// keeps the numbers and counts; the math is the caller's (ApplyRatedResult
// takes it as a function), so the store stays free of rating rules.

// Errors of ApplyRatedResult.
var (
	ErrNotRated = errors.New("store: the game is not rated (casual, aborted, unfinished or without a result)")
)

// Glicko is a rating, its deviation and volatility.
type Glicko struct {
	Rating, RD, Vol float64
}

// PlayerRating is a player's standing in one game on one server.
type PlayerRating struct {
	Guild, Kind, Player string
	Glicko
	Games, Wins, Draws, Losses int
	Streak                     int // current: +n wins in a row, -n losses in a row
	BestStreak                 int // longest run of wins
	Last                       time.Time
}

// RatingChange is what one rated game did to one side's rating.
type RatingChange struct {
	GameID  int64
	Side    int
	Player  string
	Before  Glicko // Vol of Before is not kept (0)
	After   Glicko
	At      time.Time
	Applied bool // false when the change had been applied before (idempotent replay)
}

// RateFunc computes both sides' new ratings from their current ones (nil
// for a player with no rating yet in this game on this server) and the
// game (g.Updated is when it finished). It runs inside the write
// transaction, so it must not use the store.
type RateFunc func(g *Game, before [2]*PlayerRating) (after [2]Glicko, err error)

const ratingCols = `guild, kind, player, rating, rd, vol, games, wins, draws, losses, streak, best_streak, last_at`

func scanRating(r scanner) (*PlayerRating, error) {
	var p PlayerRating
	var last int64
	if err := r.Scan(&p.Guild, &p.Kind, &p.Player, &p.Rating, &p.RD, &p.Vol, &p.Games, &p.Wins, &p.Draws, &p.Losses,
		&p.Streak, &p.BestStreak, &last); err != nil {
		return nil, err
	}
	p.Last = fromNanos(last)
	return &p, nil
}

// Rating reads a player's rating in a game on a server; ErrNotFound when
// the player has no rated game there.
func (s *Store) Rating(ctx context.Context, guild, kind, player string) (*PlayerRating, error) {
	p, err := scanRating(s.r.QueryRowContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE guild=? AND kind=? AND player=?`, guild, kind, player))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("rating of %s in %s: %w", player, kind, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("rating of %s in %s: %w", player, kind, err)
	}
	return p, nil
}

func (s *Store) ratings(ctx context.Context, q string, args ...any) ([]*PlayerRating, error) {
	return queryAll(ctx, s.r, scanRating, `SELECT `+ratingCols+` FROM ratings WHERE `+q, args...)
}

// Leaderboard is a page of a server's ratings in a game: established
// players (RD at most provisionalRD) by rating, highest first, then
// provisional ones the same way; ties by more games, then player id. total
// counts every rated player.
func (s *Store) Leaderboard(ctx context.Context, guild, kind string, provisionalRD float64, offset, limit int) (page []*PlayerRating, total int, err error) {
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM ratings WHERE guild=? AND kind=?`, guild, kind).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("leaderboard of %s: %w", kind, err)
	}
	page, err = s.ratings(ctx, `guild=? AND kind=? ORDER BY CASE WHEN rd > ? THEN 1 ELSE 0 END, rating DESC, games DESC, player LIMIT ? OFFSET ?`,
		guild, kind, provisionalRD, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("leaderboard of %s: %w", kind, err)
	}
	return page, total, nil
}

// PlayerRatings are a player's ratings on a server, one per game played
// rated, by game kind.
func (s *Store) PlayerRatings(ctx context.Context, guild, player string) ([]*PlayerRating, error) {
	out, err := s.ratings(ctx, `guild=? AND player=? ORDER BY kind`, guild, player)
	if err != nil {
		return nil, fmt.Errorf("ratings of %s: %w", player, err)
	}
	return out, nil
}

// RatingChanges are the changes a game made (none for a game not rated
// yet), by side.
func (s *Store) RatingChanges(ctx context.Context, gameID int64) ([]RatingChange, error) {
	return ratingChanges(ctx, s.r, gameID)
}

func ratingChanges(ctx context.Context, q querier, gameID int64) ([]RatingChange, error) {
	out, err := queryAll(ctx, q, func(r scanner) (RatingChange, error) {
		c := RatingChange{GameID: gameID}
		var at int64
		if err := r.Scan(&c.Side, &c.Player, &c.Before.Rating, &c.Before.RD, &c.After.Rating, &c.After.RD, &c.After.Vol, &at); err != nil {
			return RatingChange{}, err
		}
		c.At = fromNanos(at)
		return c, nil
	}, `SELECT side, player, rating_before, rd_before, rating_after, rd_after, vol_after, at
		FROM rating_changes WHERE game_id=? ORDER BY side`, gameID)
	if err != nil {
		return nil, fmt.Errorf("rating changes of game %d: %w", gameID, err)
	}
	return out, nil
}

// scores maps a stored result to side 0's and side 1's points.
var scores = map[string][2]float64{"1-0": {1, 0}, "0-1": {0, 1}, "1/2-1/2": {0.5, 0.5}}

// ApplyRatedResult counts a finished rated game for both players in one
// transaction: rate computes the new ratings from the current ones, and
// the game's changes, W/D/L and streaks are written together. Applying a
// game twice changes nothing and returns the first changes (Applied
// false). ErrNotRated when the game is casual, unfinished, aborted or
// between a player and themself.
func (s *Store) ApplyRatedResult(ctx context.Context, gameID int64, rate RateFunc) ([2]RatingChange, error) {
	var out [2]RatingChange
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = applyRated(ctx, tx, gameID, rate)
		return err
	})
	if err != nil {
		return out, fmt.Errorf("rate game %d: %w", gameID, err)
	}
	return out, nil
}

// applyRated is ApplyRatedResult inside the caller's transaction (also
// the finishing one: GameUpdate.Rate).
func applyRated(ctx context.Context, tx *sql.Tx, gameID int64, rate RateFunc) ([2]RatingChange, error) {
	var out [2]RatingChange
	err := func() error {
		done, err := ratingChanges(ctx, tx, gameID)
		if err != nil {
			return err
		}
		if len(done) == 2 {
			out = [2]RatingChange{done[0], done[1]}
			return nil
		}
		a, err := scanArchived(tx.QueryRowContext(ctx, `SELECT `+archiveCols+` FROM games WHERE id=?`, gameID))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		pts, ok := scores[a.Result]
		if !a.Rated || a.Status != StatusFinished || !ok || a.Reason == "aborted" || a.Players[0] == a.Players[1] {
			return ErrNotRated
		}
		var before [2]*PlayerRating
		for side, p := range a.Players {
			r, err := scanRating(tx.QueryRowContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE guild=? AND kind=? AND player=?`, a.Ladder, a.Kind, p))
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			before[side] = r
		}
		after, err := rate(a.Game, before)
		if err != nil {
			return err
		}
		at := a.Updated
		for side, p := range a.Players {
			cur := PlayerRating{Guild: a.Ladder, Kind: a.Kind, Player: p}
			if before[side] != nil {
				cur = *before[side]
			}
			c := RatingChange{GameID: gameID, Side: side, Player: p, Before: Glicko{Rating: cur.Rating, RD: cur.RD}, After: after[side], At: at, Applied: true}
			if before[side] == nil {
				c.Before = Glicko{} // no rating before this game
			}
			cur.Glicko = after[side]
			cur.Games++
			switch pts[side] {
			case 1:
				cur.Wins++
				cur.Streak = max(cur.Streak, 0) + 1
				cur.BestStreak = max(cur.BestStreak, cur.Streak)
			case 0:
				cur.Losses++
				cur.Streak = min(cur.Streak, 0) - 1
			default:
				cur.Draws++
				cur.Streak = 0
			}
			cur.Last = at
			if before[side] == nil {
				_, err = tx.ExecContext(ctx, `INSERT INTO ratings(`+ratingCols+`) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)`,
					cur.Guild, cur.Kind, cur.Player, cur.Rating, cur.RD, cur.Vol, cur.Games, cur.Wins, cur.Draws, cur.Losses, cur.Streak, cur.BestStreak, nanos(at))
			} else {
				_, err = tx.ExecContext(ctx, `UPDATE ratings SET rating=?, rd=?, vol=?, games=?, wins=?, draws=?, losses=?, streak=?, best_streak=?, last_at=?
					WHERE guild=? AND kind=? AND player=?`, cur.Rating, cur.RD, cur.Vol, cur.Games, cur.Wins, cur.Draws, cur.Losses, cur.Streak, cur.BestStreak, nanos(at),
					cur.Guild, cur.Kind, cur.Player)
			}
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO rating_changes(game_id, side, player, rating_before, rd_before, rating_after, rd_after, vol_after, at)
				VALUES(?,?,?,?,?,?,?,?,?)`, gameID, side, p, c.Before.Rating, c.Before.RD, c.After.Rating, c.After.RD, c.After.Vol, nanos(at)); err != nil {
				return err
			}
			out[side] = c
		}
		return nil
	}()
	return out, err
}
