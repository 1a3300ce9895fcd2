package camelot

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// ExampleMove is a plain one-square move, as "F6-F5" (engine.Exampler);
// when a capture is compulsory, the first capture.
func (p *Position) ExampleMove() string {
	if n := engine.FirstMove(p, func(_ []string, n string) bool { return !strings.ContainsAny(n, "x^") }); n != "" {
		return n
	}
	return engine.FirstMove(p, func([]string, string) bool { return true })
}
