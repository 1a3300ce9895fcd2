package tank

import (
	"sync"

	"github.com/tankbot/tankbot/engine"
)

// This file is the hot path: pose search, lines of fire, move generation,
// bulk counting and perft. Everything works on the padded byte board of
// board.go and reuses the scratch buffers below, so counting allocates
// nothing.

// imove is the generator's move: board indexes, tgt -1 for no shot.
type imove struct {
	from, to, tgt int16
	face          uint8
	esc           bool
}

// genScratch is reusable memory for one board. Stamps avoid clearing the
// visited sets between pieces.
type genScratch struct {
	stamp    uint32
	seen     []uint32 // pose (index*8+facing) -> stamp when reached
	rayStamp []uint32 // (index*8+dir) -> stamp when rayTgt was computed
	rayTgt   []int16  // first-hit destroyable target of that ray, or -1
	queue    []int32  // poses in search order; queue[0] is the start pose
	exits    []int32  // escape poses (index*8+facing) found for a CLT
	bufs     [][]imove
	list     []imove // move list of one-off generations
	board    board   // working copy of an immutable position's board
	cells    []byte  // its cells
}

// scratchPool recycles scratch space between calls on immutable positions.
// A plain free list rather than sync.Pool: the pool drops items at random
// under the race detector, and reallocating tens of kilobytes per call
// dominated the race-enabled tests.
var scratchPool struct {
	mu   sync.Mutex
	free []*genScratch
}

func getScratch() *genScratch {
	scratchPool.mu.Lock()
	defer scratchPool.mu.Unlock()
	if n := len(scratchPool.free); n > 0 {
		sc := scratchPool.free[n-1]
		scratchPool.free = scratchPool.free[:n-1]
		return sc
	}
	return new(genScratch)
}

func putScratch(sc *genScratch) {
	scratchPool.mu.Lock()
	defer scratchPool.mu.Unlock()
	if len(scratchPool.free) < 64 {
		scratchPool.free = append(scratchPool.free, sc)
	}
}

func (b *board) sc() *genScratch {
	if b.scratch == nil {
		b.scratch = getScratch()
	}
	if n := len(b.cells) * 8; len(b.scratch.seen) < n {
		// Fields one by one: the scratch may hold the board itself.
		sc := b.scratch
		sc.stamp = 0
		sc.seen = make([]uint32, n)
		sc.rayStamp = make([]uint32, n)
		sc.rayTgt = make([]int16, n)
		sc.queue = make([]int32, 0, 256)
	}
	return b.scratch
}

// work returns a mutable copy of b that lives in pooled scratch space;
// call release when done. Positions never hand out their own board, since
// generation briefly empties the moving piece's square.
func (b *board) work() *board {
	sc := getScratch()
	sc.cells = append(sc.cells[:0], b.cells...)
	sc.board = *b
	w := &sc.board
	w.cells = sc.cells
	w.scratch = sc
	return w
}

// release returns the scratch space to the pool.
func (b *board) release() {
	// b lives inside the scratch: clear the field before the scratch goes
	// back to the pool, where another goroutine may take it at once.
	if sc := b.scratch; sc != nil {
		b.scratch = nil
		putScratch(sc)
	}
}

// armourBy[kind][(d - f) & 7] is the armour a shot travelling in direction d
// meets on a piece facing f: straight at the front when d is opposite f
// (4), at the rear when d equals f (0), the side otherwise.
var armourBy = func() (t [8][8]int8) {
	for _, k := range Kinds {
		st := kindStats[k]
		for rel := 0; rel < 8; rel++ {
			switch rel {
			case 4:
				t[k][rel] = int8(st.Front)
			case 0:
				t[k][rel] = int8(st.Rear)
			default:
				t[k][rel] = int8(st.Side)
			}
		}
	}
	return t
}()

// armourAgainst is the armour of the piece in cell c hit by a shot
// travelling in direction d.
func armourAgainst(c byte, d Dir) int {
	return int(armourBy[c&kindMask][(d-cellFacing(c))&7])
}

