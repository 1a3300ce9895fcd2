package tank

// A deliberately simple and slow reference move generator, written from the
// rules text and independent of movegen.go: it reads the board only through
// Position.At, finds drives by breadth-first search over poses held in a
// map, tries every enemy piece as a target with plain coordinate geometry,
// and applies moves on its own copy of the grid. The perft fixtures and the
// random positions of the self-play test are checked against it.

import (
	"sort"

	"github.com/tankbot/tankbot/engine"
)

type refPos struct {
	n    int
	grid map[Square]Cell
	turn engine.Side
	over bool
}

func refFrom(p *Position) *refPos {
	r := &refPos{n: p.Width(), grid: map[Square]Cell{}, turn: p.Turn(), over: p.Status().Over()}
	for f := 0; f < r.n; f++ {
		for k := 0; k < r.n; k++ {
			r.grid[Square{f, k}] = p.At(Square{f, k})
		}
	}
	return r
}

func (r *refPos) in(s Square) bool { return s.File >= 0 && s.File < r.n && s.Rank >= 0 && s.Rank < r.n }

type pose struct {
	s Square
	d Dir
}

// moves lists the legal moves by the rules' definitions.
func (r *refPos) moves() []Move {
	if r.over {
		return nil
	}
	var out []Move
	for f := 0; f < r.n; f++ {
		for k := 0; k < r.n; k++ {
			from := Square{f, k}
			c := r.grid[from]
			if c.Obstacle || c.Piece.Kind == None || c.Piece.Wreck || c.Piece.Side != r.turn {
				continue
			}
			out = append(out, r.pieceMoves(from, c.Piece)...)
		}
	}
	return out
}

func (r *refPos) free(s, origin Square) bool {
	if !r.in(s) {
		return false
	}
	return s == origin || r.grid[s].Empty()
}

func (r *refPos) pieceMoves(from Square, pc Piece) []Move {
	st := pc.Kind.Stats()
	dist := map[pose]int{{from, pc.Facing}: 0}
	frontier := []pose{{from, pc.Facing}}
	escape := false
	for step := 1; step <= st.Speed; step++ {
		var next []pose
		for _, q := range frontier {
			df, dr := q.d.Delta()
			ahead := Square{q.s.File + df, q.s.Rank + dr}
			if pc.Kind == CLT && !r.in(ahead) {
				// Leaving: must cross the opponent's back edge only.
				back := r.n
				if pc.Side == engine.Black {
					back = -1
				}
				if ahead.Rank == back && ahead.File >= 0 && ahead.File < r.n {
					escape = true
				}
			}
			cands := []pose{{q.s, q.d.Left()}, {q.s, q.d.Right()}}
			if r.free(ahead, from) {
				cands = append(cands, pose{ahead, q.d})
			}
			for _, c := range cands {
				if _, ok := dist[c]; !ok {
					dist[c] = step
					next = append(next, c)
				}
			}
		}
		frontier = next
	}
	df, dr := pc.Facing.Delta()
	behind := Square{from.File - df, from.Rank - dr}
	if r.free(behind, from) {
		dist[pose{behind, pc.Facing}] = 1
	}
	delete(dist, pose{from, pc.Facing})
	var out []Move
	if escape {
		out = append(out, Move{From: from, Escape: true})
	}
	var enemies []Square
	for t, c := range r.grid {
		if !c.Obstacle && c.Piece.Kind != None && !c.Piece.Wreck && c.Piece.Side != pc.Side {
			enemies = append(enemies, t)
		}
	}
	for q := range dist {
		out = append(out, Move{From: from, To: q.s, Facing: q.d})
		for _, t := range enemies {
			if r.destroys(pc, from, q, t) {
				out = append(out, Move{From: from, To: q.s, Facing: q.d, Target: t, HasTarget: true})
			}
		}
	}
	return out
}

// destroys reports whether pc, having driven from 'from' to pose q, can fire
// at t and destroy it.
func (r *refPos) destroys(pc Piece, from Square, q pose, t Square) bool {
	tc := r.grid[t]
	if tc.Obstacle || tc.Piece.Kind == None || tc.Piece.Wreck || tc.Piece.Side == pc.Side {
		return false
	}
	dx, dy := t.File-q.s.File, t.Rank-q.s.Rank
	if !(dx == 0 || dy == 0 || dx*dx == dy*dy) || (dx == 0 && dy == 0) {
		return false
	}
	var d Dir
	for k := Dir(0); k < 8; k++ {
		if a, b := k.Delta(); a == sign(dx) && b == sign(dy) {
			d = k
		}
	}
	n := max(abs(dx), abs(dy))
	st := pc.Kind.Stats()
	switch {
	case st.Indirect:
		if d != q.d || n < 3 || n > 5 {
			return false
		}
	default:
		if d != q.d && !(st.Turret && (d == q.d.Left() || d == q.d.Right())) {
			return false
		}
		if n < 2 {
			return false
		}
		a, b := d.Delta()
		for k := 1; k < n; k++ {
			s := Square{q.s.File + a*k, q.s.Rank + b*k}
			if s != from && !r.grid[s].Empty() {
				return false
			}
		}
	}
	ts := tc.Piece.Kind.Stats()
	armour := ts.Side
	if d == tc.Piece.Facing.Opposite() {
		armour = ts.Front
	} else if d == tc.Piece.Facing {
		armour = ts.Rear
	}
	return st.Gun > armour
}

// play applies m on a copy.
func (r *refPos) play(m Move) *refPos {
	n := &refPos{n: r.n, grid: make(map[Square]Cell, len(r.grid)), turn: r.turn.Opponent()}
	for k, v := range r.grid {
		n.grid[k] = v
	}
	pc := n.grid[m.From].Piece
	n.grid[m.From] = Cell{}
	if m.Escape {
		n.over = true
		return n
	}
	pc.Facing = m.Facing
	n.grid[m.To] = Cell{Piece: pc}
	if m.HasTarget {
		tc := n.grid[m.Target]
		tc.Piece.Wreck = true
		n.grid[m.Target] = tc
		if tc.Piece.Kind == CLT {
			n.over = true
		}
	}
	return n
}

func (r *refPos) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range r.moves() {
		if depth == 1 {
			n++
			continue
		}
		n += r.play(m).perft(depth - 1)
	}
	return n
}

func refNotations(r *refPos) []string {
	var out []string
	for _, m := range r.moves() {
		out = append(out, m.String())
	}
	sort.Strings(out)
	return out
}
