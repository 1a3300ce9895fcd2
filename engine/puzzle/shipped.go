package puzzle

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/tankbot/tankbot/engine/games"
)

// The shipped collection: one file per game, made by
// `tankbot puzzles generate` (the first line records the command and seed;
// docs/puzzles.md says how to make them again).
//
//go:embed data/*.tsv data/retired/*.tsv
var data embed.FS

var (
	shippedOnce sync.Once
	shipped     map[string][]*Puzzle
	shippedErr  error
)

// Games lists the games with a shipped collection: the game registry's
// (engine/games, in its order) that have a data/<game>.tsv. A new game
// joins when its file is added; there is no list of games here.
var Games = shippedGames()

func shippedGames() []string {
	var out []string
	for _, g := range games.Names() {
		if _, err := fs.Stat(data, "data/"+g+".tsv"); err == nil {
			out = append(out, g)
		}
	}
	return out
}

// Shipped returns the shipped puzzles of a game, in file order. The slice
// and its puzzles are shared: callers must not change them.
func Shipped(game string) ([]*Puzzle, error) {
	shippedOnce.Do(func() {
		shipped = map[string][]*Puzzle{}
		for _, g := range Games {
			b, err := data.ReadFile("data/" + g + ".tsv")
			if err != nil {
				shippedErr = err
				return
			}
			ps, err := ParseFile(g, string(b))
			if err != nil {
				shippedErr = fmt.Errorf("data/%s.tsv: %w", g, err)
				return
			}
			shipped[g] = ps
		}
	})
	if shippedErr != nil {
		return nil, shippedErr
	}
	ps, ok := shipped[game]
	if !ok {
		return nil, fmt.Errorf("puzzle: no collection for game %q", game)
	}
	return ps, nil
}

// ErrNotShipped says a puzzle id is not in its game's shipped collection.
var ErrNotShipped = errors.New("puzzle: not in the shipped collection")

// ShippedByID returns the shipped puzzle id of game (shared, as Shipped's).
// A puzzle an earlier collection shipped and the current one dropped
// (data/retired) is still found, so that a player's unfinished puzzle and
// a daily puzzle already posted keep working after an upgrade; it is
// never served anew.
func ShippedByID(game, id string) (*Puzzle, error) {
	ps, err := Shipped(game)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.ID == id {
			return p, nil
		}
	}
	rs, err := retiredPuzzles(game)
	if err != nil {
		return nil, err
	}
	for _, p := range rs {
		if p.ID == id {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%w: %s puzzle %q", ErrNotShipped, game, id)
}

var (
	retiredOnce sync.Once
	retired     map[string][]*Puzzle
	retiredErr  error
)

// retiredPuzzles are the puzzles of game that earlier collections shipped
// and the current one no longer does (none for a game without a file).
func retiredPuzzles(game string) ([]*Puzzle, error) {
	retiredOnce.Do(func() {
		retired = map[string][]*Puzzle{}
		for _, g := range Games {
			b, err := data.ReadFile("data/retired/" + g + ".tsv")
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				retiredErr = err
				return
			}
			ps, err := ParseFile(g, string(b))
			if err != nil {
				retiredErr = fmt.Errorf("data/retired/%s.tsv: %w", g, err)
				return
			}
			retired[g] = ps
		}
	})
	return retired[game], retiredErr
}
