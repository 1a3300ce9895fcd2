package puzzle

import (
	"context"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
)

// Strong self-play: the levels of game k, the same game from the same
// seed (node budgets decide, not a clock), and visit stopping it early.
func TestAISelfPlay(t *testing.T) {
	if w, b := AILevels(0); w != 4 || b != 3 {
		t.Errorf("game 0: levels %d-%d", w, b)
	}
	if w, b := AILevels(7); w != 3+(7/2)%3 || b != 5 {
		t.Errorf("game 7: levels %d-%d", w, b)
	}
	if testing.Short() {
		t.Skip("long tier: plays engine/ai")
	}
	ctx := context.Background()
	a, err := AISelfPlay(ctx, camelot.Rules, 9, 1, 6)
	if err != nil {
		t.Fatal(err)
	}
	b, err := AISelfPlay(ctx, camelot.Rules, 9, 1, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Positions) != 6 || len(a.Scores) != 6 || len(b.Positions) != 6 {
		t.Fatalf("%d and %d positions", len(a.Positions), len(b.Positions))
	}
	for i := range a.Positions {
		if a.Positions[i].Encode() != b.Positions[i].Encode() || a.Plies[i] != i {
			t.Fatalf("ply %d differs", i)
		}
	}
	n := 0
	c, err := AISelfPlayFunc(ctx, camelot.Rules, 9, 1, 6, func(ply int, pos engine.Position, score int) bool {
		n++
		return ply < 2
	})
	if err != nil || n != 3 || len(c.Positions) != 3 || c.Positions[2].Encode() != a.Positions[2].Encode() {
		t.Fatalf("stopped game: %d visits, %v", n, err)
	}
}
