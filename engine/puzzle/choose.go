package puzzle

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Choose picks a puzzle for a solver rated rating: one of the near puzzles
// (the closest by starting rating among those done does not report as
// done), at random so that players of one rating do not all get the same
// one. It returns nil when every puzzle is done.
func Choose(ps []*Puzzle, rating float64, done func(id string) bool, rng *rand.Rand) *Puzzle {
	const near = 8
	type cand struct {
		p    *Puzzle
		dist float64
	}
	var cs []cand
	for _, p := range ps {
		if done != nil && done(p.ID) {
			continue
		}
		cs = append(cs, cand{p, math.Abs(float64(p.Rating) - rating)})
	}
	if len(cs) == 0 {
		return nil
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].dist < cs[b].dist })
	return cs[rng.IntN(min(near, len(cs)))].p
}
