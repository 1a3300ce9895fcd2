package camelot

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// checkNotation round-trips every legal move of p through its notation, the
// short form and the picker steps.
func checkNotation(t *testing.T, p *Position) {
	t.Helper()
	legal := p.legal()
	for _, m := range legal {
		s := p.FormatMove(m)
		back, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: ParseMove(%q): %v", p.Encode(), s, err)
		}
		if !back.(Move).sameAs(m) || p.FormatMove(back) != s {
			t.Fatalf("%s: %q parsed to %q", p.Encode(), s, p.FormatMove(back))
		}
		st := m.Steps()
		if len(st) != 3 || st[0] != m.From() || st[1] != m.To() || st[2] != s {
			t.Fatalf("steps of %s = %v", s, st)
		}
		sep := "-"
		if m.IsCapture() {
			sep = "x"
		}
		short := m.From() + sep + m.To()
		back, err = p.ParseMove(short)
		var e *engine.Error
		switch {
		case err == nil && !back.(Move).sameAs(m):
			t.Fatalf("%s: short %q gave %s, not %s", p.Encode(), short, back, s)
		case err != nil && (!errors.As(err, &e) || e.Code != codeAmbiguous):
			t.Fatalf("%s: short %q: %v", p.Encode(), short, err)
		}
	}
}

func checkCFEN(t *testing.T, p *Position) {
	t.Helper()
	q, err := Rules.Decode(p.Encode())
	if err != nil {
		t.Fatalf("Decode(%q): %v", p.Encode(), err)
	}
	if *q.(*Position) != *p {
		t.Fatalf("CFEN round trip changed %q into %q", p.Encode(), q.Encode())
	}
}

// randomGame plays random legal moves from the start until the game ends or
// maxPly moves were played; every check-th position is fully round-tripped.
func randomGame(t *testing.T, rng *rand.Rand, maxPly, check int) *engine.Game {
	t.Helper()
	g := engine.NewGame(start(t))
	for ply := 0; ply < maxPly && !g.Outcome().Over(); ply++ {
		p := g.Position().(*Position)
		checkCFEN(t, p)
		if check > 0 && ply%check == 0 {
			checkNotation(t, p)
		}
		ms := p.LegalMoves()
		if len(ms) == 0 {
			t.Fatalf("%s: no moves but outcome %v", p.Encode(), g.Outcome())
		}
		if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestSelfPlayEndsAndReplays(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const games, maxPly = 16, 600
	ended := 0
	reasons := map[engine.Reason]int{}
	for i := 0; i < games; i++ {
		g := randomGame(t, rng, maxPly, 9)
		if o := g.Outcome(); o.Over() {
			ended++
			reasons[o.Reason]++
		}
		r, err := engine.Replay(start(t), g.Moves())
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if r.Position().Encode() != g.Position().Encode() || r.Outcome() != g.Outcome() {
			t.Fatalf("game %d replays to %s %v, played %s %v", i, r.Position().Encode(), r.Outcome(), g.Position().Encode(), g.Outcome())
		}
	}
	t.Logf("%d/%d random games ended within %d plies: %v", ended, games, maxPly, reasons)
	if ended == 0 {
		t.Error("no random game ended")
	}
}

func TestStartAndVariants(t *testing.T) {
	if Rules.Name() != "camelot" || len(Rules.Variants()) != 1 || Rules.Variants()[0].Name != "start" {
		t.Fatalf("variants %v", Rules.Variants())
	}
	p, err := Rules.Start("start")
	if err != nil || p.Encode() != StartCFEN || p.Turn() != engine.White {
		t.Fatalf("start: %v %v", p, err)
	}
	if _, err := Rules.Start("nope"); err == nil {
		t.Error("unknown variant accepted")
	}
	sp := p.(*Position)
	if sp.count(engine.White) != 14 || sp.count(engine.Black) != 14 || sp.At("C6") != 'K' || sp.At("e10") != 'm' || sp.At("A1") != 0 {
		t.Error("start position pieces wrong")
	}
	sqs := Squares()
	if len(sqs) != 160 || sqs[0] != "F1" || sqs[1] != "G1" || sqs[159] != "G16" {
		t.Errorf("board squares %d: %v", len(sqs), sqs)
	}
	for _, s := range sqs {
		if sq, n, ok := parseSquare(s); !ok || sq == noSq || n != len(s) || squareName(sq) != s {
			t.Errorf("square %s does not round-trip", s)
		}
	}
}
