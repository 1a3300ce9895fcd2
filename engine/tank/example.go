package tank

import "github.com/tankbot/tankbot/engine"

// ExampleMove is a drive straight ahead, facing ahead, with no shot, as
// "C3 > C5N": the longest such drive, from nearest the middle
// (engine.Exampler); else any move to another square with no shot; else
// whatever is legal (a spin, a shot, an escape).
func (p *Position) ExampleMove() string {
	ahead, dir := N, 1
	if p.Turn() == engine.Black {
		ahead, dir = S, -1
	}
	mid := p.b.w - 1
	best, score := Move{}, -1
	for _, m := range p.Moves() {
		if m.Escape || m.HasTarget || m.To == m.From {
			continue
		}
		s := 0
		if m.To.File == m.From.File && (m.To.Rank-m.From.Rank)*dir > 0 && m.Facing == ahead {
			s = 1000 + 100*min((m.To.Rank-m.From.Rank)*dir, 2)
		}
		if d := 2*m.From.File - mid; d < 0 {
			s -= -d
		} else {
			s -= d
		}
		if s > score {
			best, score = m, s
		}
	}
	if score >= 0 {
		return best.String()
	}
	return engine.FirstMove(p, func([]string, string) bool { return true })
}
