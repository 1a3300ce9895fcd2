package puzzle

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// Pick keeps the theme asked for, prefers a puzzle's current rating to
// its starting one, skips the done ones and gives nil when none is left.
func TestPickThemeAndCurrentRating(t *testing.T) {
	var ps []*Puzzle
	for k := range 40 {
		th := []string{"checkmate"}
		if k%4 == 0 {
			th = append(th, "drop-mate")
		}
		ps = append(ps, &Puzzle{ID: string(rune('A' + k)), Rating: 900 + 50*k, Themes: th})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		p := Pick(ps, Want{Rating: 1500, Theme: "drop-mate"}, rng)
		if p == nil || !slices.Contains(p.Themes, "drop-mate") {
			t.Fatalf("picked %v for the drop-mate theme", p)
		}
	}
	// Every puzzle's current rating is far from 1500 except one's.
	cur := func(id string) (float64, bool) {
		if id == "B" {
			return 1500, true
		}
		return 3000, true
	}
	for range 20 {
		if p := Pick(ps[:8], Want{Rating: 1500, Current: cur}, rng); p == nil || p.ID != "B" && p.ID > "H" {
			t.Fatalf("picked %v", p)
		}
	}
	first := map[string]bool{}
	for range 40 {
		first[Pick(ps, Want{Rating: 1500, Current: cur}, rng).ID] = true
	}
	if !first["B"] {
		t.Errorf("the puzzle whose current rating is 1500 was never picked: %v", first)
	}
	if p := Pick(ps, Want{Rating: 1500, Theme: "stack-mate"}, rng); p != nil {
		t.Errorf("picked %v for a theme no puzzle has", p)
	}
	if p := Pick(ps, Want{Rating: 1500, Done: func(string) bool { return true }}, rng); p != nil {
		t.Errorf("picked %v when all are done", p)
	}
	ts := Themes(ps)
	if len(ts) != 2 || ts[0] != (ThemeCount{"checkmate", 40}) || ts[1] != (ThemeCount{"drop-mate", 10}) {
		t.Errorf("themes %v", ts)
	}
}

// The themes of known positions: a Gungi stack mate from a tower's
// second tier, a Camelot win in two where the defender must capture.
func TestThemesOfKnownPuzzles(t *testing.T) {
	ps := testPuzzles(t)
	want := map[string][]string{
		"ga7faa460": {"checkmate", "stack", "stack-mate"},
		"c1d5271fa": {"forced-capture", "quiet", "sacrifice"},
		"te63a6712": {"clt-destroyed"},
	}
	for id, w := range want {
		pz := *ps[id]
		if err := describe(&pz, false); err != nil {
			t.Fatal(err)
		}
		for _, th := range w {
			if !slices.Contains(pz.Themes, th) {
				t.Errorf("%s: themes %v lack %s", id, pz.Themes, th)
			}
		}
	}
}

// A win in one is found by the weakest rung of the ladder (the ai always
// completes its first iteration); a wrong move does not solve.
func TestMeasureWinInOne(t *testing.T) {
	pz := testPuzzles(t)["ga7faa460"]
	step, rt, err := Measure(context.Background(), pz)
	if err != nil || step != 0 || rt != RatingFloor {
		t.Fatalf("measure: step %d rating %d, %v", step, rt, err)
	}
	if DifficultyOfRating(rt) != 1 || DifficultyOfRating(RatingOfStep(len(Ladder))) != 5 {
		t.Errorf("difficulties %d, %d", DifficultyOfRating(rt), DifficultyOfRating(RatingOfStep(len(Ladder))))
	}
	two := *testPuzzles(t)["c1d5271fa"]
	ok, err := Solves(context.Background(), &two, LadderLimits(mustDecode(t, &two), Ladder[len(Ladder)-1]))
	if err != nil || !ok {
		t.Fatalf("the strongest rung does not solve a win in two: %t, %v", ok, err)
	}
}

func mustDecode(t *testing.T, pz *Puzzle) engine.Position {
	t.Helper()
	pos, err := pz.Decode()
	if err != nil {
		t.Fatal(err)
	}
	return pos
}
