package describe

import (
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// FuzzQueries feeds typed squares and kinds to the questions of every
// game: an answer or an error in words, never a panic.
func FuzzQueries(f *testing.F) {
	for _, s := range []string{"e4", "E16", "z99", "", "a", "a0", "p16", "i9", "HT", "knight", "Lt. General", "c", "1", "a-1", "ä4", "e４"} {
		f.Add(s)
	}
	var positions []engine.Position
	for _, r := range []engine.Rules{tank.Rules, camelot.Rules, gungi.Rules} {
		p, err := r.Start("")
		if err != nil {
			f.Fatal(err)
		}
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			for _, loc := range []string{"en", "th", "pt-BR"} {
				for _, q := range []func() (string, error){
					func() (string, error) { return Square(loc, p, s) },
					func() (string, error) { return Attackers(loc, p, s) },
					func() (string, error) { return Moves(loc, p, s) },
					func() (string, error) { return Where(loc, p, engine.Black, s) },
				} {
					out, err := q()
					if err == nil && out == "" || err != nil && err.Error() == "" {
						t.Fatalf("%q: empty answer (%v)", s, err)
					}
				}
			}
		}
	})
}
