package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tankbot/tankbot/store/clock"
)

// Game statuses.
const (
	StatusActive   = "active"
	StatusFinished = "finished"
)

// Game is one game's row. Positions are the engine's encoded positions; the
// store never looks inside them.
type Game struct {
	ID  int64
	Rev int64 // bumped by every write; UpdateGame compares it
	// Seq is advanced by every move and every takeback and never goes
	// back: a component drawn at one Seq can never match a later position.
	Seq        int64
	Kind       string
	Variant    string
	Guild      string
	Channel    string
	Thread     string    // "" when not played in a thread
	Players    [2]string // Discord user id playing side 0 and side 1
	Names      [2]string // their display names as they typed them, by side
	Start      string
	Position   string // after Ply moves
	Ply        int
	Status     string
	Result     string
	Reason     string
	Clock      string // clock.Settings.String()
	ClockState clock.State
	DrawOffer  int // 0 none, 1 side 0 offers, 2 side 1 offers
	Takeback   int // same encoding
	MessageID  string
	Extra      string // opaque to the store (caller's JSON)
	Created    time.Time
	Updated    time.Time
	// Number is the game's per-guild number (#1, #2, ...), assigned by
	// the store when the game is inserted; CreateGame ignores it.
	Number int
	// Casual games do not count for ratings (casual challenges, games
	// against the AI). Fixed when the game is created; SetRated changes it
	// while the game is active.
	Casual bool
	// AILevel is the computer's level in a game against it (0: none) and
	// AISide the side it plays; Locale the language of the game's public
	// posts made out of band. Fixed when the game is created.
	AILevel int
	AISide  int
	Locale  string
	// Ladder is the ratings ladder the game counts on, fixed when it is
	// created: the server's id where the bot is a member of the server,
	// GlobalLadder elsewhere (DMs, group DMs, a server reached through a
	// player's own install). Empty at creation: Guild, or GlobalLadder
	// outside a server.
	Ladder string
	// NoPosts: the bot user is not a member where the game is played (the
	// app is there through a player's own install), so Discord refuses
	// its bot-token posts and edits there. Fixed when the game is created.
	NoPosts bool
}

// GlobalLadder is the ladder of the games played outside the servers the
// bot is a member of (docs/ratings.md): apart from every server's.
const GlobalLadder = "global"

// MoveRecord is one entry of a game's append-only log.
type MoveRecord struct {
	Ply      int // 1 for the first move
	Side     int
	Notation string
	Position string // after the move
	Spent    time.Duration
	At       time.Time
	// RepKey is the position's repetition key after the move, for games
	// with a repetition rule ("" otherwise); see RepetitionCount.
	RepKey string
}

// Outcome ends a game.
type Outcome struct {
	Result string
	Reason string
}

// GameUpdate is the mutable part of a game written with a move, takeback or
// update. Every field is written as given, except that an empty MessageID
// keeps the stored one.
type GameUpdate struct {
	Position   string // ignored by UpdateGame (the position changes only with the log)
	ClockState clock.State
	DrawOffer  int
	Takeback   int
	MessageID  string
	Extra      string
	Outcome    *Outcome // non-nil finishes the game in the same transaction
	// Effects are written in the same transaction (Ref 0: this game).
	Effects Effects
	// Rate, with Outcome, counts the finished game for both players'
	// ratings in the same transaction (see ApplyRatedResult); a casual or
	// aborted game is left alone. Nil leaves ratings to a later
	// ApplyRatedResult.
	Rate RateFunc
}

const gameCols = `id, rev, seq, kind, variant, guild, channel, thread, player0, player1, start_pos, pos, ply, status, result, reason,
	clock, left0, left1, turn_start, to_move, draw_offer, takeback, message_id, extra, created_at, updated_at, number, rated,
	name0, name1, ai_level, ai_side, locale, ladder, no_posts`

