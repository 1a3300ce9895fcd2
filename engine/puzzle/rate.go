package puzzle

import (
	"context"
	"fmt"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
)

// Solves reports whether the ai with lim solves pz as a player must: at
// each solver turn it plays the solution's move (on the last one, any
// move that wins at once), the defender answering with the solution's
// replies. lim.MoveTime should not decide (the node budget then does, and
// the answer is the same on every machine).
func Solves(ctx context.Context, pz *Puzzle, lim ai.Limits) (bool, error) {
	pos, err := pz.Decode()
	if err != nil {
		return false, err
	}
	me := pos.Turn()
	for k := 0; k < len(pz.Solution); k += 2 {
		lim.NoPlan = true
		res, err := ai.Think(ctx, pos, lim)
		if err != nil {
			return false, fmt.Errorf("puzzle %s: %w", pz.ID, err)
		}
		if k == len(pz.Solution)-1 {
			next, err := pos.Play(res.Move)
			if err != nil {
				return false, err
			}
			w, ok := next.Status().Winner()
			return next.Status().Over() && ok && w == me, nil
		}
		want, err := pos.ParseMove(pz.Solution[k])
		if err != nil {
			return false, err
		}
		if pos.FormatMove(want) != res.Notation {
			return false, nil
		}
		for _, note := range pz.Solution[k : k+2] {
			m, err := pos.ParseMove(note)
			if err != nil {
				return false, err
			}
			if pos, err = pos.Play(m); err != nil {
				return false, err
			}
		}
	}
	return false, fmt.Errorf("puzzle %s: the solution does not end on a solver move", pz.ID)
}

// Rung is one step of the difficulty ladder: a noise-free ai search to
// at most Depth plies within Nodes positions (scaled per game like the
// levels' budgets, ai.ScaleNodes).
type Rung struct {
	Depth int
	Nodes int64
}

// Ladder is the difficulty ladder, weakest search first. A puzzle's
// difficulty step is the first rung that solves it; its starting rating
// is RatingFloor + RatingStep × step, and a puzzle no rung solves gets the
// step past the last. The first rung sees every win in one; the next
// ones search two plies with a growing node budget (the budget binds
// only after the first ply, so it decides how far down the one-ply
// ranking of the moves the second ply gets: a key move a shallow look
// ranks low is harder to find), then the depth grows, then the nodes.
var Ladder = []Rung{
	{1, 100_000},
	{2, 100}, {2, 200}, {2, 300}, {2, 400}, {2, 600}, {2, 1_000}, {2, 2_000},
	{3, 2_000}, {3, 20_000}, {4, 20_000}, {5, 60_000}, {63, 150_000}, {63, 400_000},
}

const (
	RatingFloor = 900
	RatingStep  = 200
)

// Measure returns the puzzle's difficulty step on the ladder (0 ..
// len(LadderNodes)) and the starting rating it gives.
func Measure(ctx context.Context, pz *Puzzle) (step, rating int, err error) {
	pos, err := pz.Decode()
	if err != nil {
		return 0, 0, err
	}
	for i, rg := range Ladder {
		ok, err := Solves(ctx, pz, LadderLimits(pos, rg))
		if err != nil {
			return 0, 0, err
		}
		if ok {
			return i, RatingOfStep(i), nil
		}
	}
	return len(Ladder), RatingOfStep(len(Ladder)), nil
}

// LadderLimits are the ai limits of a rung in pos's game.
func LadderLimits(pos engine.Position, rg Rung) ai.Limits {
	return ai.Limits{Level: 5, Nodes: ai.ScaleNodes(pos, rg.Nodes), MaxDepth: rg.Depth, Noise: -1, MoveTime: time.Hour, Seed: 1}
}

// RatingOfStep is the starting rating of a ladder step.
func RatingOfStep(step int) int { return RatingFloor + RatingStep*step }

// DifficultyOfRating maps a starting rating to the 1..5 difficulty shown
// with it: 900 → 1, 1100–1300 → 2, 1500–1700 → 3, 1900–2100 → 4, 2300
// and up → 5.
func DifficultyOfRating(rating int) int {
	return max(1, min(5, 1+(rating-RatingFloor+RatingStep)/(2*RatingStep)))
}
