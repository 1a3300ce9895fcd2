package bot

import (
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// The games the bot plays, by name.

// lookupGame finds a game's rules by name.
func lookupGame(name string) (engine.Rules, bool) {
	r, err := games.Lookup(name)
	return r, err == nil
}

func gameNames() []string { return games.Names() }

// MoveExample is a move or two in the game's notation, for the move form and
// the console's banner; unknown games get Tank Chess's.
func MoveExample(game string) string {
	if ex, ok := moveExamples[game]; ok {
		return ex
	}
	return moveExamples["tank"]
}

var moveExamples = map[string]string{"tank": "e3 > e5n", "camelot": "F5-F6, E8xE10", "gungi": "Pe3-e4, P*e5"}
