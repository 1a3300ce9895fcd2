package camelot

import "github.com/tankbot/tankbot/engine"

// Duties that restrict the side to move, as bits.
const (
	dutyNone    = 0
	dutyCapture = 1 // only jumps and charges are legal
	dutyLeave   = 2 // a piece must leave its own castle
)

// generator holds one move generation: a scratch board on which the moving
// piece is lifted and captured pieces are removed and put back.
type generator struct {
	b     [numSq]int8
	side  engine.Side
	pos   *Position
	moves []Move
	path  [numSq]uint8 // landing squares of the route being built
	caps  [3]uint64
	// arena holds the moves' routes (Move.path slices into it), so that a
	// search reusing one per ply allocates nothing.
	arena []uint8
	queue [numSq + 1]int // canters' breadth-first queue
}

func (p *Position) generate() []Move {
	ms, _ := p.gen()
	return ms
}

// newPath returns a copy of route kept in the generator's arena.
func (g *generator) newPath(route []uint8) []uint8 {
	start := len(g.arena)
	g.arena = append(g.arena, route...)
	return g.arena[start:len(g.arena):len(g.arena)]
}

func (p *Position) duty() int {
	_, d := p.gen()
	return d
}

// gen generates the legal moves ignoring board outcomes, and says which duty
// restricted them.
func (p *Position) gen() ([]Move, int) {
	var g generator
	return p.genInto(&g, nil, nil)
}

// genInto is gen with the moves appended to buf[:0] and their routes to
// *arena (when not nil, reset first and kept for the next call): the
// search's allocation-free path.
func (p *Position) genInto(g *generator, buf []Move, arena *[]uint8) ([]Move, int) {
	g.b, g.side, g.pos, g.moves, g.caps = p.board, p.turn, p, buf[:0], [3]uint64{}
	if arena != nil {
		g.arena = (*arena)[:0]
		defer func() { *arena = g.arena }()
	} else {
		g.arena = nil
	}
	side := p.turn
	// Own castle: a piece standing there must leave, before anything else;
	// by a capture if it can jump. If it cannot move at all, the ordinary
	// rules apply to the player's other pieces (see docs/camelot.md).
	var leaverSq [2]int
	leavers := leaverSq[:0]
	for _, sq := range castleOf[side] {
		if c := g.b[sq]; c != empty && pieceSide(c) == side {
			leavers = append(leavers, sq)
		}
	}
	if len(leavers) > 0 {
		capture := false
		for _, sq := range leavers {
			capture = capture || g.canJump(sq)
		}
		for _, sq := range leavers {
			g.piece(sq, capture)
		}
		if len(g.moves) > 0 {
			if capture {
				return g.moves, dutyLeave | dutyCapture
			}
			return g.moves, dutyLeave
		}
	}
	compulsory := false
	for sq := 0; sq < numSq && !compulsory; sq++ {
		if c := g.b[sq]; c != empty && pieceSide(c) == side && g.canJump(sq) {
			compulsory = true
		}
	}
	for sq := 0; sq < numSq; sq++ {
		if c := g.b[sq]; c != empty && pieceSide(c) == side {
			g.piece(sq, compulsory)
		}
	}
	if compulsory {
		return g.moves, dutyCapture
	}
	return g.moves, dutyNone
}

// canJump reports whether the piece on sq can make a jump now. A piece in the
// enemy castle never leaves it, so it cannot jump.
func (g *generator) canJump(sq int) bool {
	if inCastle(sq, g.side.Opponent()) {
		return false
	}
	return g.jumpFrom(sq)
}

// jumpFrom reports whether a piece of the side to move standing on sq could
// jump (sq itself may be empty: the piece is lifted).
func (g *generator) jumpFrom(sq int) bool {
	for d := 0; d < 8; d++ {
		mid := step[sq][d]
		if mid < 0 {
			continue
		}
		c := g.b[mid]
		if c == empty || pieceSide(c) == g.side {
			continue
		}
		if land := step[mid][d]; land >= 0 && g.b[land] == empty {
			return true
		}
	}
	return false
}

