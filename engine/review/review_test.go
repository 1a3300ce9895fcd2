package review

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/record"
)

func TestWinProbability(t *testing.T) {
	for _, c := range []struct {
		cp   int
		want float64
	}{{0, 0.5}, {100, 0.591}, {-100, 0.409}, {300, 0.752}, {5000, 0.975}, {ai.WinScore - 3, 1}, {-(ai.WinScore - 7), 0}} {
		if got := WinProbability(c.cp); math.Abs(got-c.want) > 0.001 {
			t.Errorf("WinProbability(%d) = %.4f, want %.3f", c.cp, got, c.want)
		}
	}
	if WinProbability(1000) != WinProbability(4000) {
		t.Error("scores beyond the clamp differ")
	}
}

func TestClassifyAndAccuracy(t *testing.T) {
	for _, c := range []struct {
		drop float64
		want Class
	}{{0, Good}, {0.049, Good}, {0.05, Inaccuracy}, {0.099, Inaccuracy}, {0.10, Mistake}, {0.15, Blunder}, {0.9, Blunder}} {
		if got := Classify(c.drop); got != c.want {
			t.Errorf("Classify(%v) = %v, want %v", c.drop, got, c.want)
		}
	}
	if a := MoveAccuracy(0.6, 0.6); a < 99.9 || a > 100 {
		t.Errorf("a move that keeps the chances: accuracy %v", a)
	}
	if a := MoveAccuracy(0.6, 0.7); a < 99.9 {
		t.Errorf("a move that improves the chances: accuracy %v", a)
	}
	if a, b := MoveAccuracy(0.8, 0.7), MoveAccuracy(0.8, 0.3); a <= b || b < 0 || a >= 100 {
		t.Errorf("accuracy must fall with the drop: %v then %v", a, b)
	}
}

