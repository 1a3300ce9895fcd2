package tank

import "github.com/tankbot/tankbot/engine"

// This file gives engine/ai a make/unmake view of the board (the same
// zero-allocation generator as perft) and Tank Chess's static evaluation.

var _ engine.Searchable = (*Position)(nil)

// winGain orders game-ending moves before every capture.
const winGain = 10000

type searchFrame struct {
	m    imove
	u    undo
	over bool
	hash uint64
}

type searcher struct {
	b     *board
	root  engine.Result
	lists [engine.SearchPlies][]imove
	stack []searchFrame
	hash  uint64
}

// NewSearcher implements engine.Searchable.
func (p *Position) NewSearcher() engine.Searcher {
	b := p.b.clone()
	b.scratch = new(genScratch)
	s := &searcher{b: b, root: p.status.Result, stack: make([]searchFrame, 0, engine.SearchPlies)}
	for i, c := range b.cells {
		if isPiece(c) {
			s.hash ^= zobrist(i, c)
		}
	}
	if b.turn == engine.Black {
		s.hash ^= zobristBlack
	}
	return s
}

const zobristBlack = 0x9e3779b97f4a7c15

// zobrist is the key of cell value c on index i (a mixed hash rather than a
// table: boards go up to 28×28 padded squares × 256 cell values).
func zobrist(i int, c byte) uint64 {
	x := uint64(i)<<8 | uint64(c)
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func (s *searcher) Turn() engine.Side { return s.b.turn }

func (s *searcher) Over() engine.Result {
	if len(s.stack) == 0 {
		return s.root
	}
	if s.stack[len(s.stack)-1].over {
		if s.b.turn == engine.White { // Black just won
			return engine.BlackWins
		}
		return engine.WhiteWins
	}
	return engine.Ongoing
}

func (s *searcher) Generate() int {
	ply := len(s.stack)
	s.lists[ply] = s.b.generate(s.lists[ply][:0])
	return len(s.lists[ply])
}

// GenerateGains lists the escapes and shots only, in Generate's order
// (ai.GainGenerator: quiescence), or -1 when the side to move has no
// legal move at all (no active piece: it has lost).
func (s *searcher) GenerateGains() int {
	ply := len(s.stack)
	s.lists[ply] = s.b.generateGains(s.lists[ply][:0])
	if len(s.lists[ply]) == 0 && !s.b.hasActive(s.b.turn) {
		return -1
	}
	return len(s.lists[ply])
}

// NoMoves: a side without an active piece has lost (only with custom armies).
func (s *searcher) NoMoves() engine.Result {
	if s.b.turn == engine.White {
		return engine.BlackWins
	}
	return engine.WhiteWins
}

func (s *searcher) cur(i int) imove { return s.lists[len(s.stack)][i] }

func (s *searcher) Gain(i int) int {
	m := s.cur(i)
	if m.esc {
		return winGain
	}
	if m.tgt < 0 {
		return 0
	}
	k := cellKind(s.b.cells[m.tgt])
	if k == CLT {
		return winGain
	}
	return pieceValue[k]
}

func (s *searcher) Key(i int) uint32 {
	m := s.cur(i)
	k := uint32(m.from)<<22 ^ uint32(m.to)<<12 ^ uint32(m.face)<<9 ^ uint32(m.tgt+1)
	if m.esc {
		k ^= 1 << 31
	}
	return k
}

func (s *searcher) Make(i int) {
	m := s.cur(i)
	b := s.b
	h := s.hash
	fromCell := b.cells[m.from]
	var tgtCell byte
	if m.tgt >= 0 {
		tgtCell = b.cells[m.tgt]
	}
	u, over := b.make(m)
	s.stack = append(s.stack, searchFrame{m: m, u: u, over: over, hash: h})
	h ^= zobrist(int(m.from), fromCell) ^ zobristBlack
	if !m.esc {
		h ^= zobrist(int(m.to), b.cells[m.to])
	}
	if m.tgt >= 0 {
		h ^= zobrist(int(m.tgt), tgtCell) ^ zobrist(int(m.tgt), b.cells[m.tgt])
	}
	s.hash = h
}

func (s *searcher) Unmake() {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	s.b.unmake(f.m, f.u)
	s.hash = f.hash
}

func (s *searcher) Hash() uint64 { return s.hash }

func (s *searcher) Move(i int) engine.Move { return s.b.export(s.cur(i)) }

// QuiescencePlies: two plies of captures after the horizon (a shot and the
// answering shot). Without them the search ended on a capture left
// unanswered, so the odd depth that levels 4 and 5 add over level 3 was
// optimistic and did not win games (docs/ai.md, the ladder on node budgets).
// Each quiescence node costs a full generation (hundreds of poses), but
// only leaves that do not stand pat pay for it.
func (s *searcher) QuiescencePlies() int { return 2 }

// NodeScale scales the AI's level budgets: leaves are evaluated without
// generation, so nodes are cheap. ×3, not more: level 5's 300 000 nodes
// take 0.6–1.0 s on an idle core (depth 3), inside its time cap; with ×8
// its 800 000 took 2–4 s, so the cap, not the budget, decided its moves
// and it searched no deeper than level 4 on a busy machine (docs/ai.md).
func (s *searcher) NodeScale() float64 { return 3 }
