package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
)

func runArenaMain(args []string, stdout, stderr io.Writer) error {
	return runArena(context.Background(), args, stdout, stderr)
}

func runArena(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("arena")
	game := fs.String("game", "tank", "game: "+strings.Join(games.Names(), ", "))
	variant := fs.String("map", "", "map or start position (default: the game's first)")
	white := fs.String("white", "ai:3", "player A, White in odd games: ai:1..ai:5, random or greedy")
	black := fs.String("black", "random", "player B, Black in odd games")
	n := fs.Int("games", 10, "number of games (colours alternate)")
	moveTime := fs.Duration("movetime", 0, "time cap per AI move (0: the level's own)")
	nodes := fs.Int64("nodes", 0, "node budget per AI move (0: the level's own)")
	seed := fs.Int64("seed", 1, "seed of openings and AI noise")
	maxPly := fs.Int("maxply", ai.DefaultMaxPly, "adjudicate a game as a draw after this many plies")
	opening := fs.Int("opening", 2, "uniformly random plies at the start of each game pair")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *n < 1 {
		return usageErrorf(fs, "--games must be at least 1")
	}
	rules, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	if _, err := rules.Start(*variant); err != nil {
		return err
	}
	a, err := ai.ParsePlayer(*white, *nodes, *moveTime)
	if err != nil {
		return err
	}
	b, err := ai.ParsePlayer(*black, *nodes, *moveTime)
	if err != nil {
		return err
	}
	start := time.Now()
	m := ai.Match{Rules: rules, Variant: *variant, A: a, B: b, Games: *n, Seed: *seed, OpeningPlies: *opening, MaxPly: *maxPly}
	if !*quiet {
		m.Progress = func(done, total int, r ai.MatchResult) {
			fmt.Fprintf(stderr, "\r%s %d/%d  +%d =%d -%d", bar(done, total, 30), done, total, r.Wins, r.Draws, r.Losses)
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	r, err := m.Play(ctx)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, formatArena(rules.Name(), a.Name(), b.Name(), r, time.Since(start)))
	return nil
}

// bar draws a progress bar of width cells.
func bar(done, total, width int) string {
	f := done * width / total
	return "[" + strings.Repeat("#", f) + strings.Repeat(".", width-f) + "]"
}

func formatArena(game, a, b string, r ai.MatchResult, wall time.Duration) string {
	var sb strings.Builder
	d, lo, hi := r.Elo()
	fmt.Fprintf(&sb, "%s: %s vs %s, %d games (%d drawn at the ply cap), %d plies, %s\n", game, a, b, r.Games(), r.Adjudicated, r.Plies, wall.Round(time.Second))
	fmt.Fprintf(&sb, "W/D/L %d/%d/%d  score %.1f %%  Elo %s [%s, %s]\n", r.Wins, r.Draws, r.Losses, 100*r.Score(), eloString(d), eloString(lo), eloString(hi))
	fmt.Fprintf(&sb, "think %-8s max %v mean %v over %d moves\n", a, r.ThinkA.Max.Round(time.Millisecond), r.ThinkA.Mean().Round(time.Microsecond), r.ThinkA.Moves)
	fmt.Fprintf(&sb, "think %-8s max %v mean %v over %d moves\n", b, r.ThinkB.Max.Round(time.Millisecond), r.ThinkB.Mean().Round(time.Microsecond), r.ThinkB.Moves)
	return sb.String()
}

func eloString(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}
