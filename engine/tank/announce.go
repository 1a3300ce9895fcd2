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
			}
		}
	}
	a.Escape = len(a.Escapes) > 0
	return a
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
