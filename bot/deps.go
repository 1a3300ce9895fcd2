package bot

import (
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/imaging"
)

// lookupGame finds a game's rules by name.
func lookupGame(name string) (engine.Rules, bool) {
	r, err := games.Lookup(name)
	return r, err == nil
}

func gameNames() []string { return games.Names() }

// renderPNG draws pos through the imaging package.
func renderPNG(pos engine.Position, last engine.Move, flip bool) ([]byte, error) {
	return imaging.Render(pos, imaging.Options{Last: last, Flip: flip})
}