// poses runs the drive search for the piece standing on from (whose cell
// the caller has emptied) and returns the number of poses in sc.queue after
// the start pose; the reverse step, when possible and new, is appended as
// the last one. For a CLT it collects the escape poses in sc.exits and
// reports whether there is any.
func (b *board) poses(sc *genScratch, from int, face Dir, speed int, clt bool) (n int, escape bool) {
	sc.stamp++
	if sc.stamp == 0 { // wrapped: old stamps could look current
		clear(sc.seen)
		clear(sc.rayStamp)
		sc.stamp = 1
	}
	st := sc.stamp
	cells := b.cells
	start := int32(from<<3 | int(face))
	sc.seen[start] = st
	q := append(sc.queue[:0], start)
	sc.exits = sc.exits[:0]
	head := 0
	for dist := 0; dist < speed; dist++ {
		end := len(q)
		for ; head < end; head++ {
			p := q[head]
			sq, d := int(p>>3), Dir(p&7)
			base := int32(sq << 3)
			if l := base | int32(d.Left()); sc.seen[l] != st {
				sc.seen[l] = st
				q = append(q, l)
			}
			if r := base | int32(d.Right()); sc.seen[r] != st {
				sc.seen[r] = st
				q = append(q, r)
			}
			nsq := sq + b.dirStep[d]
			if c := cells[nsq]; c == cellEmpty {
				if f := int32(nsq<<3) | int32(d); sc.seen[f] != st {
					sc.seen[f] = st
					q = append(q, f)
				}
			} else if clt && c == cellBorder && b.escapes(sq, d) {
				sc.exits = append(sc.exits, p)
			}
		}
	}
	if back := from - b.dirStep[face]; cells[back] == cellEmpty {
		if p := int32(back<<3) | int32(face); sc.seen[p] != st {
			sc.seen[p] = st
			q = append(q, p)
		}
	}
	sc.queue = q
	return len(q) - 1, len(sc.exits) > 0
}

// escapes reports whether a forward step from index sq in direction d
// leaves the board across the far edge of the side to move, not through a
// corner and not across a side edge.
func (b *board) escapes(sq int, d Dir) bool {
	df, dr := d.Delta()
	want := 1
	if b.turn == engine.Black {
		want = -1
	}
	if dr != want {
		return false
	}
	f, r := sq%b.stride-1+df, sq/b.stride-1+dr
	return f >= 0 && f < b.w && (r == b.h || r == -1)
}

// ray returns the index of the enemy piece a direct shot from sq in
// direction d would destroy with gun, or -1: the first non-empty square
// along the ray must be an active enemy piece with at least one empty
// square between, and gun must beat the armour it shows.
func (b *board) ray(sc *genScratch, sq int, d Dir, gun int) int16 {
	k := sq<<3 | int(d)
	if sc.rayStamp[k] == sc.stamp {
		return sc.rayTgt[k]
	}
	sc.rayStamp[k] = sc.stamp
	res := int16(-1)
	step := b.dirStep[d]
	t := sq + step
	if b.cells[t] == cellEmpty {
		t += step
		for b.cells[t] == cellEmpty {
			t += step
		}
		c := b.cells[t]
		if isActive(c, b.turn.Opponent()) && gun > armourAgainst(c, d) {
			res = int16(t)
		}
	}
	sc.rayTgt[k] = res
	return res
}

// mortarCount counts the enemy pieces a mortar on sq facing d destroys:
// exactly 3, 4 or 5 squares ahead, over anything.
func (b *board) mortarCount(sq int, d Dir, gun int) int {
	df, dr := d.Delta()
	f, r := sq%b.stride-1, sq/b.stride-1
	enemy := b.turn.Opponent()
	n := 0
	for k := 3; k <= 5; k++ {
		ff, rr := f+df*k, r+dr*k
		if ff < 0 || ff >= b.w || rr < 0 || rr >= b.h {
			break
		}
		if c := b.cells[b.index(ff, rr)]; isActive(c, enemy) && gun > armourAgainst(c, d) {
			n++
		}
	}
	return n
}

