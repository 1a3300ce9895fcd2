package puzzle

import (
	"errors"
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

// A puzzle an earlier collection shipped (here te43d4144, the daily puzzle
// of the database written by 441ce77) still resolves by id after the
// collection dropped it, and is never served anew.
func TestRetiredPuzzleStillResolves(t *testing.T) {
	const id = "te43d4144"
	ps, err := Shipped("tank")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.ID == id {
			t.Fatalf("%s is in the current collection: pick another retired id for this test", id)
		}
	}
	p, err := ShippedByID("tank", id)
	if err != nil {
		t.Fatalf("retired puzzle: %v", err)
	}
	if p.ID != id || len(p.Solution) == 0 {
		t.Fatalf("retired puzzle %+v", p)
	}
	if _, err := ShippedByID("tank", "tnotapuzzle"); !errors.Is(err, ErrNotShipped) {
		t.Fatalf("unknown id: %v, want ErrNotShipped", err)
	}
}
