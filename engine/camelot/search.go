package camelot

import (
	"math/bits"

	"github.com/tankbot/tankbot/engine"
)

// This file gives engine/ai a copy-make view of the position over the
// internal generator, and Camelot's static evaluation.

var _ engine.Searchable = (*Position)(nil)

// Material: a Knight leaps and charges, so it is worth well over a Man.
const (
	manValue    = 100
	knightValue = 170
	winGain     = 10000
)

type searcher struct {
	engine.CopyMake[Position, Move]
	gen    generator
	arenas [engine.SearchPlies][]uint8 // the routes of each ply's moves
	counts [engine.SearchPlies][2]int  // each side's pieces at each ply
	// occ is the set of occupied squares at each ply: Hash and Evaluate
	// visit the pieces, not the 192 squares of the board.
	occ [engine.SearchPlies][3]uint64
}

// occupied is the set of p's occupied squares.
func occupied(p *Position) [3]uint64 {
	var o [3]uint64
	for sq, c := range p.board {
		if c != empty {
			o[sq>>6] |= 1 << (sq & 63)
		}
	}
	return o
}

// NewSearcher implements engine.Searchable.
func (p *Position) NewSearcher() engine.Searcher {
	s := &searcher{}
	s.Stack[0] = *p
	s.counts[0] = [2]int{p.count(engine.White), p.count(engine.Black)}
	s.occ[0] = occupied(p)
	return s
}

func (s *searcher) pos() *Position    { return s.Pos() }
func (s *searcher) Turn() engine.Side { return s.pos().turn }

func (s *searcher) Over() engine.Result {
	c := &s.counts[s.Ply]
	return s.pos().outcomeCounted(c[engine.White], c[engine.Black]).Result
}

func (s *searcher) Generate() int {
	s.Lists[s.Ply], _ = s.pos().genInto(&s.gen, s.Lists[s.Ply], &s.arenas[s.Ply])
	return len(s.Lists[s.Ply])
}

func (s *searcher) NoMoves() engine.Result {
	p := s.pos()
	return noMovesOutcome(p.turn, s.counts[s.Ply][p.turn.Opponent()]).Result
}

func (s *searcher) cur(i int) *Move { return s.At(i) }

func (s *searcher) Gain(i int) int {
	m := s.cur(i)
	p := s.pos()
	g := 0
	if m.kind == kindCapture {
		for w, word := range m.caps {
			for word != 0 {
				sq := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if isKnight(p.board[sq]) {
					g += knightValue
				} else {
					g += manValue
				}
			}
		}
	}
	enemy := p.turn.Opponent()
	if inCastle(int(m.to), enemy) && !inCastle(int(m.from), enemy) {
		c := castleOf[enemy]
		other := c[0]
		if other == int(m.to) {
			other = c[1]
		}
		if o := p.board[other]; o != empty && pieceSide(o) == p.turn {
			return winGain // the second piece in the castle wins
		}
		g += 50
	}
	return g
}

func (s *searcher) Key(i int) uint32 {
	m := s.cur(i)
	c := m.caps[0] ^ m.caps[1]*0x9e3779b97f4a7c15 ^ m.caps[2]*0xbf58476d1ce4e5b9
	return uint32(m.from)<<24 ^ uint32(m.to)<<16 ^ uint32(c) ^ uint32(c>>32)
}

func (s *searcher) Make(i int) {
	m := s.cur(i)
	them := s.pos().turn.Opponent()
	s.counts[s.Ply+1] = s.counts[s.Ply]
	s.counts[s.Ply+1][them] -= bits.OnesCount64(m.caps[0]) + bits.OnesCount64(m.caps[1]) + bits.OnesCount64(m.caps[2])
	o := &s.occ[s.Ply+1]
	*o = s.occ[s.Ply]
	for w := range o {
		o[w] &^= m.caps[w]
	}
	o[m.from>>6] &^= 1 << (m.from & 63)
	o[m.to>>6] |= 1 << (m.to & 63)
	s.Push().play(m)
}

// Hash covers what the repetition rule counts: board, side to move and
// castle moves used (never the move number).
func (s *searcher) Hash() uint64 {
	p := s.pos()
	h := uint64(14695981039346656037)
	for w, word := range s.occ[s.Ply] {
		for word != 0 {
			sq := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			h ^= uint64(sq)<<3 | uint64(p.board[sq])
			h *= 1099511628211
			h ^= h >> 29
		}
	}
	h ^= uint64(p.turn)<<61 | uint64(p.castles[0])<<50 | uint64(p.castles[1])<<53
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>31
}

// Move exports move i with its own copy of the route (the searcher's
// arena is reused by the next generation at this ply).
func (s *searcher) Move(i int) engine.Move {
	m := *s.cur(i)
	m.path = append([]uint8(nil), m.path...)
	return m
}

// NodeScale scales budgets given in nodes (ai.ScaleNodes: the game
// review, the puzzle miner) as before issue 45.
func (s *searcher) NodeScale() float64 { return 0.5 }

// LevelScale scales the AI's level budgets: about a million nodes a second
// since issue 45, so level 5's 400 000 nodes take about half a second on
// an idle core in a middle game, well inside its time cap.
func (s *searcher) LevelScale() float64 { return 4 }