// count returns the number of legal moves of the side to move without
// making any (bulk counting for the last ply of perft).
func (b *board) count() uint64 {
	sc := b.sc()
	var n uint64
	for from, c := range b.cells {
		if !isActive(c, b.turn) {
			continue
		}
		k := cellKind(c)
		st := &kindStats[k]
		b.cells[from] = cellEmpty
		np, esc := b.poses(sc, from, cellFacing(c), st.Speed, k == CLT)
		if esc {
			n++
		}
		n += uint64(np)
		for _, p := range sc.queue[1:] {
			sq, d := int(p>>3), Dir(p&7)
			switch {
			case st.Indirect:
				n += uint64(b.mortarCount(sq, d, st.Gun))
			case st.Turret:
				if b.ray(sc, sq, d.Left(), st.Gun) >= 0 {
					n++
				}
				if b.ray(sc, sq, d, st.Gun) >= 0 {
					n++
				}
				if b.ray(sc, sq, d.Right(), st.Gun) >= 0 {
					n++
				}
			default:
				if b.ray(sc, sq, d, st.Gun) >= 0 {
					n++
				}
			}
		}
		b.cells[from] = c
	}
	return n
}

// generate appends every legal move of the side to move to buf: pieces in
// board order, each piece's escape first, then its poses in search order
// (no shot first, then its targets).
func (b *board) generate(buf []imove) []imove {
	sc := b.sc()
	for from, c := range b.cells {
		if isActive(c, b.turn) {
			buf = b.generatePiece(sc, buf, from, c)
		}
	}
	return buf
}

// generateGains appends, in generate's order, only the moves that escape
// or shoot (the search's quiescence: most moves are quiet drives).
func (b *board) generateGains(buf []imove) []imove {
	sc := b.sc()
	for from, c := range b.cells {
		if isActive(c, b.turn) {
			buf = b.generatePieceSome(sc, buf, from, c, true)
		}
	}
	return buf
}

// generatePiece appends the legal moves of the active piece c on from.
func (b *board) generatePiece(sc *genScratch, buf []imove, from int, c byte) []imove {
	return b.generatePieceSome(sc, buf, from, c, false)
}

// generatePieceSome is generatePiece; with gainsOnly it leaves out the
// drives without a shot.
func (b *board) generatePieceSome(sc *genScratch, buf []imove, from int, c byte, gainsOnly bool) []imove {
	k := cellKind(c)
	st := &kindStats[k]
	b.cells[from] = cellEmpty
	_, esc := b.poses(sc, from, cellFacing(c), st.Speed, k == CLT)
	if esc {
		buf = append(buf, imove{from: int16(from), to: int16(from), tgt: -1, face: uint8(cellFacing(c)), esc: true})
	}
	for _, p := range sc.queue[1:] {
		sq, d := int(p>>3), Dir(p&7)
		m := imove{from: int16(from), to: int16(sq), tgt: -1, face: uint8(d)}
		if !gainsOnly {
			buf = append(buf, m)
		}
		switch {
		case st.Indirect:
			df, dr := d.Delta()
			f, r := sq%b.stride-1, sq/b.stride-1
			for k := 3; k <= 5; k++ {
				ff, rr := f+df*k, r+dr*k
				if ff < 0 || ff >= b.w || rr < 0 || rr >= b.h {
					break
				}
				t := b.index(ff, rr)
				if c := b.cells[t]; isActive(c, b.turn.Opponent()) && st.Gun > armourAgainst(c, d) {
					m.tgt = int16(t)
					buf = append(buf, m)
				}
			}
		case st.Turret:
			for _, rd := range [3]Dir{d.Left(), d, d.Right()} {
				if t := b.ray(sc, sq, rd, st.Gun); t >= 0 {
					m.tgt = t
					buf = append(buf, m)
				}
			}
		default:
			if t := b.ray(sc, sq, d, st.Gun); t >= 0 {
				m.tgt = t
				buf = append(buf, m)
			}
		}
	}
	b.cells[from] = c
	return buf
}

