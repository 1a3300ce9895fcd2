package puzzle

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// testPuzzles reads testdata/trivial.tsv: puzzles of an earlier
// collection, each line the game then a collection line.
func testPuzzles(t *testing.T) map[string]*Puzzle {
	t.Helper()
	b, err := os.ReadFile("testdata/trivial.tsv")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Puzzle{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		game, line, _ := strings.Cut(l, "\t")
		pz, err := ParseLine(game, line)
		if err != nil {
			t.Fatal(err)
		}
		out[pz.ID] = pz
	}
	return out
}

// The triviality filter names the reasons the issue lists: the only shot
// in Tank Chess, the only check that mates in Gungi, the only capture, the
// capture of the last piece; puzzles that need reading pass.
func TestTrivial(t *testing.T) {
	ps := testPuzzles(t)
	want := map[string][]string{
		"t4201ba9e": {TrivialOnlyShot},
		"te63a6712": nil,
		"c1d5271fa": nil,
		"cf8995923": {TrivialOnlyCapture},
		"ce34c0471": {TrivialLastPiece},
		"ga7faa460": nil,
		"gdd4b1ccb": {TrivialOnlyCheck},
		"g492d9e3b": {TrivialOnlyCapture},
	}
	for id, w := range want {
		pz := ps[id]
		if pz == nil {
			t.Fatalf("%s not in testdata", id)
		}
		got, err := Trivial(pz)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: trivial %v, want %v", id, got, w)
		}
	}
	bad := *ps["te63a6712"]
	bad.Solution = []string{"A1 > A2N"}
	if _, err := Trivial(&bad); err == nil {
		t.Error("a solution that is not a legal move: no error")
	}
}

// The curator refuses trivial puzzles, the opening, a repeated solution
// and a fourth puzzle from one game, counting each reason.
func TestCurator(t *testing.T) {
	ps := testPuzzles(t)
	c := &Curator{MinPly: 10, PerGame: 1}
	cp := func(id, source string) *Puzzle {
		q := *ps[id]
		q.Source = source
		return &q
	}
	steps := []struct {
		pz   *Puzzle
		ok   bool
		why  string
		name string
	}{
		{cp("te63a6712", "aiplay:1:1:5"), false, RefuseOpening, "opening"},
		{cp("te63a6712", "aiplay:1:1:20"), true, "", "kept"},
		{cp("te63a6712", "aiplay:1:2:30:A1 > A2N"), false, RefuseSame, "same solution"},
		{cp("ga7faa460", "aiplay:1:1:40"), false, RefuseSameGame, "game full"},
		{cp("ga7faa460", "aiplay:1:3:40"), true, "", "another game"},
		{cp("gdd4b1ccb", "aiplay:1:4:40"), false, TrivialOnlyCheck, "trivial"},
	}
	for _, s := range steps {
		ok, why, err := c.Admit(s.pz)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if ok != s.ok || (!ok && !slices.Contains(why, s.why)) {
			t.Errorf("%s: admit %t %v, want %t %s", s.name, ok, why, s.ok, s.why)
		}
	}
	if c.Refused[RefuseOpening] != 1 || c.Refused[RefuseSame] != 1 || c.Refused[RefuseSameGame] != 1 || c.Refused[TrivialOnlyCheck] != 1 {
		t.Errorf("refusals %v", c.Refused)
	}
	if got := OriginGame("aiplay:44:17:54:F3-F4"); got != "aiplay:44:17" {
		t.Errorf("origin %q", got)
	}
	if ply, ok := SourcePly("selfplay:2026:4:17:F3 > F4N"); !ok || ply != 17 {
		t.Errorf("ply %d %t", ply, ok)
	}
}
