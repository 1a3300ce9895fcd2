// Package game is a game being played as the bot keeps it: a Game value
// that owns its state and the invariants between its fields (the
// revision, the board sequence, the ply, the clocks, the offers). Every
// change of state goes through one of its methods, so the rules "every
// write advances the revision" and "every new board advances the
// sequence" hold in one place.
//
// It is pure: it imports the engine and the clock arithmetic only; no
// store, Discord, images or words.
package game

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store/clock"
)

// Player is a person (or a bot account) as the transport knows them.
type Player struct {
	ID   string
	Name string // display name, for messages and thread names
	Bot  bool   // true for bot accounts: they cannot be challenged
}

// Statuses of a game.
const (
	Active   = "active"
	Finished = "finished"
)

// AIBoth is the AISide of a game the computer plays on both sides (two
// computer entrants of a tournament).
const AIBoth = 2

// Game is one game.
type Game struct {
	ID         int64
	Rev        int // advanced by every write: the store's compare-and-set
	Seq        int // advanced by every move and takeback, never reused: pins components
	Game       string
	Variant    string
	Start      string
	Pos        string
	Ply        int
	Turn       int    // side to move (0 white, 1 black), from the position
	Last       string // last move in notation
	White      Player
	Black      Player
	GuildID    string
	ChannelID  string      // where the game is played (thread or channel)
	Parent     string      // the channel the game's thread belongs to; "" when not in a thread
	Clock      string      // clock.Settings.String()
	ClockState clock.State // ToMove follows Turn
	Status     string
	Result     string
	Reason     string
	DrawOffer  int // 0 none, 1 white offers, 2 black offers
	Takeback   int // 0 none, 1 white asks, 2 black asks
	Moves      [2]int
	MessageID  string // the message showing the board, when known
	// Number is the game's number on its server (#1, #2, ...): what
	// players see and type. The store assigns it when the game is
	// created; ID stays internal (custom ids, logs).
	Number int
	// Rated games count for ratings. Set when the game is created: a
	// casual challenge, or any game with a player who is not a person
	// (the AI, a bot account), is created with Rated false.
	Rated bool
	// AILevel is the computer's level (1..5) in a game against the bot,
	// 0 otherwise; AISide is the side it plays (AIBoth: both).
	AILevel int
	AISide  int
	// Locale is the server's language when the game began: public posts
	// made out of band (the computer's moves) use it.
	Locale string
	// Ladder is the ratings ladder the game counts on (a server's id, or
	// the global ladder); NoPosts says the bot is not a member where it is
	// played, so it may not post there by itself. Both fixed at creation.
	Ladder  string
	NoPosts bool
}

// Num is the game's number as players see it ("12"; the catalog adds
// the "#").
func (g *Game) Num() string { return strconv.Itoa(g.Number) }

// Side is the side user id plays; false when they do not play g.
func (g *Game) Side(id string) (side int, ok bool) {
	switch id {
	case g.White.ID:
		return 0, true
	case g.Black.ID:
		return 1, true
	}
	return 0, false
}

// User is the player of side.
func (g *Game) User(side int) Player {
	if side == 1 {
		return g.Black
	}
	return g.White
}

// AIMoves says whether the computer plays side in g.
func (g *Game) AIMoves(side int) bool {
	return g.AILevel > 0 && (g.AISide == side || g.AISide == AIBoth)
}

// Position decodes the game's cached position.
func (g *Game) Position() (engine.Position, error) { return g.Decode(g.Pos, "game position") }

// Decode reads an encoded position of g's game (what names it in errors).
func (g *Game) Decode(enc, what string) (engine.Position, error) {
	rules, err := games.Lookup(g.Game)
	if err != nil {
		return nil, errors.New("unknown game " + g.Game)
	}
	p, err := rules.Decode(enc)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", what, err)
	}
	return p, nil
}

// Deadline is when the side to move runs out of time; zero when untimed.
func (g *Game) Deadline(tc clock.Settings) time.Time { return g.ClockState.Deadline(tc) }

// Remaining is a side's time left at now; a finished game's clocks stand
// still.
func (g *Game) Remaining(tc clock.Settings, side int, now time.Time) time.Duration {
	if g.Status != Active {
		return g.ClockState.Left[side&1]
	}
	return g.ClockState.Remaining(tc, side, now)
}

// Effects is what a change did besides the Game it returns: what the
// caller saves, shows and schedules.
type Effects struct {
	// Board: the change shows a new board (a move, a takeback): the
	// sequence advanced, so the buttons of the boards before are stale.
	Board bool
	// Spent is what a move took from its side's clock (Play).
	Spent time.Duration
	// Ended: the change ended the game, with Outcome.
	Ended   bool
	Outcome engine.Outcome
}

