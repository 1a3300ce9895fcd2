package main

// review analyses a finished game from its record file: the summary
// (accuracy, inaccuracies, mistakes, blunders, turning points), the
// evaluation graph, the turning points' boards with the move played and
// the better move, and the annotated record (docs/review.md).

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/engine/review"
	"github.com/tankbot/tankbot/imaging"
)

const reviewSummary = "review a finished game: accuracy, mistakes, turning points, graph and annotated record"

// runReviewMain is the review command as the binary's command list runs it.
func runReviewMain(args []string, stdout, stderr io.Writer) error {
	return runReview(context.Background(), args, stdout, stderr)
}

func runReview(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("review")
	file := fs.String("record", "", "the record file to review (as /history attaches it)")
	outDir := fs.String("out", "", "directory for the graph, the boards and the annotated record (default: the record's)")
	nodes := fs.Int64("nodes", review.DefaultNodes, "search budget per position, before the game's scaling")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	table := fs.String("table", "", "instead of --record: review every record (*.rec) of these directories (comma-separated; one match each, as tankbot arena --records writes them) and print each player's accuracy per match")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *nodes < 1 {
		return fmt.Errorf("--nodes must be at least 1")
	}
	if *table != "" {
		if *file != "" || *outDir != "" {
			return usageErrorf(fs, "--table excludes --record and --out")
		}
		return runReviewTable(ctx, strings.Split(*table, ","), *nodes, *quiet, stdout, stderr)
	}
	if *file == "" {
		return usageErrorf(fs, "--record or --table is required")
	}
	rec, ps, ms, err := readRecord(*file)
	if err != nil {
		return err
	}
	dir := *outDir
	if dir == "" {
		dir = filepath.Dir(*file)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := strings.TrimSuffix(filepath.Base(*file), filepath.Ext(*file))
	opt := review.Options{Nodes: *nodes}
	if !*quiet {
		pr := newProgress(stderr)
		opt.Progress = func(done, total int) { pr.report(done, total, "positions") }
	}
	t0 := time.Now()
	rv, err := review.Analyze(ctx, ps[0], rec.Moves, opt)
	if err != nil {
		return err
	}
	took := time.Since(t0)

	fmt.Fprintf(stdout, "%s: %s (white) vs %s (black), %d plies, %s %s\n", rec.Game, rec.White, rec.Black, len(ms), rec.Outcome.Result, rec.Outcome.Reason)
	fmt.Fprintf(stdout, "reviewed in %v, %d nodes (%d a position before scaling)\n", took.Round(10*time.Millisecond), rv.Nodes, *nodes)
	for _, p := range []struct {
		side, name string
		pl         review.Player
	}{{"white", rec.White, rv.White}, {"black", rec.Black, rv.Black}} {
		fmt.Fprintf(stdout, "%-5s %-16s accuracy %5.1f %%  %d inaccuracies, %d mistakes, %d blunders (%d moves judged)\n",
			p.side, p.name, p.pl.Accuracy, p.pl.Inaccuracies, p.pl.Mistakes, p.pl.Blunders, p.pl.Moves)
	}
	graph := imaging.EvalGraph{
		Win: rv.Win, Title: fmt.Sprintf("%s vs %s", rec.White, rec.Black),
		White: rec.White + " (white)", Black: rec.Black + " (black)", Axis: "ply",
	}
	fmt.Fprintln(stdout, "turning points:")
	if len(rv.Turning) == 0 {
		fmt.Fprintln(stdout, "  none: no move lost enough to count")
	}
	var written []string
	for k, i := range rv.Turning {
		m := rv.Moves[i]
		label := record.MoveLabel(i, m.Side) + " " + m.Notation
		graph.Marks = append(graph.Marks, i)
		graph.MarkLabels = append(graph.MarkLabels, label)
		before, after := m.WinBefore, m.WinAfter
		if m.Side == engine.Black {
			before, after = 1-before, 1-after
		}
		fmt.Fprintf(stdout, "  %d. ply %d, %s: %s %s, its chances %.0f %% -> %.0f %%; better %s (line %s)\n",
			k+1, m.Ply, m.Side, label, m.Class, 100*before, 100*after, m.Best, strings.Join(m.Line, " | "))
		played := filepath.Join(dir, fmt.Sprintf("%s-turn%d-played.png", base, k+1))
		if err := writeBoard(played, ps[i+1], ms[i], m.Side); err != nil {
			return err
		}
		bm, err := ps[i].ParseMove(m.Best)
		if err != nil {
			return fmt.Errorf("turning point %d: the better move %q: %w", k+1, m.Best, err)
		}
		next, err := ps[i].Play(bm)
		if err != nil {
			return fmt.Errorf("turning point %d: the better move %q: %w", k+1, m.Best, err)
		}
		better := filepath.Join(dir, fmt.Sprintf("%s-turn%d-better.png", base, k+1))
		if err := writeBoard(better, next, bm, m.Side); err != nil {
			return err
		}
		written = append(written, played, better)
	}
	png, err := imaging.RenderEvalGraph(graph)
	if err != nil {
		return err
	}
	graphFile := filepath.Join(dir, base+"-graph.png")
	if err := os.WriteFile(graphFile, png, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", graphFile, err)
	}
	ann, err := rv.Annotate(rec, *nodes)
	if err != nil {
		return err
	}
	text, err := record.Write(ann)
	if err != nil {
		return err
	}
	annFile := filepath.Join(dir, base+"-review.txt")
	if err := os.WriteFile(annFile, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", annFile, err)
	}
	fmt.Fprintf(stdout, "graph: %s\n", graphFile)
	for _, w := range written {
		fmt.Fprintf(stdout, "board: %s\n", w)
	}
	fmt.Fprintf(stdout, "annotated record: %s\n", annFile)
	return nil
}

// writeBoard draws pos after move m (highlighted as the last move) from
// the mover's side.
func writeBoard(path string, pos engine.Position, m engine.Move, mover engine.Side) error {
	b, err := imaging.Render(pos, imaging.Options{Last: m, Flip: mover == engine.Black})
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
