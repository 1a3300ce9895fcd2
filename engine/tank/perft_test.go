package tank

import (
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// Regression fixtures. Each is checked below against the slow reference
// generator of reference_test.go, so the numbers are not just whatever the
// fast generator once printed. perft(3) of basic16 (163704167) is too slow
// for the reference and is covered by BenchmarkPerft3Basic16 and
// docs/tankchess.md.
var perftFixtures = []struct {
	pos   string
	depth int
	want  uint64
}{
	{"basic16", 1, 549},
	{"basic16", 2, 301878},
	{"basic20", 1, 750},
	{"basic20", 2, 563736},
}

func TestPerftFixtures(t *testing.T) {
	for _, fx := range perftFixtures {
		p, err := StartPosition(fx.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Perft(fx.depth); got != fx.want {
			t.Errorf("perft(%d) %s = %d, want %d", fx.depth, fx.pos, got, fx.want)
		}
	}
}

func TestStartMovesMatchReference(t *testing.T) {
	for _, name := range []string{"basic16", "basic20"} {
		p, _ := StartPosition(name)
		sameSet(t, name, notations(p), refNotations(refFrom(p)))
	}
}

// TestDivideSumsToPerft checks the perft(1) and perft(2) fixtures against
// the reference generator, and that divide (through Play, not make/unmake)
// adds up to perft and that every root move's count matches the reference
// generator's own count below it.
func TestDivideSumsToPerft(t *testing.T) {
	for _, name := range []string{"basic16", "basic20"} {
		p, _ := StartPosition(name)
		div, err := engine.Divide(p, 2)
		if err != nil {
			t.Fatal(err)
		}
		var sum uint64
		for _, n := range div {
			sum += n
		}
		if want := p.Perft(2); sum != want {
			t.Errorf("%s: divide sums to %d, perft(2) = %d", name, sum, want)
		}
		if len(div) != int(p.Perft(1)) {
			t.Errorf("%s: divide has %d moves, perft(1) = %d", name, len(div), p.Perft(1))
		}
		// The reference's own perft(2), move by move: this is what
		// justifies the perft(2) fixtures.
		ref := refFrom(p)
		var refSum uint64
		for _, m := range ref.moves() {
			want := uint64(len(ref.play(m).moves()))
			refSum += want
			if got := div[m.String()]; got != want {
				t.Errorf("%s: divide %s = %d, reference %d", name, m, got, want)
			}
		}
		if refSum != sum {
			t.Errorf("%s: reference perft(2) = %d, engine %d", name, refSum, sum)
		}
	}
}

func TestPerftFinishedGame(t *testing.T) {
	p := mustParse(t, build(8, "w", "a1=Cn", "h8=xcs"))
	if n := p.Perft(1); n != 0 {
		t.Errorf("perft(1) of a finished game = %d, want 0", n)
	}
	if n := p.Perft(0); n != 1 {
		t.Errorf("perft(0) = %d, want 1", n)
	}
}

// TestSmallPerftMatchesReference compares perft(3) (make/unmake, bulk
// counting, wrecks and game ends below the root) with the reference on
// small boards holding every piece type.
func TestSmallPerftMatchesReference(t *testing.T) {
	for _, c := range []struct {
		tfen  string
		depth int
	}{
		{build(8, "w", "a1=Cn", "h8=cs", "d4=Rn", "e5=ds", "c6=#", "f3=xLn"), 2},
		{build(8, "b", "b2=Hne", "g7=msw", "d1=Cn", "e8=cs", "d5=#", "c3=lse"), 2},
		{build(8, "w", "a7=Cn", "h2=cs", "g3=rs", "c5=#", "f6=#"), 3},
	} {
		p := mustParse(t, c.tfen)
		if got, want := p.Perft(c.depth), refFrom(p).perft(c.depth); got != want {
			t.Errorf("%s: perft(%d) = %d, reference %d", c.tfen, c.depth, got, want)
		}
	}
}

// TestConcurrentUse runs the read-only API on one position from several
// goroutines (run with -race): positions are immutable and share nothing
// mutable but the scratch free list.
func TestConcurrentUse(t *testing.T) {
	p, _ := StartPosition("basic20")
	want := p.Perft(2)
	done := make(chan uint64)
	for i := 0; i < 4; i++ {
		go func() {
			_ = p.Announce()
			if len(p.Moves()) != 750 {
				done <- 0
				return
			}
			done <- p.Perft(2)
		}()
	}
	for i := 0; i < 4; i++ {
		if got := <-done; got != want {
			t.Errorf("concurrent perft(2) = %d, want %d", got, want)
		}
	}
}
