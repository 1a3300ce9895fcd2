package games_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// randomPositions are n positions of r reached by uniformly random play
// from its variants' starts (seeded: the same positions every run).
func randomPositions(t *testing.T, r engine.Rules, n int) []engine.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(40, uint64(len(r.Name()))))
	var out []engine.Position
	for len(out) < n {
		vs := r.Variants()
		pos, err := r.Start(vs[rng.IntN(len(vs))].Name)
		if err != nil {
			t.Fatal(err)
		}
		for ply := rng.IntN(120); ply > 0; ply-- {
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				break
			}
			if pos, err = pos.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, pos)
	}
	return out
}

// Every game picks its own example move (engine.Exampler), and the example
// is a legal move of the position it is shown for: at every start and in
// 50 random positions of each game.
func TestExampleMoveIsLegal(t *testing.T) {
	for _, r := range games.All() {
		var ps []engine.Position
		for _, v := range r.Variants() {
			p, err := r.Start(v.Name)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		if _, ok := ps[0].(engine.Exampler); !ok {
			t.Errorf("%s: positions do not pick their example (engine.Exampler)", r.Name())
		}
		for i, pos := range append(ps, randomPositions(t, r, 50)...) {
			ex := engine.ExampleMove(pos)
			if len(pos.LegalMoves()) == 0 {
				if ex != "" {
					t.Errorf("%s #%d: example %q in a finished game", r.Name(), i, ex)
				}
				continue
			}
			m, err := pos.ParseMove(ex)
			if err != nil {
				t.Errorf("%s #%d %s: example %q is not a legal move: %v", r.Name(), i, pos.Encode(), ex, err)
				continue
			}
			if _, err := pos.Play(m); err != nil {
				t.Errorf("%s #%d %s: example %q refused: %v", r.Name(), i, pos.Encode(), ex, err)
			}
		}
	}
}

// A position's move number is the full move engine.MoveNumber gives for
// the plies played, in every game, so the images' headers (which have only
// the position) number moves as the messages, the viewer and the records.
func TestPositionMoveNumberIsFullMoves(t *testing.T) {
	for _, r := range games.All() {
		pos, err := r.Start("")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 5))
		for ply := 0; ply < 90; ply++ {
			n, ok := engine.PositionMoveNumber(pos)
			if !ok {
				t.Fatalf("%s: the position has no move number", r.Name())
			}
			if n != engine.MoveNumber(ply) {
				t.Fatalf("%s after %d plies: move %d, want %d (%s)", r.Name(), ply, n, engine.MoveNumber(ply), pos.Encode())
			}
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				break
			}
			if pos, err = pos.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