func scanGame(r scanner) (*Game, error) {
	var g Game
	var l0, l1, ts, created, updated, rated, noPosts int64
	err := r.Scan(&g.ID, &g.Rev, &g.Seq, &g.Kind, &g.Variant, &g.Guild, &g.Channel, &g.Thread, &g.Players[0], &g.Players[1],
		&g.Start, &g.Position, &g.Ply, &g.Status, &g.Result, &g.Reason, &g.Clock, &l0, &l1, &ts, &g.ClockState.ToMove,
		&g.DrawOffer, &g.Takeback, &g.MessageID, &g.Extra, &created, &updated, &g.Number, &rated,
		&g.Names[0], &g.Names[1], &g.AILevel, &g.AISide, &g.Locale, &g.Ladder, &noPosts)
	if err != nil {
		return nil, err
	}
	g.Casual = rated == 0
	g.NoPosts = noPosts != 0
	g.ClockState.Left = [2]time.Duration{time.Duration(l0), time.Duration(l1)}
	g.ClockState.TurnStart = fromNanos(ts)
	g.Created, g.Updated = fromNanos(created), fromNanos(updated)
	return &g, nil
}

// CreateGame inserts g (ID, Rev, Ply, times are set by the store; Position
// defaults to Start, Status to active) and returns it as stored.
// ErrActiveGameExists when the thread, or the pair in the channel, already
// has an active game.
func (s *Store) CreateGame(ctx context.Context, g Game) (*Game, error) {
	var out *Game
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = s.insertGame(ctx, tx, g)
		return err
	})
	return out, err
}

func (s *Store) insertGame(ctx context.Context, tx *sql.Tx, g Game) (*Game, error) {
	now := s.now()
	if g.Position == "" {
		g.Position = g.Start
	}
	if g.Status == "" {
		g.Status = StatusActive
	}
	if g.Clock == "" {
		g.Clock = "none"
	}
	if g.Ladder == "" {
		g.Ladder = g.Guild
		if g.Ladder == "" {
			g.Ladder = GlobalLadder
		}
	}
	row := tx.QueryRowContext(ctx, `INSERT INTO games(kind, variant, guild, channel, thread, player0, player1, start_pos, pos, ply, status,
		result, reason, clock, left0, left1, turn_start, to_move, draw_offer, takeback, message_id, extra, created_at, updated_at, rated,
		name0, name1, ai_level, ai_side, locale, ladder, no_posts)
		VALUES(?,?,?,?,?,?,?,?,?,0,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING `+gameCols,
		g.Kind, g.Variant, g.Guild, g.Channel, g.Thread, g.Players[0], g.Players[1], g.Start, g.Position, g.Status,
		g.Result, g.Reason, g.Clock, int64(g.ClockState.Left[0]), int64(g.ClockState.Left[1]), nanos(g.ClockState.TurnStart),
		g.ClockState.ToMove, g.DrawOffer, g.Takeback, g.MessageID, g.Extra, now.UnixNano(), now.UnixNano(), boolInt(!g.Casual),
		g.Names[0], g.Names[1], g.AILevel, g.AISide, g.Locale, g.Ladder, boolInt(g.NoPosts))
	out, err := scanGame(row)
	if isUnique(err) {
		return nil, fmt.Errorf("create game in %s: %w", g.Channel, ErrActiveGameExists)
	}
	if err != nil {
		return nil, fmt.Errorf("create game: %w", err)
	}
	if out.Number, err = assignNumber(ctx, tx, out.ID, out.Guild); err != nil {
		return nil, err
	}
	return out, nil
}

