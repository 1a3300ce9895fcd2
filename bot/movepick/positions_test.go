package movepick

import (
	"math/rand/v2"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// named is a test position with a name for messages.
type named struct {
	name string
	pos  engine.Position
}

func start(t testing.TB, r engine.Rules, variant string) engine.Position {
	t.Helper()
	p, err := r.Start(variant)
	if err != nil {
		t.Fatalf("%s %s: %v", r.Name(), variant, err)
	}
	return p
}

// playout plays plies random legal moves from p (seeded, so the same
// positions every run) and returns the position among them that scores
// highest, skipping finished ones.
func playout(t testing.TB, p engine.Position, seed uint64, plies int, score func(engine.Position) int) engine.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	best, bestScore := p, score(p)
	for range plies {
		ms := p.LegalMoves()
		if len(ms) == 0 {
			break
		}
		q, err := p.Play(ms[rng.IntN(len(ms))])
		if err != nil {
			t.Fatalf("playout: %v", err)
		}
		if q.Status().Over() {
			break
		}
		p = q
		if s := score(p); s > bestScore {
			best, bestScore = p, s
		}
	}
	return best
}

func moveCount(p engine.Position) int { return len(p.LegalMoves()) }

// captures counts Camelot captures (the longer the chains, the more routes
// the picker has to offer).
func captures(p engine.Position) int {
	n := 0
	for _, m := range p.LegalMoves() {
		if c, ok := m.(camelot.Move); ok && c.IsCapture() {
			n += len(c.Route())
		}
	}
	return n
}

// drops scores Gungi positions by their drops and stacks besides their
// number of moves.
func drops(p engine.Position) int {
	n := 0
	for _, m := range p.LegalMoves() {
		if g, ok := m.(gungi.Move); ok && (g.Kind == gungi.KindDrop || g.Kind == gungi.KindStack || g.Kind == gungi.KindAttack) {
			n += 2
		}
		n++
	}
	return n
}

var tankMid, camelotMid, gungiMid, gungiDraftMid engine.Position

// positions are the real positions every test walks: start positions and
// midgames reached by seeded random play.
func positions(t testing.TB) []named {
	t.Helper()
	if tankMid == nil {
		// The midgames are built once: random playouts cost a little.
		tankMid = playout(t, start(t, tank.Rules, "basic20"), 7, 30, moveCount)
		camelotMid = playout(t, start(t, camelot.Rules, "start"), 3, 60, captures)
		gungiMid = playout(t, start(t, gungi.Rules, "quick"), 5, 40, drops)
		gungiDraftMid = playout(t, start(t, gungi.Rules, "draft"), 9, 14, moveCount)
	}
	return []named{
		{"tank basic16 start", start(t, tank.Rules, "basic16")},
		{"tank basic20 start", start(t, tank.Rules, "basic20")},
		{"tank basic16 midgame", playout(t, start(t, tank.Rules, "basic16"), 11, 24, moveCount)},
		{"tank basic20 midgame", tankMid},
		{"camelot start", start(t, camelot.Rules, "start")},
		{"camelot capture midgame", camelotMid},
		{"gungi draft start", start(t, gungi.Rules, "draft")},
		{"gungi draft midgame", gungiDraftMid},
		{"gungi quick start", start(t, gungi.Rules, "quick")},
		{"gungi midgame with drops", gungiMid},
	}
}