// Every change below returns the changed game and leaves g as it was.
// The revision (the store's compare-and-set) and the sequence (which
// pins the board's buttons) advance here and nowhere else: the revision
// with every change, the sequence with every change that shows a new
// board, never back.

// changed is g after a change that shows no new board (an offer made or
// answered, a clock extended).
func (g Game) changed() Game {
	g.Rev++
	return g
}

// newBoard is g after a change that shows a new board.
func (g Game) newBoard() Game {
	g.Rev++
	g.Seq++
	return g
}

// Play is g after a move by side: next is the position after it (the
// engine says who moves next: the Gungi draft does not always
// alternate), note the move in notation, o the outcome it reached. The
// clock is charged at now (Effects.Spent); offers lapse.
func (g Game) Play(tc clock.Settings, now time.Time, side int, next engine.Position, note string, o engine.Outcome) (Game, Effects) {
	var e Effects
	g.ClockState, e.Spent = g.ClockState.Apply(tc, now)
	g.ClockState.ToMove = int(next.Turn())
	g.Pos = next.Encode()
	g.Turn = int(next.Turn())
	g.Ply++
	g = g.newBoard()
	e.Board = true
	g.Last = note
	g.DrawOffer, g.Takeback = 0, 0
	g.Moves[side]++
	if o.Over() {
		g.Status, g.Result, g.Reason = Finished, o.Result.String(), string(o.Reason)
		e.Ended, e.Outcome = true, o
	}
	return g, e
}

// TakeBack is g with its last n moves undone: prev is the position
// before them, last the move now last in notation ("" for none). The
// turn goes back to the side to move in prev at now; offers lapse.
func (g Game) TakeBack(tc clock.Settings, now time.Time, n int, prev engine.Position, last string) (Game, Effects) {
	g.Pos = prev.Encode()
	g.Turn = int(prev.Turn())
	g.Ply -= n
	g.Last = last
	g.ClockState = rewind(g.ClockState, tc, g.Turn, now)
	g.Takeback, g.DrawOffer = 0, 0
	g = g.newBoard() // never back: buttons of the undone position stay stale
	return g, Effects{Board: true}
}

// rewind hands the turn back to side at now (a takeback): the side that
// was to move keeps the time it has left; real-time clocks otherwise
// stand as they were, a correspondence allowance starts afresh.
func rewind(st clock.State, tc clock.Settings, side int, now time.Time) clock.State {
	st.Left[st.ToMove] = st.Remaining(tc, st.ToMove, now)
	if tc.Kind == clock.Correspondence {
		st.Left[side] = tc.PerMove
	}
	st.ToMove, st.TurnStart = side, now
	return st
}

// Extend is g with the current turn's start moved later by d (the bot
// was down: the time it could not take a move is given back).
func (g Game) Extend(d time.Duration) (Game, Effects) {
	g.ClockState.TurnStart = g.ClockState.TurnStart.Add(d)
	return g.changed(), Effects{}
}

// Offer is a kind of offer a player makes and the other answers.
type Offer int

const (
	DrawOffer Offer = iota
	TakebackOffer
)

// Offered is who stands behind an offer of kind k: 0 none, side+1 the
// side that made it.
func (g Game) Offered(k Offer) int {
	if k == TakebackOffer {
		return g.Takeback
	}
	return g.DrawOffer
}

// SetOffer is g with an offer of kind k set to v (0 none, side+1 made by
// side).
func (g Game) SetOffer(k Offer, v int) (Game, Effects) {
	if k == TakebackOffer {
		g.Takeback = v
	} else {
		g.DrawOffer = v
	}
	return g.changed(), Effects{}
}

// Finish is g finished with o; a game already finished stays as it ended
// (and Effects.Ended is false).
func (g Game) Finish(o engine.Outcome) (Game, Effects) {
	if g.Status != Active {
		return g, Effects{}
	}
	g = g.changed()
	g.Status, g.Result, g.Reason = Finished, o.Result.String(), string(o.Reason)
	g.DrawOffer, g.Takeback = 0, 0
	return g, Effects{Ended: true, Outcome: o}
}

// FlagFall is g finished by loser's flag with o: the fallen clock reads
// 0:00 on the final board.
func (g Game) FlagFall(loser int, o engine.Outcome) (Game, Effects) {
	if g.Status != Active {
		return g, Effects{}
	}
	g.ClockState.Left[loser] = 0
	return g.Finish(o)
}
