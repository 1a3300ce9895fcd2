package tank

import (
	"github.com/tankbot/tankbot/engine"
)

// Position is an immutable Tank Chess position. It implements
// engine.Position: Play returns a new position and never changes the
// receiver, so positions may be shared between goroutines.
type Position struct {
	b      *board
	moveNo int
	status engine.Outcome // computed once by newPosition
}

// newPosition wraps a board that will no longer change.
func newPosition(b *board, moveNo int) *Position {
	p := &Position{b: b, moveNo: moveNo}
	p.status = p.computeStatus()
	return p
}

var _ engine.Position = (*Position)(nil)

// Width is the number of files.
func (p *Position) Width() int { return p.b.w }

// Height is the number of ranks.
func (p *Position) Height() int { return p.b.h }

// At returns what stands on square s; a square off the board reads as an
// obstacle.
func (p *Position) At(s Square) Cell {
	if !p.b.onBoard(s) {
		return Cell{Obstacle: true}
	}
	c := p.b.cells[p.b.index(s.File, s.Rank)]
	switch {
	case c == cellEmpty:
		return Cell{}
	case c&kindMask == 7:
		return Cell{Obstacle: true}
	}
	return Cell{Piece: Piece{Kind: cellKind(c), Side: cellSide(c), Facing: cellFacing(c), Wreck: c&wreckBit != 0}}
}

// Turn is the side to move.
func (p *Position) Turn() engine.Side { return p.b.turn }

// MoveNumber is the full-move number (1 at the start, +1 after each Black
// move).
func (p *Position) MoveNumber() int { return p.moveNo }

// Escaped reports the side whose CLT has escaped, if any (the game is then
// over and that side has won).
func (p *Position) Escaped() (engine.Side, bool) {
	if p.b.escaped == 0 {
		return engine.White, false
	}
	return engine.Side(p.b.escaped - 1), true
}

// Rules returns the Tank Chess rules.
func (p *Position) Rules() engine.Rules { return Rules }

// Status is the outcome decided by the board: a wrecked CLT, an escaped CLT,
// or a side to move without any active piece (only possible with custom
// armies; every active piece can at least turn, so a side with a piece
// always has a move).
func (p *Position) Status() engine.Outcome { return p.status }

func (p *Position) computeStatus() engine.Outcome {
	if p.b.escaped != 0 {
		return engine.Win(engine.Side(p.b.escaped-1), ReasonEscape)
	}
	if w := p.b.cltWrecked(); w != 0 {
		return engine.Win(engine.Side(w-1).Opponent(), ReasonCLTDestroyed)
	}
	if !p.b.hasActive(p.b.turn) {
		return engine.Win(p.b.turn.Opponent(), engine.ReasonNoMoves)
	}
	return engine.Outcome{}
}

// Reasons specific to Tank Chess.
const (
	ReasonCLTDestroyed = engine.Reason("clt-destroyed")
	ReasonEscape       = engine.Reason("escape")
)

// LegalMoves returns every legal move once, in the order of the generator
// (pieces by square, then poses, then targets); nil when the game is over.
// The elements are Move values, so ParseMove(FormatMove(m)) == m holds for
// interface values too; boxing costs one allocation per move, and Moves
// (the concrete slice) avoids it.
func (p *Position) LegalMoves() []engine.Move {
	ms := p.moves()
	if len(ms) == 0 {
		return nil
	}
	out := make([]engine.Move, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// Moves is LegalMoves with the concrete type.
func (p *Position) Moves() []Move {
	return p.moves()
}

func (p *Position) moves() []Move {
	if p.Status().Over() {
		return nil
	}
	b := p.b.work()
	defer b.release()
	sc := b.sc()
	im := b.generate(sc.list[:0])
	sc.list = im
	out := make([]Move, len(im))
	for i, m := range im {
		out[i] = b.export(m)
	}
	return out
}

// Play returns the position after the legal move m (a Move or *Move).
func (p *Position) Play(m engine.Move) (engine.Position, error) {
	mv, err := asMove(m)
	if err != nil {
		return nil, err
	}
	return p.PlayMove(mv)
}

// PlayMove is Play with the concrete type.
func (p *Position) PlayMove(m Move) (*Position, error) {
	if p.Status().Over() {
		return nil, errGameOver()
	}
	w := p.b.work()
	im, ok := w.find(m)
	w.release()
	if !ok {
		return nil, p.illegal(m)
	}
	b := p.b.clone()
	b.make(im)
	moveNo := p.moveNo
	if p.b.turn == engine.Black {
		moveNo++
	}
	return newPosition(b, moveNo), nil
}

func asMove(m engine.Move) (Move, error) {
	switch v := m.(type) {
	case Move:
		return v, nil
	case *Move:
		if v != nil {
			return *v, nil
		}
	}
	return Move{}, engine.Errorf(CodeNotTankMove, Messages[CodeNotTankMove])
}

// Perft counts the leaf positions depth moves deep (bulk counting at the
// last ply).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if p.Status().Over() {
		return 0
	}
	b := p.b.work()
	defer b.release()
	return b.perft(depth)
}

// Steps splits the move for the guided picker into the piece's square, the
// destination ("E5" or "OFF"), the final facing ("N", "" for an escape) and
// the target ("K12", "" for no shot). Destination and facing are separate
// steps so that a menu lists squares first (up to dozens of them) and the
// few facings of one square next.
func (m Move) Steps() []string {
	if m.Escape {
		return []string{squareName(m.From), "OFF", "", ""}
	}
	t := ""
	if m.HasTarget {
		t = squareName(m.Target)
	}
	return []string{squareName(m.From), squareName(m.To), m.Facing.String(), t}
}

// String is the canonical notation of the move.
func (m Move) String() string {
	if m.Escape {
		return squareName(m.From) + " > OFF"
	}
	s := squareName(m.From) + " > " + squareName(m.To) + m.Facing.String()
	if m.HasTarget {
		s += " (" + squareName(m.Target) + ")"
	}
	return s
}

// FormatMove writes m in canonical notation (the same as Move.String).
func (p *Position) FormatMove(m engine.Move) string {
	mv, err := asMove(m)
	if err != nil {
		return "?"
	}
	return mv.String()
}

// PieceName is the short name of the piece on a square written in notation
// ("HT" for "C3"), or "" for an empty, blocked or unreadable square. The
// guided move picker labels its choices with it.
func (p *Position) PieceName(square string) string {
	toks, err := lexMove(square)
	if err != nil || len(toks) != 1 || !toks[0].isSq {
		return ""
	}
	c := p.At(toks[0].sq)
	if c.Piece.Kind == None || c.Obstacle || c.Piece.Wreck {
		return ""
	}
	return c.Piece.Kind.String()
}
