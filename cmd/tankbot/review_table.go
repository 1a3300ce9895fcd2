package main

// review --table: the accuracy table of docs/review.md ("Does it tell
// players apart?"), reproducible from the arena's records. Each directory
// holds one match (tankbot arena --records); every record in it is
// reviewed at the given budget, exactly as `tankbot review --record`
// would, and each player's accuracies over the match are summarised.

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tankbot/tankbot/engine/review"
)

// matchAccuracy is one match's accuracies per player name, game by game.
type matchAccuracy struct {
	dir     string
	game    string
	players []string             // in order of first appearance
	acc     map[string][]float64 // player -> accuracy in each game
	gaps    []float64            // per game: second player's accuracy minus the first's
}

func runReviewTable(ctx context.Context, dirs []string, nodes int64, quiet bool, stdout, stderr io.Writer) error {
	var rows []matchAccuracy
	for _, dir := range dirs {
		dir = strings.TrimSpace(dir)
		if dir == "" {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.rec"))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("%s: no record (*.rec) to review", dir)
		}
		slices.SortFunc(files, compareRecordNames)
		m := matchAccuracy{dir: dir, acc: map[string][]float64{}}
		for _, f := range files {
			rec, ps, ms, err := readRecord(f)
			if err != nil {
				return err
			}
			if m.game == "" {
				m.game = rec.Game
			} else if rec.Game != m.game {
				return fmt.Errorf("%s: a %s record among %s records: one match per directory", f, rec.Game, m.game)
			}
			if len(ms) == 0 {
				continue // nothing to judge
			}
			rv, err := review.Analyze(ctx, ps[0], rec.Moves, review.Options{Nodes: nodes})
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			for _, name := range []string{rec.White, rec.Black} {
				if !slices.Contains(m.players, name) {
					m.players = append(m.players, name)
				}
			}
			if len(m.players) != 2 {
				return fmt.Errorf("%s: players %s and %s: the directory's records are not one match of two players", f, rec.White, rec.Black)
			}
			byName := map[string]float64{rec.White: rv.White.Accuracy, rec.Black: rv.Black.Accuracy}
			for _, name := range m.players {
				m.acc[name] = append(m.acc[name], byName[name])
			}
			m.gaps = append(m.gaps, byName[m.players[1]]-byName[m.players[0]])
			if !quiet {
				fmt.Fprintf(stderr, "%s: %s %.1f %%, %s %.1f %% (%d plies, %s %s)\n", f, rec.White, rv.White.Accuracy,
					rec.Black, rv.Black.Accuracy, len(ms), rec.Outcome.Result, rec.Outcome.Reason)
			}
		}
		if len(m.gaps) == 0 {
			return fmt.Errorf("%s: no record with a move", dir)
		}
		rows = append(rows, m)
	}
	fmt.Fprint(stdout, formatAccuracyTable(rows, nodes))
	return nil
}

// compareRecordNames orders GAME-seedS-N.rec by N (game 2 before game 10).
func compareRecordNames(a, b string) int {
	na, nb := recordNumber(a), recordNumber(b)
	if na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func recordNumber(path string) int {
	base := strings.TrimSuffix(filepath.Base(path), ".rec")
	i := strings.LastIndexByte(base, '-')
	n := 0
	if _, err := fmt.Sscan(base[i+1:], &n); err != nil {
		return math.MaxInt32
	}
	return n
}

// formatAccuracyTable prints one row per match: each player's mean
// accuracy with its worst and best game, the gap of the means (second
// player minus first) and the smallest and largest gap in one game.
func formatAccuracyTable(rows []matchAccuracy, nodes int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "accuracy per match, each game reviewed at %d nodes a position before the game's scaling (docs/review.md)\n", nodes)
	b.WriteString("| game | match | games | first player: mean (worst, best game) | second player: mean (worst, best game) | gap of the means | gap in one game: smallest, largest |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, m := range rows {
		p, q := m.players[0], m.players[1]
		mp, mq := mean(m.acc[p]), mean(m.acc[q])
		fmt.Fprintf(&b, "| %s | %s vs %s | %d | %s %.1f %% (%.1f, %.1f) | %s %.1f %% (%.1f, %.1f) | %+.1f | %+.1f, %+.1f |\n",
			m.game, p, q, len(m.gaps),
			p, mp, slices.Min(m.acc[p]), slices.Max(m.acc[p]),
			q, mq, slices.Min(m.acc[q]), slices.Max(m.acc[q]),
			mq-mp, slices.Min(m.gaps), slices.Max(m.gaps))
	}
	return b.String()
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
