// Package camelot implements Camelot as the World Camelot Federation plays it
// (rules: docs/rules/camelot.md; engine notes: docs/camelot.md): a 160-square board,
// plain moves, canters, jumps, Knight's Charges, compulsory capture and the
// two castles.
package camelot

import (
	"math/bits"
	"strconv"

	"github.com/tankbot/tankbot/engine"
)

// Camelot-specific reasons a game ends.
const (
	ReasonCastle       = engine.Reason("castle-occupied")
	ReasonAllCaptured  = engine.Reason("all-captured")
	ReasonInsufficient = engine.Reason("insufficient-material")
)

// StartCFEN is the start position.
const StartCFEN = "../......../........../............/............/..kmmmmmmk../...kmmmmk.../............/............/...KMMMMK.../..KMMMMMMK../............/............/........../......../.. w 00 1"

// MaxCastleMoves is how many castle moves each player may make in a game.
const MaxCastleMoves = 2

type rules struct{}

// Rules is the Camelot game.
var Rules engine.Rules = rules{}

func (rules) Name() string { return "camelot" }

func (rules) Variants() []engine.Variant {
	return []engine.Variant{{Name: "start", Description: "The standard Camelot start position.", Position: StartCFEN}}
}

func (r rules) Start(variant string) (engine.Position, error) {
	if variant != "" && variant != "start" {
		return nil, errorf(codeUnknownVariant, variant)
	}
	return r.Decode(StartCFEN)
}