// A game where one side throws a piece away on purpose: the review marks
// that move (a mistake or worse), names a better move, counts it for the
// right player, and every position has a probability.
func TestAnalyzeFindsTheBlunder(t *testing.T) {
	for _, game := range []string{"tank", "camelot", "gungi"} {
		t.Run(game, func(t *testing.T) {
			start, moves, bad := blunderGame(t, game)
			var calls, last int
			rv, err := Analyze(context.Background(), start, moves, Options{Nodes: 3000, Progress: func(done, total int) {
				calls++
				last = done
				if total != len(moves)+1 {
					t.Fatalf("progress total %d, want %d", total, len(moves)+1)
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			if calls != len(moves)+1 || last != len(moves)+1 {
				t.Errorf("progress: %d calls, last %d", calls, last)
			}
			if len(rv.Win) != len(moves)+1 || len(rv.Moves) != len(moves) {
				t.Fatalf("sizes: %d probabilities, %d moves", len(rv.Win), len(rv.Moves))
			}
			m := rv.Moves[bad]
			if m.Class < Mistake || m.Best == "" || m.Best == m.Notation {
				t.Fatalf("move %d %s (thrown away): %+v", bad+1, m.Notation, m)
			}
			pl := rv.White
			if m.Side == engine.Black {
				pl = rv.Black
			}
			if pl.Mistakes+pl.Blunders == 0 || pl.Accuracy >= 100 || pl.Accuracy <= 0 {
				t.Errorf("the blunderer's summary: %+v", pl)
			}
			found := false
			for _, i := range rv.Turning {
				found = found || i == bad
			}
			if !found || len(rv.Turning) > TurningPoints {
				t.Errorf("turning points %v lack move %d", rv.Turning, bad+1)
			}
			if c := rv.Comment(bad); !strings.Contains(c, "best "+m.Best) || !strings.Contains(c, m.Class.String()) {
				t.Errorf("comment %q", c)
			}
			// Deterministic: node budgets only.
			again, err := Analyze(context.Background(), start, moves, Options{Nodes: 3000})
			if err != nil {
				t.Fatal(err)
			}
			for i := range rv.Win {
				if again.Win[i] != rv.Win[i] {
					t.Fatalf("position %d: %v then %v", i, rv.Win[i], again.Win[i])
				}
			}
		})
	}
}

// blunderGame plays a short game where both sides play the engine's move
// except one move that loses the most material (found by trying every
// legal move); it returns the start, the moves and the index of the bad one.
func blunderGame(t *testing.T, game string) (engine.Position, []string, int) {
	t.Helper()
	r, err := games.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	variant := ""
	if game == "gungi" {
		variant = "quick"
	}
	start, err := r.Start(variant)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(start)
	lim := ai.Limits{Level: 3, Nodes: 3000, MoveTime: 1 << 62}
	// Ply 6: in the games the level-3 AI plays since its two-ply pass is
	// no longer charged to the budget, the move picked so at ply 8 of
	// Camelot drops the mover's chances by 7 points only (an inaccuracy).
	const badAt = 6
	for ply := 0; ply < 12 && !g.Outcome().Over(); ply++ {
		p := g.Position()
		var mv engine.Move
		if ply == badAt {
			// The move after which the opponent's best reply scores
			// highest for the opponent.
			worst := -1 << 30
			for _, m := range p.LegalMoves() {
				q, _ := p.Play(m)
				if q.Status().Over() {
					continue
				}
				res, err := ai.Think(context.Background(), q, ai.Limits{Level: 1, Noise: -1, MaxDepth: 1, MoveTime: 1 << 62})
				if err != nil {
					continue
				}
				if res.Score > worst {
					worst, mv = res.Score, m
				}
			}
		} else {
			lim.Seed = int64(ply)
			res, err := ai.Think(context.Background(), p, lim)
			if err != nil {
				t.Fatal(err)
			}
			mv = res.Move
		}
		if err := g.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	return start, g.Moves(), badAt
}

// The annotated record is a record: it writes, reads back with its
// comments and the Annotator tag, and the moves are the game's.
func TestAnnotate(t *testing.T) {
	start, moves, bad := blunderGame(t, "camelot")
	rv, err := Analyze(context.Background(), start, moves, Options{Nodes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	rec := &record.Record{Game: "camelot", Variant: "start", White: "w", Black: "b", Moves: moves}
	ann, err := rv.Annotate(rec, 2000)
	if err != nil {
		t.Fatal(err)
	}
	text, err := record.Write(ann)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if strings.Join(back.Moves, "|") != strings.Join(moves, "|") {
		t.Fatal("moves differ")
	}
	if back.Comment(bad) != rv.Comment(bad) || !strings.Contains(back.Comment(bad), "best ") {
		t.Errorf("comment of the blunder: %q, want %q", back.Comment(bad), rv.Comment(bad))
	}
	if !strings.Contains(text, `[Annotator "tankbot review, 2000 nodes a position`) {
		t.Errorf("no Annotator tag:\n%s", text)
	}
	if _, err := rv.Annotate(&record.Record{Game: "camelot", Variant: "start", Moves: moves[:3]}, 0); err == nil {
		t.Error("a record of another length annotated")
	}
}

func TestAnalyzeErrors(t *testing.T) {
	r, _ := games.Lookup("tank")
	start, _ := r.Start("")
	if _, err := Analyze(context.Background(), start, []string{"nonsense"}, Options{}); err == nil || !strings.Contains(err.Error(), "move 1") {
		t.Errorf("bad move: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, start, nil, Options{}); err == nil {
		t.Error("a cancelled review succeeded")
	}
	if _, err := Analyze(context.Background(), nil, nil, Options{}); err == nil {
		t.Error("no start accepted")
	}
}

// The game figure is lichess's: the mean of the volatility-weighted mean
// (each move weighs the standard deviation of the win percentages in its
// window, within 0.5..12) and the harmonic mean. Worked by hand: White's
// moves 0 (calm: weight 0.5) and 2 (the game swings from 50 % to 20 %:
// deviation 15, weight 12), accuracies 100 and 40: weighted
// (50 + 480) / 12.5 = 42.4, harmonic 2 / (1/100 + 1/40) = 57.14.
func TestGameAccuracy(t *testing.T) {
	win := []float64{0.5, 0.5, 0.5, 0.2, 0.2}
	acc := []float64{100, 100, 40, 100}
	white := []bool{true, false, true, false}
	black := []bool{false, true, false, true}
	if got, want := GameAccuracy(win, acc, white), (42.4+2/(1.0/100+1.0/40))/2; math.Abs(got-want) > 1e-9 {
		t.Errorf("White: %.6f, want %.6f", got, want)
	}
	if got := GameAccuracy(win, acc, black); got != 100 {
		t.Errorf("Black, every move perfect: %v", got)
	}
	if got := GameAccuracy(win, acc, []bool{false, false, false, false}); !math.IsNaN(got) {
		t.Errorf("no move: %v, want NaN", got)
	}
	// One very bad move among many good ones costs far more than its
	// share of an arithmetic mean (the harmonic mean, each accuracy taken
	// as at least 1).
	n := 40
	win, acc, mine := make([]float64, n+1), make([]float64, n), make([]bool, n)
	for i := range win {
		win[i] = 0.6
	}
	for i := range acc {
		acc[i], mine[i] = 100, i%2 == 0
	}
	acc[10] = 0
	if got := GameAccuracy(win, acc, mine); got > 60 {
		t.Errorf("one move of accuracy 0 in 20: %.1f, want under 60 (the arithmetic mean is 95)", got)
	}
}

// A player behind is judged as if level: a piece thrown away costs as
// much at -12 pawns as at 0, where lichess's measure (the flat end of the
// logistic) saw almost nothing; hastening a forced loss costs too. A
// player ahead or level is judged by the fall of W.
func TestDrop(t *testing.T) {
	piece := WinProbability(300) - 0.5
	for _, c := range []struct {
		before, after int
		want          float64
	}{
		{300, 0, piece},
		{0, -300, piece},
		{-1200, -1500, piece},
		{-(ai.WinScore - 10), -(ai.WinScore - 4), piece}, // mated 6 plies sooner
		{-1200, -1200, 0},
		{-1200, -900, 0},
		{5000, 4000, 0}, // still winning: W barely moves
		{200, -(ai.WinScore - 3), WinProbability(200)},
	} {
		if got := Drop(c.before, c.after); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Drop(%d, %d) = %.4f, want %.4f", c.before, c.after, got, c.want)
		}
	}
	if lichess := WinProbability(-1200) - WinProbability(-1500); lichess > 0.001 {
		t.Errorf("the premise: lichess's drop at -12 pawns is %.4f", lichess)
	}
}
