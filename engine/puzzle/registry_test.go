package puzzle

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/games"
)

// The shipped collections follow the game registry: every file is a
// registered game's, and every registered game with a file is listed.
func TestShippedGamesAreTheRegistrys(t *testing.T) {
	files, err := fs.Glob(data, "data/*.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		g := strings.TrimSuffix(strings.TrimPrefix(f, "data/"), ".tsv")
		if _, err := games.Lookup(g); err != nil {
			t.Errorf("%s: not a game of engine/games", f)
		}
		if !slices.Contains(Games, g) {
			t.Errorf("%s: its game is not in Games %v", f, Games)
		}
	}
	if len(Games) != len(files) || len(Games) == 0 {
		t.Errorf("Games %v, files %v", Games, files)
	}
}