// perft counts leaves depth >= 1 plies deep with make/unmake; a move that
// ends the game leaves no positions below it.
func (b *board) perft(depth int) uint64 {
	if depth == 1 {
		return b.count()
	}
	sc := b.sc()
	for len(sc.bufs) <= depth {
		sc.bufs = append(sc.bufs, make([]imove, 0, 512))
	}
	moves := b.generate(sc.bufs[depth][:0])
	sc.bufs[depth] = moves
	var n uint64
	for _, m := range moves {
		u, over := b.make(m)
		if !over {
			n += b.perft(depth - 1)
		}
		b.unmake(m, u)
	}
	return n
}

// export converts an internal move to the public Move.
func (b *board) export(m imove) Move {
	if m.esc {
		return Move{From: b.square(int(m.from)), Escape: true}
	}
	mv := Move{From: b.square(int(m.from)), To: b.square(int(m.to)), Facing: Dir(m.face)}
	if m.tgt >= 0 {
		mv.Target, mv.HasTarget = b.square(int(m.tgt)), true
	}
	return mv
}

// find returns the internal form of m if it is legal.
func (b *board) find(m Move) (imove, bool) {
	if !b.onBoard(m.From) || (!m.Escape && (!b.onBoard(m.To) || (m.HasTarget && !b.onBoard(m.Target)))) {
		return imove{}, false
	}
	want := imove{from: int16(b.index(m.From.File, m.From.Rank)), tgt: -1, esc: m.Escape}
	if !m.Escape {
		want.to, want.face = int16(b.index(m.To.File, m.To.Rank)), uint8(m.Facing&7)
		if m.HasTarget {
			want.tgt = int16(b.index(m.Target.File, m.Target.Rank))
		}
	}
	c := b.cells[want.from]
	if !isActive(c, b.turn) {
		return imove{}, false
	}
	k := cellKind(c)
	st := &kindStats[k]
	sc := b.sc()
	b.cells[want.from] = cellEmpty
	defer func() { b.cells[want.from] = c }()
	_, esc := b.poses(sc, int(want.from), cellFacing(c), st.Speed, k == CLT)
	if want.esc {
		if esc {
			want.to, want.face = want.from, uint8(cellFacing(c))
		}
		return want, esc
	}
	pose := int32(want.to)<<3 | int32(want.face)
	if pose == sc.queue[0] || sc.seen[pose] != sc.stamp {
		return imove{}, false
	}
	if want.tgt < 0 {
		return want, true
	}
	to, d := int(want.to), Dir(want.face)
	switch {
	case st.Indirect:
		df, dr := d.Delta()
		f, r := to%b.stride-1, to/b.stride-1
		for k := 3; k <= 5; k++ {
			ff, rr := f+df*k, r+dr*k
			if ff >= 0 && ff < b.w && rr >= 0 && rr < b.h && b.index(ff, rr) == int(want.tgt) {
				tc := b.cells[want.tgt]
				return want, isActive(tc, b.turn.Opponent()) && st.Gun > armourAgainst(tc, d)
			}
		}
		return imove{}, false
	case st.Turret:
		for _, rd := range [3]Dir{d.Left(), d, d.Right()} {
			if b.ray(sc, to, rd, st.Gun) == want.tgt {
				return want, true
			}
		}
		return imove{}, false
	default:
		return want, b.ray(sc, to, d, st.Gun) == want.tgt
	}
}

// normalize clears the fields a move does not use, so equal moves compare
// equal.
func normalize(m Move) Move {
	if m.Escape {
		return Move{From: m.From, Escape: true}
	}
	if !m.HasTarget {
		m.Target = Square{}
	}
	return m
}
