package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/record"
)

func runArenaMain(args []string, stdout, stderr io.Writer) error {
	return runArena(context.Background(), args, stdout, stderr)
}

func runArena(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlags("arena")
	game := fs.String("game", "tank", "game: "+strings.Join(games.Names(), ", "))
	variant := fs.String("map", "", "map or start position (default: the game's first)")
	white := fs.String("white", "ai:3", "player A, White in odd games: ai:1..ai:5, random, greedy or ext:N:PATH (level N of the tankbot binary at PATH, over its engine protocol)")
	black := fs.String("black", "random", "player B, Black in odd games")
	n := fs.Int("games", 10, "number of games (colours alternate)")
	moveTime := fs.Duration("movetime", 0, "time cap per AI move (0: the level's own)")
	nodes := fs.Int64("nodes", 0, "node budget per AI move (0: the level's own)")
	seed := fs.Int64("seed", 1, "seed of openings and AI noise")
	maxPly := fs.Int("maxply", ai.DefaultMaxPly, "adjudicate a game as a draw after this many plies")
	opening := fs.Int("opening", 2, "uniformly random plies at the start of each game pair")
	quiet := fs.Bool("quiet", false, "no progress bar")
	records := fs.String("records", "", "write each game's record to this directory as GAME-seedS-N.rec (replay reads them)")
	concurrent := fs.Int("concurrent", 1, "games played at the same time (think times under competition for the cores)")
	limit := fs.Duration("timeout", 0, "stop after this long and report the games finished by then (0: none)")
	noCap := fs.Bool("nocap", false, "lift the AI's time cap: each level plays on its node budget alone, whatever the machine's load")
	resume := fs.Bool("resume", false, "count the games whose records are already in --records (a run cut short by --timeout) and play only the others")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *n < 1 {
		return usageErrorf(fs, "--games must be at least 1")
	}
	if *concurrent < 1 {
		return usageErrorf(fs, "--concurrent must be at least 1")
	}
	if *noCap && *moveTime > 0 {
		return usageErrorf(fs, "--nocap and --movetime exclude each other")
	}
	if *resume && *records == "" {
		return usageErrorf(fs, "--resume needs --records: the directory of the earlier run's records")
	}
	rules, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	if _, err := rules.Start(*variant); err != nil {
		return err
	}
	playTime := *moveTime
	if *noCap {
		// The cap is lifted, not removed: an hour is far beyond any
		// level's node budget, so the budget decides every move.
		playTime = time.Hour
	}
	a, err := parseArenaPlayer(*white, *nodes, playTime)
	if err != nil {
		return err
	}
	b, err := parseArenaPlayer(*black, *nodes, playTime)
	if err != nil {
		return err
	}
	for _, p := range []ai.Player{a, b} {
		if c, ok := p.(interface{ Close() }); ok {
			defer c.Close()
		}
	}
	start := time.Now()
	m := ai.Match{Rules: rules, Variant: *variant, A: a, B: b, Games: *n, Seed: *seed, OpeningPlies: *opening, MaxPly: *maxPly, Concurrent: *concurrent}
	if *records != "" {
		if err := os.MkdirAll(*records, 0o755); err != nil {
			return err
		}
		var werr error
		m.Finished = func(i int, white, black string, g *engine.Game) {
			if werr == nil {
				werr = writeArenaRecord(*records, rules.Name(), *variant, *seed, i, white, black, g)
			}
		}
		defer func() {
			if err == nil && werr != nil {
				err = werr
			}
		}()
	}
	resumed := 0
	if *resume {
		known, err := readArenaRecords(*records, rules, *variant, *seed, *n, *maxPly, a.Name(), b.Name())
		if err != nil {
			return err
		}
		resumed = len(known)
		m.Known = func(gi int) (ai.MatchResult, bool) {
			r, ok := known[gi]
			return r, ok
		}
	}
	if !*quiet {
		pr := newProgress(stderr)
		m.Progress = func(done, total int, r ai.MatchResult) {
			pr.report(done, total, fmt.Sprintf(" +%d =%d -%d", r.Wins, r.Draws, r.Losses))
		}
	}
	if *limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *limit)
		defer cancel()
	}
	r, err := m.Play(ctx)
	switch {
	case errors.Is(err, context.DeadlineExceeded) && *limit > 0:
		if !*quiet {
			fmt.Fprintln(stderr)
		}
		fmt.Fprintf(stdout, "stopped by --timeout %v: %d of %d games finished\n", *limit, r.Games(), *n)
		if r.Games() == 0 {
			return nil // nothing to score: the line above says so
		}
	case err != nil:
		return err
	}
	fmt.Fprint(stdout, formatArena(rules.Name(), a.Name(), b.Name(), r, time.Since(start)))
	fmt.Fprintf(stdout, "%d game(s) at a time\n", *concurrent)
	if *resume {
		fmt.Fprintf(stdout, "resumed: %d game(s) counted from their records in %s, not played again (the think times are of the games played now)\n", resumed, *records)
	}
	if *noCap {
		fmt.Fprintln(stdout, "time cap lifted (--nocap): every AI move searched its level's full node budget")
	}
	for _, p := range []ai.Player{a, b} {
		if sp, ok := p.(ai.Searcher); ok {
			if st := sp.Stats(); st.Moves > 0 {
				fmt.Fprintf(stdout, "search %-7s mean depth %.2f (shallowest %d), mean nodes %.0f, over %d searched moves\n",
					p.Name(), float64(st.Depth)/float64(st.Moves), st.MinDepth, float64(st.Nodes)/float64(st.Moves), st.Moves)
			}
		}
	}
	for _, p := range []struct {
		name string
		st   ai.ThinkStats
	}{{a.Name(), r.ThinkA}, {b.Name(), r.ThinkB}} {
		if c := thinkCap(p.name, *moveTime); c > 0 {
			what := ""
			if *noCap {
				what = " (not applied)"
			}
			fmt.Fprintf(stdout, "cap %-8s %v%s: %d of %d moves over it\n", p.name, c, what, p.st.Over(c), p.st.Moves)
		}
	}
	return nil
}

