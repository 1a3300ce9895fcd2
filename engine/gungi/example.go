package gungi

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// ExampleMove is, in the draft, a placement ("M*a7"); in the game a plain
// board move ("Pe3-e4"), a pawn's when one can, else a drop or whatever
// is legal (engine.Exampler). "ready" is never the example: it ends a
// player's draft.
func (p *Position) ExampleMove() string {
	for _, want := range []func([]string, string) bool{
		func(_ []string, n string) bool { return strings.HasPrefix(n, "P") && strings.Contains(n, "-") },
		func(_ []string, n string) bool { return strings.Contains(n, "-") },
		func(_ []string, n string) bool { return strings.Contains(n, "*") },
		func(_ []string, n string) bool { return n != "ready" },
	} {
		if n := engine.FirstMove(p, want); n != "" {
			return n
		}
	}
	return ""
}
