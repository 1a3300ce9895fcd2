package engine

import "fmt"

// Game is a position with its history: the start, every move played, and the
// outcomes that depend on history (repetition) or on the players
// (resignation, agreement, time). The store keeps the start and the move list;
// replaying them through Game must reproduce the cached position.
type Game struct {
	start   Position
	pos     Position
	moves   []Move
	notes   []string       // canonical notation of each move
	seen    map[string]int // repetition key -> times seen
	outcome Outcome        // set when the game was ended by players or the clock
}

// NewGame starts a game from a position.
func NewGame(start Position) *Game {
	g := &Game{start: start, pos: start}
	if r, ok := start.(Repeatable); ok {
		g.seen = map[string]int{r.RepetitionKey(): 1}
	}
	return g
}

// Replay rebuilds a game from its start and the moves in notation.
func Replay(start Position, notation []string) (*Game, error) {
	g := NewGame(start)
	for i, n := range notation {
		m, err := g.pos.ParseMove(n)
		if err != nil {
			return nil, fmt.Errorf("replay move %d %q: %w", i+1, n, err)
		}
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("replay move %d %q: %w", i+1, n, err)
		}
	}
	return g, nil
}

// Start is the position the game began from.
func (g *Game) Start() Position { return g.start }

// Position is the current position.
func (g *Game) Position() Position { return g.pos }

// Moves returns the moves played so far in canonical notation.
func (g *Game) Moves() []string { return g.notes }

// Ply is the number of moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Play plays a legal move. It fails if the game is over or the move illegal.
func (g *Game) Play(m Move) error {
	if o := g.Outcome(); o.Over() {
		return Errorf("game-over", "the game is over ({0})", o.Result.String())
	}
	note := g.pos.FormatMove(m)
	next, err := g.pos.Play(m)
	if err != nil {
		return err
	}
	g.pos = next
	g.moves = append(g.moves, m)
	g.notes = append(g.notes, note)
	if g.seen != nil {
		if r, ok := next.(Repeatable); ok {
			g.seen[r.RepetitionKey()]++
		}
	}
	return nil
}

// End records an outcome decided outside the board (resignation, agreement,
// timeout, abort). It does nothing if the game is already over.
func (g *Game) End(o Outcome) {
	if !g.Outcome().Over() {
		g.outcome = o
	}
}

// Outcome combines the board's status, threefold repetition (for games that
// have the rule) and outcomes recorded with End.
func (g *Game) Outcome() Outcome {
	if g.outcome.Over() {
		return g.outcome
	}
	if o := g.pos.Status(); o.Over() {
		return o
	}
	if g.seen != nil {
		if r, ok := g.pos.(Repeatable); ok && g.seen[r.RepetitionKey()] >= 3 {
			return Drawn(ReasonRepetition)
		}
	}
	return Outcome{}
}

// Divide returns, for each legal move in canonical notation, the perft count
// of depth-1 below it (depth >= 1).
func Divide(p Position, depth int) (map[string]uint64, error) {
	if depth < 1 {
		return nil, fmt.Errorf("divide needs depth >= 1, got %d", depth)
	}
	out := make(map[string]uint64)
	for _, m := range p.LegalMoves() {
		next, err := p.Play(m)
		if err != nil {
			return nil, fmt.Errorf("divide: legal move %s refused: %w", p.FormatMove(m), err)
		}
		out[p.FormatMove(m)] = next.Perft(depth - 1)
	}
	return out, nil
}

// MoveNumber is the move number players see, counted in full moves as
// records number them: the ply with 0-based index ply (the move played
// after ply moves) belongs to full move ply/2+1, so a position after ply
// moves is shown as "Move MoveNumber(ply)", the move about to be played.
// Every place that shows a move number (board footer, /games, records,
// the viewer, the images' headers through Numbered) uses it.
func MoveNumber(ply int) int {
	if ply < 0 {
		return 1
	}
	return ply/2 + 1
}

// Numbered is implemented by positions that carry a move count in their
// notation (TFEN and CFEN a full-move number, GFEN a turn count): their
// MoveNumber is the full move as MoveNumber counts it, so an image drawn
// from the position alone numbers it as the game's messages do.
type Numbered interface {
	MoveNumber() int
}

// PositionMoveNumber is pos's full-move number, when the position knows it.
func PositionMoveNumber(pos Position) (int, bool) {
	if n, ok := pos.(Numbered); ok && n.MoveNumber() > 0 {
		return n.MoveNumber(), true
	}
	return 0, false
}
