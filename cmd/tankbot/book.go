package main

// tankbot book: builds a game's opening book (engine/ai/books/<game>.txt)
// from seeded self-play on node budgets alone, so that the same command
// writes the same file on any machine (docs/ai.md).

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
)

func runBook(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("book")
	game := fs.String("game", "camelot", "game: "+strings.Join(games.Names(), ", "))
	variant := fs.String("map", "", "map or start position (default: the game's first)")
	n := fs.Int("games", 100, "self-play games")
	seed := fs.Int64("seed", 1, "seed of the AI's noise")
	level := fs.Int("level", 3, "AI level of both sides")
	plies := fs.Int("plies", 10, "opening plies (after a planned phase such as the Gungi draft) kept")
	minCount := fs.Int("min", 2, "keep a move played at least this many times by a side that scored at least half")
	maxPly := fs.Int("maxply", ai.DefaultMaxPly, "adjudicate a game as a draw after this many plies")
	concurrent := fs.Int("concurrent", 1, "games played at the same time")
	out := fs.String("out", "", "file to write (required)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf(fs, "--out is required")
	}
	rules, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	// The players must not read the book being replaced: they search
	// every move.
	if *level < 1 || *level > ai.Levels {
		return usageErrorf(fs, "--level must be 1 to %d", ai.Levels)
	}
	player := noBookPlayer{*level}
	type key struct{ pos, move string }
	count := map[key]int{}
	score := map[key]float64{}
	m := ai.Match{Rules: rules, Variant: *variant, A: player, B: player, Games: *n, Seed: *seed, MaxPly: *maxPly, Concurrent: *concurrent,
		Finished: func(_ int, _, _ string, g *engine.Game) {
			white := whiteScore(g.Outcome())
			pos := g.Start()
			kept := 0
			for _, mv := range g.Moves() {
				if kept >= *plies {
					break
				}
				planned := false
				if pl, ok := pos.(engine.Planner); ok {
					_, planned = pl.PlanMove(0)
				}
				if !planned {
					k := key{pos.Encode(), mv}
					count[k]++
					if pos.Turn() == engine.White {
						score[k] += white
					} else {
						score[k] += 1 - white
					}
					kept++
				}
				mm, err := pos.ParseMove(mv)
				if err != nil {
					return
				}
				if pos, err = pos.Play(mm); err != nil {
					return
				}
			}
		},
		Progress: func(d, total int, _ ai.MatchResult) { fmt.Fprintf(stderr, "\r%d/%d games", d, total) },
	}
	if _, err := m.Play(context.Background()); err != nil {
		return err
	}
	fmt.Fprintln(stderr)
	var keys []key
	for k, c := range count {
		if c >= *minCount && score[k]/float64(c) >= 0.5 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].pos != keys[j].pos {
			return keys[i].pos < keys[j].pos
		}
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return keys[i].move < keys[j].move
	})
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# %s opening book: position, move, times played by a side that scored at least half\n", rules.Name())
	fmt.Fprintf(w, "# tankbot book --game %s --games %d --seed %d --level %d --plies %d --min %d --maxply %d", *game, *n, *seed, *level, *plies, *minCount, *maxPly)
	if *variant != "" {
		fmt.Fprintf(w, " --map %s", *variant)
	}
	fmt.Fprintln(w)
	for _, k := range keys {
		fmt.Fprintf(w, "%s\t%s\t%d\n", k.pos, k.move, count[k])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d book moves from %d games written to %s\n", len(keys), *n, *out)
	return nil
}

// noBookPlayer is level N searching every move (ai.Limits.NoPlan) but in
// a planned phase, which it plays by plan: the book is built from search
// alone, on node budgets (no time cap).
type noBookPlayer struct{ level int }

func (p noBookPlayer) Name() string { return fmt.Sprintf("ai:%d", p.level) }

func (p noBookPlayer) Choose(ctx context.Context, pos engine.Position, history []engine.Position, seed int64) (engine.Move, error) {
	if pl, ok := pos.(engine.Planner); ok {
		if m, ok := pl.PlanMove(seed); ok {
			return m, nil
		}
	}
	r, err := ai.Think(ctx, pos, ai.Limits{Level: p.level, MoveTime: time.Hour, Seed: seed, History: history, NoPlan: true})
	if err != nil {
		return nil, err
	}
	return r.Move, nil
}
