package camelot

// MoveNumber is the full move of the position, as its CFEN counts it
// (engine.Numbered): 1 at the start, +1 after each Black move.
func (p *Position) MoveNumber() int { return p.moveNum }
