package main

// tankbot tune: Texel-style tuning of a game's evaluation weights (issue
// 45). "gen" plays seeded self-play games on node budgets alone (the
// result does not depend on the machine) and writes one line per quiet
// position: the game's result for White and the position. "fit" reads
// such files, fits the weights (ai.Tune) and prints them as the Go array
// to put in the game's evaluation (engine/<game>/eval.go).

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
)

func runTune(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "gen" && args[0] != "fit") {
		fs := newFlags("tune")
		if err := parseFlags(fs, args); err != nil {
			return err // -h, or a flag before the subcommand
		}
		return usageErrorf(fs, "want tune gen --game G --games N --seed S --level L --out FILE, or tune fit --game G --data FILE,...")
	}
	if args[0] == "gen" {
		return runTuneGen(args[1:], stdout, stderr)
	}
	return runTuneFit(args[1:], stdout)
}

func runTuneGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune gen")
	game := fs.String("game", "gungi", "game: "+strings.Join(games.Names(), ", "))
	n := fs.Int("games", 100, "self-play games")
	seed := fs.Int64("seed", 1, "seed of the openings and the AI")
	level := fs.Int("level", 2, "AI level of both sides")
	opening := fs.Int("opening", 6, "uniformly random plies at the start of each game pair")
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
	spec := fmt.Sprintf("ai:%d", *level)
	a, err := ai.ParsePlayer(spec, 0, time.Hour) // node budgets alone
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# tankbot tune gen --game %s --games %d --seed %d --level %d --opening %d --maxply %d\n", *game, *n, *seed, *level, *opening, *maxPly)
	written := 0
	// Games are written in index order whatever finishes first, so the
	// file is the same with any --concurrent.
	done := map[int]*engine.Game{}
	nextOut := 0
	flush := func() {
		for g, ok := done[nextOut]; ok; g, ok = done[nextOut] {
			delete(done, nextOut)
			nextOut++
			written += writeTuneGame(w, g)
		}
	}
	m := ai.Match{Rules: rules, A: a, B: a, Games: *n, Seed: *seed, OpeningPlies: *opening, MaxPly: *maxPly, Concurrent: *concurrent,
		Finished: func(i int, _, _ string, g *engine.Game) {
			done[i] = g
			flush()
		},
		Progress: func(d, total int, _ ai.MatchResult) { fmt.Fprintf(stderr, "\r%d/%d games", d, total) },
	}
	if _, err := m.Play(context.Background()); err != nil {
		f.Close()
		return err
	}
	fmt.Fprintln(stderr)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d positions from %d games written to %s\n", written, *n, *out)
	return nil
}

// writeTuneGame writes every third position of a finished game (the game
// decides the label; neighbouring positions say nearly the same) as
// "result<TAB>position", the result for White: 1, 0.5 or 0. Games cut at
// the ply cap are left out: their label says nothing.
func writeTuneGame(w io.Writer, g *engine.Game) int {
	o := g.Outcome()
	if !o.Over() {
		return 0
	}
	res := whiteScore(o)
	n := 0
	p := g.Start()
	for i, mv := range g.Moves() {
		if i%3 == 0 {
			if _, ok := ai.SampleOf(p, res); ok {
				fmt.Fprintf(w, "%g\t%s\n", res, p.Encode())
				n++
			}
		}
		m, err := p.ParseMove(mv)
		if err != nil {
			break
		}
		if p, err = p.Play(m); err != nil {
			break
		}
	}
	return n
}

func runTuneFit(args []string, stdout io.Writer) error {
	fs := newFlags("tune fit")
	game := fs.String("game", "gungi", "game: "+strings.Join(games.Names(), ", "))
	epochs := fs.Int("epochs", 600, "passes of gradient descent")
	data := fs.String("data", "", "comma-separated files that tune gen wrote")
	fix := fs.String("fix", "", "weights kept at their current value: indices and ranges, e.g. 0-38,42")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *data == "" {
		return usageErrorf(fs, "--data is required: the files tune gen wrote")
	}
	rules, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	var samples []ai.TuneSample
	var w0 []int
	for _, name := range strings.Split(*data, ",") {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		for ln, line := range strings.Split(string(data), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			rs, enc, ok := strings.Cut(line, "\t")
			r, err := strconv.ParseFloat(rs, 64)
			if !ok || err != nil {
				return fmt.Errorf("%s:%d: want result<TAB>position", name, ln+1)
			}
			p, err := rules.Decode(enc)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", name, ln+1, err)
			}
			s, ok := ai.SampleOf(p, r)
			if !ok {
				continue
			}
			samples = append(samples, s)
			if w0 == nil {
				w0 = p.(engine.Searchable).NewSearcher().(ai.Featurer).Weights()
			}
		}
	}
	if len(samples) == 0 {
		return fmt.Errorf("no %s position to tune on", *game)
	}
	fixed, err := parseIndexSet(*fix, len(w0))
	if err != nil {
		return usageErrorf(fs, "--fix: %v", err)
	}
	res := ai.Tune(samples, w0, fixed, *epochs)
	fmt.Fprintf(stdout, "%d positions; K %.3f; mean squared error %.5f before, %.5f after\n", len(samples), res.K, res.LossBefore, res.Loss)
	fmt.Fprintf(stdout, "weights (before -> after):\n")
	for i := range w0 {
		fmt.Fprintf(stdout, "  %2d: %5d -> %5d\n", i, w0[i], res.Weights[i])
	}
	fmt.Fprint(stdout, "{")
	for i, x := range res.Weights {
		if i > 0 {
			fmt.Fprint(stdout, ", ")
		}
		fmt.Fprint(stdout, x)
	}
	fmt.Fprintln(stdout, "}")
	return nil
}

// parseIndexSet reads "0-3,7" into a mask of n entries.
func parseIndexSet(s string, n int) ([]bool, error) {
	out := make([]bool, n)
	if s == "" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, fmt.Errorf("%q is not an index or a range", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
				return nil, fmt.Errorf("%q is not an index or a range", part)
			}
		}
		if a < 0 || b >= n || a > b {
			return nil, fmt.Errorf("%q is outside 0..%d", part, n-1)
		}
		for i := a; i <= b; i++ {
			out[i] = true
		}
	}
	return out, nil
}

// whiteScore is a finished game's result for White: 1, 0.5 or 0 (the
// label tune gen writes and the score book counts).
func whiteScore(o engine.Outcome) float64 {
	if w, ok := o.Winner(); ok {
		if w == engine.White {
			return 1
		}
		return 0
	}
	return 0.5
}