func (rules) Decode(s string) (engine.Position, error) {
	p, err := ParseCFEN(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Position is an immutable Camelot position. Whether a piece must leave its
// own castle follows from the board: a piece can only stand in its own castle
// at its owner's turn if it jumped there on the previous turn.
type Position struct {
	board   [numSq]int8
	turn    engine.Side
	castles [2]uint8 // castle moves used by White, Black
	moveNum int
}

var (
	_ engine.Position   = (*Position)(nil)
	_ engine.Repeatable = (*Position)(nil)
	_ engine.Describer  = (*Position)(nil)
)

// Rules returns the Camelot rules.
func (p *Position) Rules() engine.Rules { return Rules }

// Turn is the side to move.
func (p *Position) Turn() engine.Side { return p.turn }

// At returns the piece on a square given by name ("E7"): kind 'K' or 'M' for
// White, 'k' or 'm' for Black, 0 for empty or no such square. For drawing.
func (p *Position) At(square string) byte {
	sq, n, ok := parseSquare(square)
	if !ok || sq == noSq || n != len(square) {
		return 0
	}
	return pieceChar[p.board[sq]]
}

// CastleMovesUsed returns how many castle moves side has made.
func (p *Position) CastleMovesUsed(s engine.Side) int { return int(p.castles[s]) }

// RepetitionKey is the board, side to move and castle-move counts.
func (p *Position) RepetitionKey() string { return p.encode(false) }

// Facts states the castle moves each side has left.
func (p *Position) Facts() []engine.Fact {
	return []engine.Fact{{
		Key: "camelot.castle-moves-left",
		Args: []string{
			strconv.Itoa(MaxCastleMoves - int(p.castles[engine.White])),
			strconv.Itoa(MaxCastleMoves - int(p.castles[engine.Black])),
		},
	}}
}

// CanWin reports whether s has the material to win (§4): every win needs two
// pieces, so a side with fewer can at best draw.
func (p *Position) CanWin(s engine.Side) bool { return p.count(s) >= 2 }

func (p *Position) count(s engine.Side) int {
	n := 0
	for _, c := range p.board {
		if c != empty && pieceSide(c) == s {
			n++
		}
	}
	return n
}

// boardOutcome is the outcome decided without generating moves.
func (p *Position) boardOutcome() engine.Outcome {
	return p.outcomeCounted(p.count(engine.White), p.count(engine.Black))
}

// outcomeCounted is boardOutcome with the pieces of each side already
// counted (nw White's, nb Black's): the search keeps the counts.
func (p *Position) outcomeCounted(nw, nb int) engine.Outcome {
	mover := p.turn.Opponent() // the side that just moved wins ties of checks
	for _, s := range []engine.Side{mover, p.turn} {
		c := castleOf[s.Opponent()]
		a, b := p.board[c[0]], p.board[c[1]]
		if a != empty && b != empty && pieceSide(a) == s && pieceSide(b) == s {
			return engine.Win(s, ReasonCastle)
		}
	}
	if nw <= 1 && nb <= 1 {
		return engine.Drawn(ReasonInsufficient)
	}
	if nw == 0 {
		return engine.Win(engine.Black, ReasonAllCaptured)
	}
	if nb == 0 {
		return engine.Win(engine.White, ReasonAllCaptured)
	}
	return engine.Outcome{}
}

// Status is the outcome decided by the board: castle occupied, all captured,
// bare pieces, or no legal move.
func (p *Position) Status() engine.Outcome {
	if o := p.boardOutcome(); o.Over() {
		return o
	}
	if len(p.generate()) > 0 {
		return engine.Outcome{}
	}
	return noMovesOutcome(p.turn, p.count(p.turn.Opponent()))
}

// noMovesOutcome is the result when side cannot move and its opponent has
// opponentPieces pieces: a win for the opponent with two or more, else a draw.
func noMovesOutcome(side engine.Side, opponentPieces int) engine.Outcome {
	if opponentPieces >= 2 {
		return engine.Win(side.Opponent(), engine.ReasonNoMoves)
	}
	return engine.Drawn(engine.ReasonNoMoves)
}

// LegalMoves returns every legal move once (§7 identity), in a stable order.
func (p *Position) LegalMoves() []engine.Move {
	ms := p.legal()
	out := make([]engine.Move, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// legal is LegalMoves in the concrete type; none when the game is over.
func (p *Position) legal() []Move {
	if p.boardOutcome().Over() {
		return nil
	}
	return p.generate()
}

// Announcements tell the side to move that it must leave its castle or must
// capture; Lines are (from, to) of the moves that fulfil the duty.
func (p *Position) Announcements() []engine.Announcement {
	ms := p.legal()
	if len(ms) == 0 {
		return nil
	}
	duty := p.duty()
	if duty == dutyNone {
		return nil
	}
	lines := make([][2]string, 0, len(ms))
	seen := map[[2]string]bool{}
	for _, m := range ms {
		l := [2]string{squareName(int(m.from)), squareName(int(m.to))}
		if !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	var out []engine.Announcement
	if duty&dutyLeave != 0 {
		out = append(out, engine.Announcement{Kind: engine.AnnounceMustLeave, Side: p.turn, Lines: lines})
	}
	if duty&dutyCapture != 0 {
		out = append(out, engine.Announcement{Kind: engine.AnnounceMustCapture, Side: p.turn, Lines: lines})
	}
	return out
}

// Play returns the position after a legal move.
func (p *Position) Play(m engine.Move) (engine.Position, error) {
	cm, ok := m.(Move)
	if !ok {
		if pm, ok2 := m.(*Move); ok2 && pm != nil {
			cm, ok = *pm, true
		}
	}
	if !ok {
		return nil, errorf(codeForeignMove)
	}
	for _, lm := range p.legal() {
		if lm.sameAs(cm) {
			return p.apply(lm), nil
		}
	}
	return nil, errorf(codeIllegal, cm.String())
}

// apply plays a move known to be legal.
func (p *Position) apply(m Move) *Position {
	q := *p
	q.play(&m)
	return &q
}

// play plays m on q in place.
func (q *Position) play(m *Move) {
	pc := q.board[m.from]
	q.board[m.from] = empty
	for w, word := range m.caps {
		for word != 0 {
			q.board[w*64+bits.TrailingZeros64(word)] = empty
			word &= word - 1
		}
	}
	q.board[m.to] = pc
	if m.isCastleMove() {
		q.castles[q.turn]++
	}
	if q.turn == engine.Black {
		q.moveNum++
	}
	q.turn = q.turn.Opponent()
}

// Perft counts leaf positions depth moves deep.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	w := &perftWalk{pos: make([]Position, depth+1), moves: make([][]Move, depth), arenas: make([][]uint8, depth)}
	w.pos[0] = *p
	return w.count(0, depth)
}

// perftWalk holds Perft's positions, move lists and route arenas per ply,
// reused through the walk so that counting allocates nothing per node.
type perftWalk struct {
	gen    generator
	pos    []Position
	moves  [][]Move
	arenas [][]uint8
}

func (w *perftWalk) count(ply, depth int) uint64 {
	p := &w.pos[ply]
	if p.boardOutcome().Over() {
		return 0
	}
	w.moves[ply], _ = p.genInto(&w.gen, w.moves[ply], &w.arenas[ply])
	ms := w.moves[ply]
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for i := range ms {
		w.pos[ply+1] = *p
		w.pos[ply+1].play(&ms[i])
		n += w.count(ply+1, depth-1)
	}
	return n
}
