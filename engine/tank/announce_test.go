package tank

import "testing"

// The drives behind CHECK and ESCAPE: each threat path runs from the
// threatening piece's square to the square it fires from, each escape path
// from the CLT's square to the edge and one step beyond, every step to a
// neighbouring square, never through an occupied one.
func TestAnnouncePaths(t *testing.T) {
	// White LT on d4 threatens the black CLT on d8 from d4, d5, d6 and d3;
	// the white CLT on a5 can drive off the top edge; an obstacle on a7
	// makes it go round.
	p := mustParse(t, build(8, "b", "d4=Ln", "d8=cn", "a5=Cn", "a7=#"))
	a := p.Announce()
	if len(a.ThreatPaths) != len(a.Threats) || len(a.EscapePaths) != len(a.Escapes) {
		t.Fatalf("%d threat paths for %d threats, %d escape paths for %d escapes", len(a.ThreatPaths), len(a.Threats), len(a.EscapePaths), len(a.Escapes))
	}
	if len(a.Threats) == 0 || len(a.Escapes) == 0 {
		t.Fatalf("want threats and escapes: %+v", a)
	}
	adjacent := func(x, y Square) bool {
		df, dr := x.File-y.File, x.Rank-y.Rank
		return x != y && df >= -1 && df <= 1 && dr >= -1 && dr <= 1
	}
	check := func(kind string, path []Square, from, to Square) {
		t.Helper()
		if len(path) == 0 || path[0] != from || path[len(path)-1] != to {
			t.Errorf("%s path %v: want %s … %s", kind, path, squareName(from), squareName(to))
			return
		}
		for i := 1; i < len(path); i++ {
			if !adjacent(path[i-1], path[i]) {
				t.Errorf("%s path %v: %s to %s is not one step", kind, path, squareName(path[i-1]), squareName(path[i]))
			}
			if i < len(path)-1 && p.At(path[i]).Obstacle {
				t.Errorf("%s path %v runs through the obstacle on %s", kind, path, squareName(path[i]))
			}
		}
	}
	for i, l := range a.Threats {
		from := Square{3, 3} // the LT, or the CLT (it has a gun too)
		if len(a.ThreatPaths[i]) > 0 && a.ThreatPaths[i][0] == (Square{0, 4}) {
			from = Square{0, 4}
		}
		check("threat", a.ThreatPaths[i], from, l.From)
	}
	goesRound := false
	for i, l := range a.Escapes {
		check("escape", a.EscapePaths[i], Square{0, 4}, l.To)
		for _, s := range a.EscapePaths[i] {
			goesRound = goesRound || s.File > 0
		}
	}
	if !goesRound {
		t.Errorf("no escape route leaves the a-file round the obstacle on a7: %v", a.EscapePaths)
	}
	// The drive to d6 is two steps forward: d4, d5, d6.
	for i, l := range a.Threats {
		if l.From == (Square{3, 5}) {
			want := []Square{{3, 3}, {3, 4}, {3, 5}}
			if got := a.ThreatPaths[i]; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
				t.Errorf("drive to d6: %v, want %v", got, want)
			}
		}
	}
}