// Game reads one game; ErrNotFound when absent.
func (s *Store) Game(ctx context.Context, id int64) (*Game, error) {
	g, err := scanGame(s.r.QueryRowContext(ctx, `SELECT `+gameCols+` FROM games WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", id, err)
	}
	return g, nil
}

// LoadGame reads a game and its whole move log in one read transaction, so
// the two agree.
func (s *Store) LoadGame(ctx context.Context, id int64) (*Game, []MoveRecord, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("load game %d: %w", id, err)
	}
	defer tx.Rollback()
	g, err := scanGame(tx.QueryRowContext(ctx, `SELECT `+gameCols+` FROM games WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("load game %d: %w", id, err)
	}
	ms, err := moves(ctx, tx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("load game %d: %w", id, err)
	}
	return g, ms, nil
}

// Moves is a game's log in ply order.
func (s *Store) Moves(ctx context.Context, id int64) ([]MoveRecord, error) {
	ms, err := moves(ctx, s.r, id)
	if err != nil {
		return nil, fmt.Errorf("moves of game %d: %w", id, err)
	}
	return ms, nil
}

func moves(ctx context.Context, q querier, id int64) ([]MoveRecord, error) {
	return queryAll(ctx, q, scanMove, `SELECT ply, side, notation, pos, spent, at, rep_key FROM moves WHERE game_id=? ORDER BY ply`, id)
}

func scanMove(r scanner) (MoveRecord, error) {
	var m MoveRecord
	var spent, at int64
	if err := r.Scan(&m.Ply, &m.Side, &m.Notation, &m.Position, &spent, &at, &m.RepKey); err != nil {
		return MoveRecord{}, err
	}
	m.Spent, m.At = time.Duration(spent), fromNanos(at)
	return m, nil
}

// casUpdate writes u onto game id if its ply is still expectedPly, setting
// the ply to newPly; ErrStalePly (or ErrNotFound) otherwise.
func (s *Store) casUpdate(ctx context.Context, tx *sql.Tx, id int64, expectedPly, newPly int, u GameUpdate) error {
	status, result, reason := StatusActive, "", ""
	if u.Outcome != nil {
		status, result, reason = StatusFinished, u.Outcome.Result, u.Outcome.Reason
	}
	res, err := tx.ExecContext(ctx, `UPDATE games SET rev=rev+1, seq=seq+1, pos=?, ply=?, status=?, result=?, reason=?, left0=?, left1=?, turn_start=?,
		to_move=?, draw_offer=?, takeback=?, message_id=COALESCE(NULLIF(?, ''), message_id), extra=?, updated_at=? WHERE id=? AND ply=? AND status=?`,
		u.Position, newPly, status, result, reason, int64(u.ClockState.Left[0]), int64(u.ClockState.Left[1]), nanos(u.ClockState.TurnStart),
		u.ClockState.ToMove, u.DrawOffer, u.Takeback, u.MessageID, u.Extra, s.now().UnixNano(), id, expectedPly, StatusActive)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		if err != nil {
			return err
		}
		return staleOrMissing(ctx, tx, id)
	}
	if err := rateFinished(ctx, tx, id, u); err != nil {
		return err
	}
	return s.apply(ctx, tx, id, u.Effects)
}

// rateFinished applies u.Rate to a game u finishes, in the finishing
// transaction; games that do not count are left alone.
func rateFinished(ctx context.Context, tx *sql.Tx, id int64, u GameUpdate) error {
	if u.Outcome == nil || u.Rate == nil {
		return nil
	}
	if _, err := applyRated(ctx, tx, id, u.Rate); err != nil && !errors.Is(err, ErrNotRated) {
		return fmt.Errorf("rate game %d: %w", id, err)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func staleOrMissing(ctx context.Context, tx *sql.Tx, id int64) error {
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id=?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return ErrStalePly
}

// AppendMove records m as ply expectedPly+1 and writes u (u.Position should
// be m.Position), all in one transaction, if the game is active and still at
// expectedPly. Otherwise nothing changes and the error is ErrStalePly.
func (s *Store) AppendMove(ctx context.Context, gameID int64, expectedPly int, m MoveRecord, u GameUpdate) error {
	m.Ply = expectedPly + 1
	if u.Position == "" {
		u.Position = m.Position
	}
	if m.At.IsZero() {
		m.At = s.now()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.casUpdate(ctx, tx, gameID, expectedPly, m.Ply, u); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO moves(game_id, ply, side, notation, pos, spent, at, rep_key) VALUES(?,?,?,?,?,?,?,?)`,
			gameID, m.Ply, m.Side, m.Notation, m.Position, int64(m.Spent), nanos(m.At), m.RepKey)
		if isUnique(err) {
			return ErrStalePly
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("append move %d to game %d: %w", m.Ply, gameID, err)
	}
	return nil
}

// Takeback drops the last n moves of an active game at expectedPly and
// writes u; u.Position defaults to the position after the remaining log (or
// the start).
func (s *Store) Takeback(ctx context.Context, gameID int64, expectedPly, n int, u GameUpdate) error {
	if n < 1 || n > expectedPly {
		return fmt.Errorf("take back %d of %d moves in game %d: out of range", n, expectedPly, gameID)
	}
	newPly := expectedPly - n
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if u.Position == "" {
			q := `SELECT pos FROM moves WHERE game_id=? AND ply=?`
			args := []any{gameID, newPly}
			if newPly == 0 {
				q, args = `SELECT start_pos FROM games WHERE id=?`, []any{gameID}
			}
			if err := tx.QueryRowContext(ctx, q, args...).Scan(&u.Position); errors.Is(err, sql.ErrNoRows) {
				return staleOrMissing(ctx, tx, gameID)
			} else if err != nil {
				return err
			}
		}
		if err := s.casUpdate(ctx, tx, gameID, expectedPly, newPly, u); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id=? AND ply>?`, gameID, newPly)
		return err
	})
	if err != nil {
		return fmt.Errorf("take back %d moves in game %d: %w", n, gameID, err)
	}
	return nil
}

