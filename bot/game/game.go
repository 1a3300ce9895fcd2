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

// Touch records a change of g's row that shows no new board (an offer
// made or answered, a clock extended): the revision advances, the
// sequence, which pins the board's buttons, does not.
func (g *Game) Touch() { g.Rev++ }

// newBoard records a change that shows a new board: both advance.
func (g *Game) newBoard() {
	g.Rev++
	g.Seq++
}

// Played applies a move by side: next is the position after it (the
// engine says who moves next: the Gungi draft does not always
// alternate), note the move in notation, o the outcome it reached. The
// clock is charged at now; spent is what the move took. Offers lapse.
func (g *Game) Played(tc clock.Settings, now time.Time, side int, next engine.Position, note string, o engine.Outcome) (spent time.Duration) {
	g.ClockState, spent = g.ClockState.Apply(tc, now)
	g.ClockState.ToMove = int(next.Turn())
	g.Pos = next.Encode()
	g.Turn = int(next.Turn())
	g.Ply++
	g.newBoard()
	g.Last = note
	g.DrawOffer, g.Takeback = 0, 0
	g.Moves[side]++
	if o.Over() {
		g.Status, g.Result, g.Reason = Finished, o.Result.String(), string(o.Reason)
	}
	return spent
}

// TookBack undoes the last n moves: prev is the position before them,
// last the move now last in notation ("" for none). The turn goes back
// to the side to move in prev at now (Rewind); offers lapse.
func (g *Game) TookBack(tc clock.Settings, now time.Time, n int, prev engine.Position, last string) {
	g.Pos = prev.Encode()
	g.Turn = int(prev.Turn())
	g.Ply -= n
	g.Last = last
	g.Rewind(tc, g.Turn, now)
	g.Takeback, g.DrawOffer = 0, 0
	g.newBoard() // never back: buttons of the undone position stay stale
}

// Rewind hands the turn back to side at now (a takeback): the side that
// was to move keeps the time it has left; real-time clocks otherwise
// stand as they were, a correspondence allowance starts afresh.
func (g *Game) Rewind(tc clock.Settings, side int, now time.Time) {
	st := &g.ClockState
	st.Left[st.ToMove] = st.Remaining(tc, st.ToMove, now)
	if tc.Kind == clock.Correspondence {
		st.Left[side] = tc.PerMove
	}
	st.ToMove, st.TurnStart = side, now
}

// Extend moves the current turn's start later by d (the bot was down: the
// time it could not take a move is given back).
func (g *Game) Extend(d time.Duration) {
	g.ClockState.TurnStart = g.ClockState.TurnStart.Add(d)
	g.Touch()
}

// SetOffer sets an offer slot (&g.DrawOffer or &g.Takeback) to v (0 none,
// side+1 offered by side).
func (g *Game) SetOffer(slot *int, v int) {
	*slot = v
	g.Touch()
}

// Finish marks g finished with o; a game already finished stays as it
// ended.
func (g *Game) Finish(o engine.Outcome) {
	if g.Status != Active {
		return
	}
	g.Touch()
	g.Status, g.Result, g.Reason = Finished, o.Result.String(), string(o.Reason)
	g.DrawOffer, g.Takeback = 0, 0
}
