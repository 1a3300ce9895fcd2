package camelot

import "github.com/tankbot/tankbot/engine"

// ExampleMove is a plain one-square move straight towards the opponent
// from the middle of the board, as "F6-F7" (engine.Exampler); else the
// plain move nearest the middle, else (a capture is compulsory, or only
// canters are left) the first legal move.
func (p *Position) ExampleMove() string {
	forward := 1
	if p.turn == engine.Black {
		forward = -1
	}
	best, score := Move{}, -1
	for _, m := range p.legal() {
		if m.IsCapture() || !adjacent(int(m.from), int(m.to)) {
			continue
		}
		s := 100 - 10*abs(2*(int(m.from)%files)-(files-1))
		if int(m.to)/files-int(m.from)/files == forward && int(m.to)%files == int(m.from)%files {
			s += 1000
		}
		if s > score {
			best, score = m, s
		}
	}
	if score >= 0 {
		return p.FormatMove(best)
	}
	return engine.FirstMove(p, func([]string, string) bool { return true })
}