// FinishGame ends an active game still at expectedPly with o.
func (s *Store) FinishGame(ctx context.Context, gameID int64, expectedPly int, o Outcome) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET rev=rev+1, status=?, result=?, reason=?, draw_offer=0, takeback=0, updated_at=?
			WHERE id=? AND ply=? AND status=?`, StatusFinished, o.Result, o.Reason, s.now().UnixNano(), gameID, expectedPly, StatusActive)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		return staleOrMissing(ctx, tx, gameID)
	})
	if err != nil {
		return fmt.Errorf("finish game %d: %w", gameID, err)
	}
	return nil
}

// UpdateGame writes u's offers, clock state, message id and extra (not the
// position) if the game's revision is still expectedRev; ErrStalePly
// otherwise. A non-nil u.Outcome finishes the game.
func (s *Store) UpdateGame(ctx context.Context, gameID, expectedRev int64, u GameUpdate) error {
	status, result, reason := StatusActive, "", ""
	if u.Outcome != nil {
		status, result, reason = StatusFinished, u.Outcome.Result, u.Outcome.Reason
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET rev=rev+1, status=?, result=?, reason=?, left0=?, left1=?, turn_start=?, to_move=?,
			draw_offer=?, takeback=?, message_id=COALESCE(NULLIF(?, ''), message_id), extra=?, updated_at=? WHERE id=? AND rev=? AND status=?`,
			status, result, reason, int64(u.ClockState.Left[0]), int64(u.ClockState.Left[1]), nanos(u.ClockState.TurnStart), u.ClockState.ToMove,
			u.DrawOffer, u.Takeback, u.MessageID, u.Extra, s.now().UnixNano(), gameID, expectedRev, StatusActive)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err != nil {
				return err
			}
			return staleOrMissing(ctx, tx, gameID)
		}
		if err := rateFinished(ctx, tx, gameID, u); err != nil {
			return err
		}
		return s.apply(ctx, tx, gameID, u.Effects)
	})
	if err != nil {
		return fmt.Errorf("update game %d: %w", gameID, err)
	}
	return nil
}

// SetMessageID records the board message of a game (any status).
func (s *Store) SetMessageID(ctx context.Context, gameID int64, messageID string) error {
	return s.tx(ctx, func(tx *sql.Tx) error { return setMessageID(ctx, tx, gameID, messageID, s.now()) })
}

