package gungi

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// randomGame plays random legal moves from start for at most maxPly plies,
// preferring attacks now and then so that games reach mates.
func randomGame(t testing.TB, rng *rand.Rand, start *Position, maxPly int) (*engine.Game, []*Position) {
	t.Helper()
	g := engine.NewGame(start)
	seen := []*Position{start}
	for g.Ply() < maxPly && !g.Outcome().Over() {
		p := g.Position().(*Position)
		moves := p.legalMoves()
		if len(moves) == 0 {
			t.Fatalf("no moves but outcome not over: %s", p.Encode())
		}
		m := moves[rng.IntN(len(moves))]
		if p.InDraft() && rng.IntN(12) == 0 && p.marshal[p.turn] != NoSquare && p.isLegal(ReadyMove) {
			m = ReadyMove
		}
		if rng.IntN(3) == 0 {
			for _, c := range moves {
				if c.Kind == KindAttack {
					m = c
					break
				}
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("legal move %s refused in %s: %v", m, p.Encode(), err)
		}
		seen = append(seen, g.Position().(*Position))
	}
	return g, seen
}

// samplePositions collects positions from a few seeded random games, drafts
// and quick starts.
func samplePositions(t testing.TB, n int) []*Position {
	rng := rand.New(rand.NewPCG(7, 11))
	var out []*Position
	starts := []string{StartGFEN, quickGFEN}
	for i := 0; len(out) < n; i++ {
		g, seen := randomGame(t, rng, mustDecode(t, starts[i%2]), 160)
		_ = g
		for j := 0; j < len(seen) && len(out) < n; j += 1 + rng.IntN(15) {
			out = append(out, seen[j])
		}
	}
	return out
}

func TestRandomSelfPlayEndsAndReplays(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 24
	if testing.Short() {
		games = 6
		t.Log("long tier: 24 games")
	}
	ended := map[engine.Reason]int{}
	for i := range games {
		start := mustDecode(t, []string{StartGFEN, quickGFEN}[i%2])
		g, _ := randomGame(t, rng, start, 400)
		if o := g.Outcome(); o.Over() {
			ended[o.Reason]++
		}
		again, err := engine.Replay(start, g.Moves())
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		if again.Position().Encode() != g.Position().Encode() || again.Outcome() != g.Outcome() {
			t.Fatalf("replay differs: %s vs %s", again.Position().Encode(), g.Position().Encode())
		}
		// Round trip of the final position.
		back := mustDecode(t, g.Position().Encode())
		if back.Encode() != g.Position().Encode() {
			t.Fatalf("GFEN round trip: %s vs %s", back.Encode(), g.Position().Encode())
		}
	}
	t.Logf("endings: %v", ended)
}

func TestEveryMoveRoundTripsThroughNotation(t *testing.T) {
	for _, p := range samplePositions(t, 120) {
		for _, m := range p.legalMoves() {
			s := p.FormatMove(m)
			got, err := p.ParseMove(s)
			if err != nil {
				t.Fatalf("%s: parse %q: %v", p.Encode(), s, err)
			}
			if got != m {
				t.Fatalf("%s: %q parsed as %v, want %v", p.Encode(), s, got, m)
			}
			steps := m.Steps()
			if len(steps) == 0 {
				t.Fatalf("%s has no steps", s)
			}
		}
		// Every position round trips through GFEN and keeps its moves.
		back := mustDecode(t, p.Encode())
		if *back != *p {
			t.Fatalf("GFEN round trip changed %s", p.Encode())
		}
	}
}

func TestPlayRejectsArbitraryMoves(t *testing.T) {
	// Any Move value, however odd, gives a position or an *engine.Error,
	// never a panic; whatever Play accepts is a listed legal move.
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range samplePositions(t, 30) {
		legal := map[Move]bool{}
		for _, m := range p.legalMoves() {
			legal[m] = true
		}
		for range 300 {
			m := Move{MoveKind(rng.IntN(8)), Kind(rng.IntN(16)), Square(rng.IntN(84) - 2), Square(rng.IntN(84) - 2)}
			_, err := p.Play(m)
			if err == nil && !legal[m] && m.Kind != KindComplete {
				t.Fatalf("%s: Play accepted %+v", p.Encode(), m)
			}
			if err != nil && legal[m] {
				t.Fatalf("%s: Play refused legal %v: %v", p.Encode(), m, err)
			}
			if err != nil {
				var e *engine.Error
				if !errors.As(err, &e) || Messages[e.Code] == "" {
					t.Fatalf("error %v is not a listed *engine.Error", err)
				}
			}
		}
	}
}
