package tank

import "github.com/tankbot/tankbot/engine"

// Announce is what rules §6 says after a move, for the side that just moved
// (looking at the position as if that side were to move again).
type Announce struct {
	Check, Escape bool
	// Threats: for every legal move of the mover that would destroy the
	// enemy CLT, the line from the square it fires from to the CLT
	// (Indirect for a mortar). Each line once.
	Threats []Line
	// Escapes: for each way off the far edge, the line from the CLT's
	// square to the off-board square it would step onto. Each once.
	Escapes []Line
	// ThreatPaths[i] is the drive behind Threats[i]: the squares the
	// threatening piece passes from where it stands to Threats[i].From,
	// both included (one square when it fires from where it stands).
	// EscapePaths[i] is the CLT's drive to the edge square it leaves
	// from, then Escapes[i].To. Each is a shortest drive, which is what
	// the image draws; a turn in place adds no square.
	ThreatPaths, EscapePaths [][]Square
}

// Announce computes CHECK and ESCAPE for the side that just moved. A
// finished game announces nothing.
func (p *Position) Announce() Announce {
	var a Announce
	if p.Status().Over() {
		return a
	}
	b := p.b.work()
	defer b.release()
	b.turn = b.turn.Opponent()
	seen := map[Line]bool{}
	for _, m := range b.generate(nil) {
		if m.tgt < 0 || cellKind(b.cells[m.tgt]) != CLT {
			continue
		}
		l := Line{From: b.square(int(m.to)), To: b.square(int(m.tgt)), Indirect: kindStats[cellKind(b.cells[m.from])].Indirect}
		if !seen[l] {
			seen[l] = true
			a.Threats = append(a.Threats, l)
			a.ThreatPaths = append(a.ThreatPaths, b.drivePath(int(m.from), int(m.to), Dir(m.face)))
		}
	}
	a.Check = len(a.Threats) > 0
	sc := b.sc()
	for from, c := range b.cells {
		if !isActive(c, b.turn) || cellKind(c) != CLT {
			continue
		}
		b.cells[from] = cellEmpty
		b.poses(sc, from, cellFacing(c), kindStats[CLT].Speed, true)
		b.cells[from] = c
		for _, e := range sc.exits {
			sq, d := int(e>>3), Dir(e&7)
			s := b.square(sq)
			df, dr := d.Delta()
			l := Line{From: b.square(from), To: Square{File: s.File + df, Rank: s.Rank + dr}}
			if !seen[l] {
				seen[l] = true
				a.Escapes = append(a.Escapes, l)
				a.EscapePaths = append(a.EscapePaths, append(b.drivePath(from, sq, d), l.To))
			}
		}
	}
	a.Escape = len(a.Escapes) > 0
	return a
}

// drivePath is a shortest drive of the piece on from to the pose (to,
// face), or to any pose on to if that one is out of reach, as squares
// (from first, to last). It searches the same moves as poses (turn 45°,
// step forward into an empty square, or one reverse step) breadth first,
// with parents, on a board where from is empty; only Announce needs the
// route, so the move generator's search stays lean.
func (b *board) drivePath(from, to int, face Dir) []Square {
	if from == to {
		return []Square{b.square(from)}
	}
	c := b.cells[from]
	start := int32(from<<3) | int32(cellFacing(c))
	speed := kindStats[cellKind(c)].Speed
	if back := from - b.dirStep[cellFacing(c)]; back == to {
		return []Square{b.square(from), b.square(to)}
	}
	b.cells[from] = cellEmpty
	defer func() { b.cells[from] = c }()
	parent := map[int32]int32{start: -1}
	q := []int32{start}
	best := int32(-1)
	for dist := 0; dist < speed && best < 0; dist++ {
		next := q[len(q):]
		for _, p := range q {
			sq, d := int(p>>3), Dir(p&7)
			cand := [3]int32{int32(sq<<3) | int32(d.Left()), int32(sq<<3) | int32(d.Right()), -1}
			if nsq := sq + b.dirStep[d]; b.cells[nsq] == cellEmpty {
				cand[2] = int32(nsq<<3) | int32(d)
			}
			for _, n := range cand {
				if _, ok := parent[n]; n < 0 || ok {
					continue
				}
				parent[n] = p
				next = append(next, n)
				if int(n>>3) == to && (best < 0 || Dir(n&7) == face) {
					best = n
				}
			}
		}
		q = next
	}
	if best < 0 {
		return []Square{b.square(from), b.square(to)} // not a drive: draw it straight
	}
	var rev []Square
	for p := best; p >= 0; p = parent[p] {
		s := b.square(int(p >> 3))
		if len(rev) == 0 || rev[len(rev)-1] != s {
			rev = append(rev, s)
		}
	}
	out := make([]Square, len(rev))
	for i, s := range rev {
		out[len(rev)-1-i] = s
	}
	return out
}

// Announcements are CHECK and ESCAPE for the side that just moved, with
// their lines as pairs of lower-case squares ("e2"; an escape route ends on
// the off-board square, e.g. "e17").
func (p *Position) Announcements() []engine.Announcement {
	a := p.Announce()
	mover := p.b.turn.Opponent()
	var out []engine.Announcement
	if a.Check {
		out = append(out, engine.Announcement{Kind: engine.AnnounceCheck, Side: mover, Lines: linePairs(a.Threats)})
	}
	if a.Escape {
		out = append(out, engine.Announcement{Kind: engine.AnnounceEscape, Side: mover, Lines: linePairs(a.Escapes)})
	}
	return out
}

func linePairs(ls []Line) [][2]string {
	out := make([][2]string, len(ls))
	for i, l := range ls {
		out[i] = [2]string{lowerSquare(l.From), lowerSquare(l.To)}
	}
	return out
}

// Suffix is the notation suffix of the announcement: "+", "-", "+-" or "".
func (a Announce) Suffix() string {
	s := ""
	if a.Check {
		s += "+"
	}
	if a.Escape {
		s += "-"
	}
	return s
}