func setMessageID(ctx context.Context, tx *sql.Tx, gameID int64, messageID string, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE games SET message_id=?, updated_at=? WHERE id=?`, messageID, now.UnixNano(), gameID)
	if err != nil {
		return fmt.Errorf("set message of game %d: %w", gameID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("game %d: %w", gameID, ErrNotFound)
	}
	return nil
}

func (s *Store) games(ctx context.Context, q string, args ...any) ([]*Game, error) {
	return queryAll(ctx, s.r, scanGame, `SELECT `+gameCols+` FROM games WHERE `+q, args...)
}

// ActiveGames are a guild's active games, oldest first.
func (s *Store) ActiveGames(ctx context.Context, guild string) ([]*Game, error) {
	gs, err := s.games(ctx, `guild=? AND status=? ORDER BY id`, guild, StatusActive)
	if err != nil {
		return nil, fmt.Errorf("active games of %s: %w", guild, err)
	}
	return gs, nil
}

// ChannelGames are the active games played in a channel or thread.
func (s *Store) ChannelGames(ctx context.Context, channel string) ([]*Game, error) {
	gs, err := s.games(ctx, `(channel=? OR thread=?) AND status=? ORDER BY id`, channel, channel, StatusActive)
	if err != nil {
		return nil, fmt.Errorf("games in %s: %w", channel, err)
	}
	return gs, nil
}

// LastGame is user's most recent game (any status) in a channel or thread.
func (s *Store) LastGame(ctx context.Context, user, channel string) (*Game, error) {
	gs, err := s.games(ctx, `(channel=? OR thread=?) AND (player0=? OR player1=?) ORDER BY id DESC LIMIT 1`, channel, channel, user, user)
	if err != nil {
		return nil, fmt.Errorf("last game of %s in %s: %w", user, channel, err)
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("last game of %s in %s: %w", user, channel, ErrNotFound)
	}
	return gs[0], nil
}

// RepetitionCount is how many moves of game id reached the position with
// repetition key key (an index look-up: the cost does not grow with the
// game), and whether the log holds moves stored without a key (before
// migration 3), in which case the count may be short and the caller must
// replay.
func (s *Store) RepetitionCount(ctx context.Context, id int64, key string) (n int, partial bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM moves WHERE game_id=? AND rep_key=?),
		EXISTS(SELECT 1 FROM moves WHERE game_id=? AND rep_key='')`, id, key, id).Scan(&n, &partial)
	if err != nil {
		return 0, false, fmt.Errorf("repetitions in game %d: %w", id, err)
	}
	return n, partial, nil
}

// TimedActiveGames are all active games with a clock, oldest first.
func (s *Store) TimedActiveGames(ctx context.Context) ([]*Game, error) {
	gs, err := s.games(ctx, `status=? AND clock<>'none' ORDER BY id`, StatusActive)
	if err != nil {
		return nil, fmt.Errorf("timed active games: %w", err)
	}
	return gs, nil
}

// FlagPlan is what a game's flag event should be: the event, and the
// events to schedule with it (reminders) when the flag has to be made anew.
type FlagPlan func(g *Game) (flag Event, extra []Event, ok bool)

// ReconcileFlags makes every active timed game hold exactly one pending
// flag event (kind) for its current ply: stale or duplicate ones are
// dropped, a missing one is inserted as plan says (with plan's extra
// events). Each game is checked and fixed in its own transaction. It
// returns how many games needed fixing.
func (s *Store) ReconcileFlags(ctx context.Context, kind string, plan FlagPlan) (int, error) {
	gs, err := s.TimedActiveGames(ctx)
	if err != nil {
		return 0, err
	}
	fixed := 0
	for _, g := range gs {
		changed := false
		err := s.tx(ctx, func(tx *sql.Tx) error {
			cur, err := scanGame(tx.QueryRowContext(ctx, `SELECT `+gameCols+` FROM games WHERE id=?`, g.ID))
			if err != nil {
				return err
			}
			if cur.Status != StatusActive {
				return nil
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM events WHERE ref=? AND kind=? AND done=0 AND ply<>?`, cur.ID, kind, cur.Ply)
			if err != nil {
				return err
			}
			stale, _ := res.RowsAffected()
			// Duplicates: keep the earliest id.
			res, err = tx.ExecContext(ctx, `DELETE FROM events WHERE ref=? AND kind=? AND done=0 AND ply=? AND id>
				(SELECT MIN(id) FROM events WHERE ref=? AND kind=? AND done=0 AND ply=?)`, cur.ID, kind, cur.Ply, cur.ID, kind, cur.Ply)
			if err != nil {
				return err
			}
			dup, _ := res.RowsAffected()
			var have int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM events WHERE ref=? AND kind=? AND done=0 AND ply=?`, cur.ID, kind, cur.Ply).Scan(&have); err != nil {
				return err
			}
			changed = stale+dup > 0
			if have > 0 {
				return nil
			}
			flag, extra, ok := plan(cur)
			if !ok {
				return nil
			}
			changed = true
			for _, e := range append([]Event{flag}, extra...) {
				e.Ref, e.Ply = cur.ID, cur.Ply
				if _, err := insertEvent(ctx, tx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fixed, fmt.Errorf("reconcile flag of game %d: %w", g.ID, err)
		}
		if changed {
			fixed++
		}
	}
	return fixed, nil
}
