package puzzle

import (
	"context"
	"fmt"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
)

// AIGame is one game of strong self-play: the levels of its two players
// and its positions.
type AIGame struct {
	White, Black int // AI levels (engine/ai)
	// Positions are the ongoing positions past any draft, in order; Plies
	// holds each one's ply in the game (the draft counted).
	Positions []engine.Position
	Plies     []int
	// Scores are the mover's search scores in each position (engine/ai:
	// ai.WinScore-n for a win it saw n plies away).
	Scores []int
}

// AILevels gives the players of game k of a strong self-play run: a
// strong side of level 4 or 5 against a side of level 3, 4 or 5, the
// strong side White in half of the games. Weaker opponents blunder into
// the tactics puzzles are made of; equal ones give long, balanced games.
func AILevels(k int) (white, black int) {
	strong := 4 + k%2
	weak := 3 + (k/2)%3
	if (k/6)%2 == 1 {
		return weak, strong
	}
	return strong, weak
}

// AISelfPlay plays game k of the strong self-play run seed in game r:
// both sides are engine/ai at the levels AILevels gives, their node
// budgets (not a clock) deciding every move, so that the same seed gives
// the same game on every machine at any load. It stops after maxPlies
// plies or when the game ends.
func AISelfPlay(ctx context.Context, r engine.Rules, seed int64, k, maxPlies int) (*AIGame, error) {
	return AISelfPlayFunc(ctx, r, seed, k, maxPlies, nil)
}

// AISelfPlayFunc is AISelfPlay calling visit with each position past the
// draft as soon as its mover has searched it (its index in the game's
// lists, the position, the mover's score); the game stops early when
// visit returns false. The moves do not depend on visit.
func AISelfPlayFunc(ctx context.Context, r engine.Rules, seed int64, k, maxPlies int, visit func(ply int, pos engine.Position, score int) bool) (*AIGame, error) {
	vs := r.Variants()
	v := vs[k%len(vs)]
	pos, err := r.Start(v.Name)
	if err != nil {
		return nil, err
	}
	g := &AIGame{}
	g.White, g.Black = AILevels(k)
	_, rep := pos.(engine.Repeatable)
	var history []engine.Position
	for ply := 0; ply < maxPlies && !pos.Status().Over(); ply++ {
		if d, ok := pos.(drafter); !ok || !d.InDraft() {
			g.Positions = append(g.Positions, pos)
			g.Plies = append(g.Plies, ply)
		}
		lvl := g.White
		if pos.Turn() == engine.Black {
			lvl = g.Black
		}
		lim := ai.LevelLimits(lvl)
		// An hour is no cap: the node budget decides the move.
		lim.MoveTime = time.Hour
		lim.Seed = seed*1_000_003 + int64(k)*4099 + int64(ply)
		if rep {
			lim.History = history
		}
		res, err := ai.Think(ctx, pos, lim)
		if err != nil {
			return nil, fmt.Errorf("puzzle: ai self-play game %d ply %d: %w", k, ply, err)
		}
		if d, ok := pos.(drafter); !ok || !d.InDraft() {
			g.Scores = append(g.Scores, res.Score)
			if visit != nil && !visit(ply, pos, res.Score) {
				return g, nil
			}
		}
		history = append(history, pos)
		if pos, err = pos.Play(res.Move); err != nil {
			return nil, fmt.Errorf("puzzle: ai self-play move %s refused: %w", res.Notation, err)
		}
	}
	return g, nil
}

// SeesWin reports whether an ai search of pos (noise off, nodes positions)
// finds a forced win for the side to move within depth of its moves: the
// miner's quick look before the exact proof. A false answer proves
// nothing.
func SeesWin(ctx context.Context, pos engine.Position, nodes int64, depth int) bool {
	res, err := ai.Think(ctx, pos, ai.Limits{Level: 5, Nodes: nodes, Noise: -1, MoveTime: time.Hour, NoPlan: true})
	return err == nil && WinWithin(res.Score, depth)
}

// WinWithin reports whether an ai score is a win within depth of the
// mover's moves (2*depth-1 plies).
func WinWithin(score, depth int) bool { return score >= ai.WinScore-(2*depth-1) }
