package tank

import (
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// The image header shows the position's own counter; it must agree with
// engine.MoveNumber, which the footer, /games and records use.
func TestMoveNumberMatchesEngine(t *testing.T) {
	p, err := Rules.Start("basic16")
	if err != nil {
		t.Fatal(err)
	}
	for ply := 0; ply < 40; ply++ {
		tp := p.(*Position)
		if got, want := tp.MoveNumber(), engine.MoveNumber(ply); got != want {
			t.Fatalf("after %d plies: position says move %d, engine.MoveNumber %d", ply, got, want)
		}
		ms := p.LegalMoves()
		if len(ms) == 0 {
			break
		}
		if p, err = p.Play(ms[ply%len(ms)]); err != nil {
			t.Fatal(err)
		}
	}
	for ply, want := range map[int]int{0: 1, 1: 1, 2: 2, 107: 54, 108: 55} {
		if got := engine.MoveNumber(ply); got != want {
			t.Errorf("MoveNumber(%d) = %d, want %d", ply, got, want)
		}
	}
}
