package tank

import "github.com/tankbot/tankbot/engine"

// ExampleMove is a move to another square with no shot, as "C3 > C5N"
// (engine.Exampler); else whatever is legal (a spin, a shot, an escape).
func (p *Position) ExampleMove() string {
	plain := func(s []string, _ string) bool { return s[1] != s[0] && s[1] != "OFF" && s[3] == "" }
	if n := engine.FirstMove(p, plain); n != "" {
		return n
	}
	return engine.FirstMove(p, func([]string, string) bool { return true })
}