// writeArenaRecord writes game i of an arena match as a record file. The
// variant is named (the game's default when none was asked) so the record
// reads like one from the bot.
func writeArenaRecord(dir, game, variant string, seed int64, i int, white, black string, g *engine.Game) error {
	rules, err := games.Lookup(game)
	if err != nil {
		return err
	}
	if variant == "" {
		variant = rules.Variants()[0].Name
	}
	rec := &record.Record{
		Game: game, Variant: variant, Start: g.Start().Encode(), White: white, Black: black,
		Clock: "none", Outcome: g.Outcome(), Moves: g.Moves(),
		Tags: [][2]string{{"Event", fmt.Sprintf("tankbot arena --game %s --seed %d, game %d", game, seed, i+1)}},
	}
	text, err := record.Write(rec)
	if err != nil {
		return err
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-seed%d-%d.rec", game, seed, i+1))
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}

// readArenaRecords reads back the records writeArenaRecord left in dir for
// games 1..n of this match and scores them. A record of another match
// (other game, seed, players, start or ply cap) is an error rather than
// skipped: counting it would mix two matches.
func readArenaRecords(dir string, rules engine.Rules, variant string, seed int64, n, maxPly int, a, b string) (map[int]ai.MatchResult, error) {
	if variant == "" {
		variant = rules.Variants()[0].Name
	}
	start, err := rules.Start(variant)
	if err != nil {
		return nil, err
	}
	if maxPly <= 0 {
		maxPly = ai.DefaultMaxPly
	}
	known := map[int]ai.MatchResult{}
	for gi := range n {
		name := filepath.Join(dir, fmt.Sprintf("%s-seed%d-%d.rec", rules.Name(), seed, gi+1))
		text, err := os.ReadFile(name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		rec, err := record.Parse(string(text))
		if err != nil {
			return nil, fmt.Errorf("resume: %s: %w", name, err)
		}
		white, black := a, b
		if gi%2 == 1 {
			white, black = b, a
		}
		event := fmt.Sprintf("tankbot arena --game %s --seed %d, game %d", rules.Name(), seed, gi+1)
		var got string
		for _, t := range rec.Tags {
			if t[0] == "Event" {
				got = t[1]
			}
		}
		switch {
		case rec.Game != rules.Name() || got != event:
			return nil, fmt.Errorf("resume: %s is not game %d of this match (event %q, want %q)", name, gi+1, got, event)
		case rec.White != white || rec.Black != black:
			return nil, fmt.Errorf("resume: %s was played by %s (White) and %s (Black), this match's game %d by %s and %s", name, rec.White, rec.Black, gi+1, white, black)
		case rec.Start != start.Encode():
			return nil, fmt.Errorf("resume: %s starts from another position than %s", name, variant)
		case len(rec.Moves) > maxPly || !rec.Outcome.Over() && len(rec.Moves) != maxPly:
			return nil, fmt.Errorf("resume: %s has %d plies and no result: it was played with another --maxply than %d", name, len(rec.Moves), maxPly)
		}
		known[gi] = ai.GameResult(gi, rec.Outcome, len(rec.Moves))
	}
	return known, nil
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
	for _, p := range []struct {
		name string
		st   ai.ThinkStats
	}{{a, r.ThinkA}, {b, r.ThinkB}} {
		fmt.Fprintf(&sb, "think %-8s max %v p99 %v mean %v over %d moves\n", p.name, p.st.Max.Round(time.Millisecond),
			p.st.Quantile(0.99).Round(time.Millisecond), p.st.Mean().Round(time.Microsecond), p.st.Moves)
	}
	return sb.String()
}

// parseArenaPlayer is ai.ParsePlayer plus the external player ext:N:PATH.
func parseArenaPlayer(spec string, nodes int64, moveTime time.Duration) (ai.Player, error) {
	if p, ok, err := parseExtPlayer(spec, nodes, moveTime); ok {
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	return ai.ParsePlayer(spec, nodes, moveTime)
}

// thinkCap is the time cap an AI player spec promises (0 for the others;
// an external player's is taken to be this build's for its level).
func thinkCap(spec string, moveTime time.Duration) time.Duration {
	level, ok := strings.CutPrefix(spec, "ai:")
	if !ok {
		if level, ok = strings.CutPrefix(spec, "ext:"); !ok {
			return 0
		}
	}
	if moveTime > 0 {
		return moveTime
	}
	n := 0
	fmt.Sscan(level, &n)
	return ai.LevelLimits(n).MoveTime
}

func eloString(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.Abs(x) < 0.5:
		return "0" // not "-0" for an even score
	}
	return fmt.Sprintf("%+.0f", x)
}