// piece generates the moves of the piece on s; captureOnly keeps only jumps
// and charges.
func (g *generator) piece(s int, captureOnly bool) {
	side := g.side
	if inCastle(s, side.Opponent()) {
		// In the enemy castle the only move is the castle move.
		if captureOnly || g.pos.castles[side] >= MaxCastleMoves {
			return
		}
		c := castleOf[side.Opponent()]
		other := c[0]
		if other == s {
			other = c[1]
		}
		if g.b[other] == empty {
			g.moves = append(g.moves, Move{from: uint8(s), to: uint8(other), kind: kindCastle, path: g.newPath([]uint8{uint8(other)})})
		}
		return
	}
	pc := g.b[s]
	g.b[s] = empty
	first := len(g.moves)
	g.jumps(s, s, 0, 0, first)
	if isKnight(pc) {
		// Charges: canter anywhere (the Knight's clause is satisfied by the
		// capture that follows), then jump.
		var parent [numSq]int16
		for _, x := range g.canters(s, false, &parent) {
			if inCastle(x, side.Opponent()) || !g.jumpFrom(x) {
				continue
			}
			n := g.route(s, x, &parent)
			g.jumps(s, x, n, n, first)
		}
	}
	if !captureOnly {
		for d := 0; d < 8; d++ {
			t := step[s][d]
			if t >= 0 && g.b[t] == empty && !inCastle(int(t), side) {
				g.moves = append(g.moves, Move{from: uint8(s), to: uint8(t), kind: kindPlain, path: g.newPath([]uint8{uint8(t)})})
			}
		}
		// Canter-only moves; a Knight may not stop after landing where it
		// could jump, so such squares are neither ends nor waypoints.
		var parent [numSq]int16
		for _, x := range g.canters(s, isKnight(pc), &parent) {
			n := g.route(s, x, &parent)
			g.moves = append(g.moves, Move{from: uint8(s), to: uint8(x), kind: kindCanter, canters: uint8(n), path: g.newPath(g.path[:n])})
		}
	}
	g.b[s] = pc
}

// canters lists the squares a piece lifted from s can reach by a canter chain,
// in breadth-first order with each square's parent set so that routes are
// shortest and, among those, smallest square by square (canonical). The
// enemy castle ends a chain; the own castle and the start square are never
// landed on. With clause, squares from which a jump is possible are excluded.
func (g *generator) canters(s int, clause bool, parent *[numSq]int16) []int {
	var seen [numSq]bool
	seen[s] = true
	queue := g.queue[:1]
	queue[0] = s
	enemyCastle := g.side.Opponent()
	for i := 0; i < len(queue); i++ {
		cur := queue[i]
		if cur != s && inCastle(cur, enemyCastle) {
			continue
		}
		for d := 0; d < 8; d++ {
			mid := step[cur][d]
			if mid < 0 {
				continue
			}
			c := g.b[mid]
			if c == empty || pieceSide(c) != g.side {
				continue
			}
			land := int(step[mid][d])
			if land < 0 || seen[land] || g.b[land] != empty || inCastle(land, g.side) {
				continue
			}
			seen[land] = true
			// No jump is possible from the enemy castle: entering it ends
			// the move.
			if clause && !inCastle(land, enemyCastle) && g.jumpFrom(land) {
				continue
			}
			parent[land] = int16(cur)
			queue = append(queue, land)
		}
	}
	return queue[1:]
}

// route writes the canter route from s to x into g.path and returns its length.
func (g *generator) route(s, x int, parent *[numSq]int16) int {
	n := 0
	for c := x; c != s; c = int(parent[c]) {
		n++
	}
	for c, i := x, n-1; c != s; c, i = int(parent[c]), i-1 {
		g.path[i] = uint8(c)
	}
	return n
}

// jumps extends the route in g.path[:n] (whose first canters landings are
// canters) by every jump chain from cur, emitting finished chains. first is
// the index of this piece's first move, for merging routes with one result.
func (g *generator) jumps(s, cur, n, canters, first int) {
	if n > canters && inCastle(cur, g.side.Opponent()) {
		g.emitCapture(s, cur, n, canters, first)
		return
	}
	found := false
	for d := 0; d < 8; d++ {
		mid := step[cur][d]
		if mid < 0 {
			continue
		}
		c := g.b[mid]
		if c == empty || pieceSide(c) == g.side {
			continue
		}
		land := int(step[mid][d])
		if land < 0 || g.b[land] != empty {
			continue
		}
		found = true
		g.b[mid] = empty
		g.caps[mid>>6] |= 1 << (mid & 63)
		g.path[n] = uint8(land)
		g.jumps(s, land, n+1, canters, first)
		g.caps[mid>>6] &^= 1 << (mid & 63)
		g.b[mid] = c
	}
	if !found && n > canters {
		g.emitCapture(s, cur, n, canters, first)
	}
}

// emitCapture records a finished capture, merging it with an earlier route to
// the same result (§7) and keeping the canonical route.
func (g *generator) emitCapture(s, to, n, canters, first int) {
	m := Move{from: uint8(s), to: uint8(to), kind: kindCapture, canters: uint8(canters), caps: g.caps}
	for i := first; i < len(g.moves); i++ {
		o := &g.moves[i]
		if o.kind == kindCapture && o.to == m.to && o.caps == m.caps {
			if routeLess(g.path[:n], o.path) {
				o.path = g.newPath(g.path[:n])
				o.canters = uint8(canters)
			}
			return
		}
	}
	m.path = g.newPath(g.path[:n])
	g.moves = append(g.moves, m)
}

// routeLess orders routes: fewer landings first, then square by square.
func routeLess(a, b []uint8) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
