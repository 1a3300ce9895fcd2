package camelot

import (
	"errors"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// A move from an empty square, or from the opponent's piece, gets the
// closest legal moves as "Did you mean", as in Tank Chess.
func TestWrongSquareSuggests(t *testing.T) {
	p, err := Rules.Start("start")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"E5-E6", "F11-F10"} {
		_, err := p.ParseMove(in)
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v", in, err)
		}
		if len(e.Alternatives) == 0 {
			t.Errorf("%s: %v, with no alternatives", in, err)
		}
		for _, a := range e.Alternatives {
			if _, err := p.ParseMove(a); err != nil {
				t.Errorf("%s: alternative %q is not legal: %v", in, a, err)
			}
		}
	}
}
