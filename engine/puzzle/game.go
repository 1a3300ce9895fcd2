package puzzle

import (
	"context"
	"fmt"

	"github.com/tankbot/tankbot/engine"
)

// GamePositions replays a game's moves (in notation) from start through the
// engine and returns its ongoing positions in order, the start first: the
// positions of a real game a puzzle may be found in (the final position,
// when the game is over, is left out).
func GamePositions(start engine.Position, notes []string) ([]engine.Position, error) {
	var out []engine.Position
	pos := start
	for i := 0; ; i++ {
		if !pos.Status().Over() {
			out = append(out, pos)
		}
		if i == len(notes) {
			return out, nil
		}
		m, err := pos.ParseMove(notes[i])
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, notes[i], err)
		}
		if pos, err = pos.Play(m); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, notes[i], err)
		}
	}
}

// MineGame looks for puzzles in the positions of one game with Accept (the
// proof and the deeper verification of the shipped collection), refuses
// trivial ones (Trivial), rates the others by the difficulty ladder, and
// returns each found once, its Source set to source and the ply
// ("game:g1#12:34"); skip leaves out known ids (the shipped ones). It
// stops with ctx's error between two positions.
func MineGame(ctx context.Context, ps []engine.Position, set Settings, source string, skip func(id string) bool) ([]*Puzzle, error) {
	var out []*Puzzle
	seen := map[string]bool{}
	for ply, pos := range ps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pz, err := Accept(pos, set)
		if err != nil || seen[pz.ID] || skip != nil && skip(pz.ID) {
			continue
		}
		// The shipped collection's rules: no trivial puzzle, and the
		// starting rating from the difficulty ladder.
		if why, err := Trivial(pz); err != nil || len(why) > 0 {
			continue
		}
		if _, rt, err := Measure(ctx, pz); err == nil {
			pz.Rating, pz.Difficulty = rt, DifficultyOfRating(rt)
		}
		seen[pz.ID] = true
		pz.Source = fmt.Sprintf("%s:%d", source, ply)
		out = append(out, pz)
	}
	return out, nil
}
