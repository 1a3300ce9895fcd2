package gungi

import "github.com/tankbot/tankbot/engine"

// MoveNumber is the full move of the position (engine.Numbered): the turn
// count is one per action, so the actions played so far are number-1.
func (p *Position) MoveNumber() int { return engine.MoveNumber(p.number - 1) }
