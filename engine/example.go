package engine

// Exampler is implemented by positions that pick the move shown to a
// player as "for example": a legal move of the position, of the kind a
// newcomer most needs to see written (a plain move rather than a capture
// or a spin), in the notation ParseMove reads.
type Exampler interface {
	ExampleMove() string
}

// ExampleMove is a legal move of pos written as a player types it: the
// game's own pick (Exampler), else the first legal move; "" when the game
// is over. Every "e.g." the bot and the console show comes from it, so an
// example is always playable where it is shown.
func ExampleMove(pos Position) string {
	if e, ok := pos.(Exampler); ok {
		if s := e.ExampleMove(); s != "" {
			return s
		}
	}
	if ms := pos.LegalMoves(); len(ms) > 0 {
		return pos.FormatMove(ms[0])
	}
	return ""
}

// FirstMove is the notation of the first of pos's legal moves that want
// accepts (its Steps and notation), or "": the games' Exampler helper.
func FirstMove(pos Position, want func(steps []string, notation string) bool) string {
	for _, m := range pos.LegalMoves() {
		if n := pos.FormatMove(m); want(m.Steps(), n) {
			return n
		}
	}
	return ""
}
