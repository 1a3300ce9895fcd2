package puzzle

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// near is how many of the closest puzzles the chooser draws from, so that
// players of one rating do not all get the same one.
const near = 8

// Want is what a player asks the chooser for.
type Want struct {
	Rating float64 // the player's puzzle rating
	// Theme, when set, keeps only the puzzles tagged with it.
	Theme string
	// Done reports a puzzle the player has tried (nil: none).
	Done func(id string) bool
	// Current is a puzzle's rating now (Glicko-2 from its attempts), when
	// it has one; without it the puzzle's starting rating counts.
	Current func(id string) (float64, bool)
}

// Pick chooses a puzzle for w: one of the near ones (closest by current
// rating) among those with the theme and not done, at random. It returns
// nil when none is left.
func Pick(ps []*Puzzle, w Want, rng *rand.Rand) *Puzzle {
	type cand struct {
		p    *Puzzle
		dist float64
	}
	var cs []cand
	for _, p := range ps {
		if w.Done != nil && w.Done(p.ID) {
			continue
		}
		if w.Theme != "" && !slices.Contains(p.Themes, w.Theme) {
			continue
		}
		r := float64(p.Rating)
		if w.Current != nil {
			if c, ok := w.Current(p.ID); ok {
				r = c
			}
		}
		cs = append(cs, cand{p, math.Abs(r - w.Rating)})
	}
	if len(cs) == 0 {
		return nil
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].dist < cs[b].dist })
	return cs[rng.IntN(min(near, len(cs)))].p
}

// Choose picks a puzzle for a solver rated rating by starting rating, any
// theme (Pick without a theme or current ratings).
func Choose(ps []*Puzzle, rating float64, done func(id string) bool, rng *rand.Rand) *Puzzle {
	return Pick(ps, Want{Rating: rating, Done: done}, rng)
}

// ThemeCount is a theme and how many puzzles carry it.
type ThemeCount struct {
	Theme string
	N     int
}

// Themes lists the themes of ps with their counts, most common first
// (ties by name): what a player may choose from.
func Themes(ps []*Puzzle) []ThemeCount {
	n := map[string]int{}
	for _, p := range ps {
		for _, t := range p.Themes {
			n[t]++
		}
	}
	out := make([]ThemeCount, 0, len(n))
	for t, c := range n {
		out = append(out, ThemeCount{t, c})
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].N != out[b].N {
			return out[a].N > out[b].N
		}
		return out[a].Theme < out[b].Theme
	})
	return out
}
