// Package review analyses a finished game: it evaluates every position
// with the AI's search within a node budget, turns the scores into win
// probabilities, judges each move by how much it lowered its player's
// chances (inaccuracy, mistake, blunder), rates each player's accuracy,
// picks the turning points with the better move, and annotates the game's
// record. Pure: no I/O, no clock (node budgets only, so a review is the
// same on any machine). The formulas and thresholds are documented in
// docs/review.md.
package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/record"
)

// DefaultNodes is the node budget per position before the game's scaling
// (ai.ScaleNodes: Tank Chess ×3, Camelot ×0.5, Gungi ×0.6), level 3's,
// spent on every position of the game and on the position after the
// engine's move wherever the move played differs (BenchmarkReview100,
// docs/review.md, against the 30 s target).
const DefaultNodes = 10000

// Thresholds of the drop in the mover's win probability (0..1) that make a
// move an inaccuracy, a mistake or a blunder: lichess's 0.1, 0.2 and 0.3
// on its winning-chances scale (−1..1), i.e. 5, 10 and 15 percentage
// points.
const (
	InaccuracyDrop = 0.05
	MistakeDrop    = 0.10
	BlunderDrop    = 0.15
)

// winK is the slope of the logistic that turns centi-pawns into a win
// probability, lichess's: a 100-centi-pawn edge (a Pawn, a Man, a Light
// Tank) is about 59 %.
const winK = 0.00368208

// cpClamp bounds the centi-pawns fed to the logistic (as lichess does):
// beyond it the probability barely moves and search noise dominates.
const cpClamp = 1000

// TurningPoints is the number of turning points a review picks.
const TurningPoints = 3

// Class is the judgement of a move.
type Class int8

const (
	Good Class = iota // no judgement: within the inaccuracy threshold
	Inaccuracy
	Mistake
	Blunder
)

func (c Class) String() string {
	return [...]string{"good", "inaccuracy", "mistake", "blunder"}[c]
}

// Classify judges a drop in the mover's win probability (0..1).
func Classify(drop float64) Class {
	switch {
	case drop >= BlunderDrop:
		return Blunder
	case drop >= MistakeDrop:
		return Mistake
	case drop >= InaccuracyDrop:
		return Inaccuracy
	}
	return Good
}

// WinProbability is White's chance (0..1) for a score in centi-pawns from
// White's side; a forced result (|score| near ai.WinScore) is 0 or 1.
func WinProbability(whiteCP int) float64 {
	switch {
	case whiteCP >= ai.WinScore-1000:
		return 1
	case whiteCP <= -(ai.WinScore - 1000):
		return 0
	}
	cp := float64(max(-cpClamp, min(cpClamp, whiteCP)))
	return 1 / (1 + math.Exp(-winK*cp))
}

// MoveAccuracy is lichess's accuracy (0..100) of a move that took its
// player's win probability from before to after (0..1): 100 when it did not
// fall, else 103.1668·exp(−0.04354·d) − 3.1669 for a fall of d percentage
// points, plus lichess's bonus of 1 for the analysis's own imprecision.
func MoveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	d := 100 * (before - after)
	a := 103.1668*math.Exp(-0.04354*d) - 3.1669 + 1
	return max(0, min(100, a))
}

// forcedCP stands for a forced result in the drop of a player who is
// behind: a loss n plies away counts as 2000 − 50·n centi-pawns down (at
// least 1000), so that hastening it costs like losing material.
func forcedCP(score int) int {
	switch {
	case score >= ai.WinScore-1000:
		return 2000 - 50*min(20, ai.WinScore-score)
	case score <= -(ai.WinScore - 1000):
		return -(2000 - 50*min(20, ai.WinScore+score))
	}
	return score
}

// Drop is the fall of the mover's win probability (0..1, 0 when it rose)
// from a move whose position scored before (the best move's score) and
// after (the position it led to), both in centi-pawns from the mover's
// side. A mover who is ahead or level is judged by the fall of W itself,
// as lichess does. A mover who is behind is judged as if the position
// before were level (W(0) − W(after − before)): the logistic is flat there,
// and without this a player already losing could hang everything at no
// cost, while every move that keeps material keeps the chances of a
// comeback.
func Drop(before, after int) float64 {
	if before >= 0 {
		wb, wa := WinProbability(before), WinProbability(after)
		return max(0, wb-wa)
	}
	d := forcedCP(after) - forcedCP(before)
	return max(0, 0.5-WinProbability(max(-cpClamp, min(cpClamp, d))))
}

// GameAccuracy is a player's accuracy over a game, lichess's
// (AccuracyPercent.gameAccuracy): the mean of the volatility-weighted mean
// and the harmonic mean of the player's move accuracies. win is White's win
// probability (0..1) at each position of the judged stretch (len(acc)+1),
// acc the accuracy of each move from win[i] to win[i+1] and mine which of
// them are the player's. Each move's weight is the standard deviation of
// the win percentages in a window of the game around it (windows of
// len(acc)/10 positions, 2 to 8), bounded to 0.5..12: moves in calm
// stretches weigh little, moves where the game swings weigh much. The
// harmonic mean (each accuracy taken as at least 1) makes a few very bad
// moves pull the figure down hard. NaN when the player has no move.
func GameAccuracy(win []float64, acc []float64, mine []bool) float64 {
	n := len(acc)
	if n == 0 || len(win) != n+1 || len(mine) != n {
		return math.NaN()
	}
	ws := max(2, min(8, n/10))
	pct := make([]float64, len(win))
	for i, w := range win {
		pct[i] = 100 * w
	}
	var sumAW, sumW, sumInv float64
	moves := 0
	for i := range n {
		if !mine[i] {
			continue
		}
		// lichess pads the sliding windows at the start with copies of the
		// first window, so that there is one window per move.
		lo := max(0, i-ws+2)
		hi := min(len(pct), lo+ws)
		w := max(0.5, min(12, stdDev(pct[lo:hi])))
		sumAW += acc[i] * w
		sumW += w
		sumInv += 1 / max(1, acc[i])
		moves++
	}
	if moves == 0 {
		return math.NaN()
	}
	return (sumAW/sumW + float64(moves)/sumInv) / 2
}

// stdDev is the population standard deviation of xs.
func stdDev(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(xs)))
}

// Options bound a review.
type Options struct {
	// Nodes is the budget per position before the game's scaling (0:
	// DefaultNodes).
	Nodes int64
	// Progress, when set, is called after each position is evaluated
	// (done of total positions).
	Progress func(done, total int)
}

// Move is one reviewed move.
type Move struct {
	Ply      int // 1-based
	Side     engine.Side
	Notation string
	// Best is the engine's choice in the position before the move and
	// Line its principal variation (Best first). Empty when the position
	// was not searched (a planned phase).
	Best string
	Line []string
	// WinBefore and WinAfter are White's win probability before and
	// after the move.
	WinBefore, WinAfter float64
	// Drop is the fall of the mover's win probability that judges the
	// move (Drop: a mover who is behind is judged as if level), 0 when it
	// rose or the move was the engine's own choice.
	Drop float64
	// BestScore is the score (White's side) of the position after Best,
	// searched like every position: the move is judged by the fall from
	// it to the score after the move played (Score[Ply]), like for like.
	// It equals that score when the move played was Best.
	BestScore int
	// Swing is the fall of the mover's win probability on the graph
	// (WinBefore to WinAfter, 0 when it rose): turning points are the
	// largest swings.
	Swing    float64
	Class    Class
	Accuracy float64 // MoveAccuracy of Drop
	// Judged is false for moves of a planned phase (the Gungi draft),
	// which the review neither scores nor counts.
	Judged bool
}

// Player sums up one side.
type Player struct {
	Moves int // judged moves
	// Accuracy is the game's figure (GameAccuracy: volatility-weighted and
	// harmonic means of the move accuracies), 0 without a judged move.
	Accuracy                         float64
	Inaccuracies, Mistakes, Blunders int
}

// Review is a reviewed game.
type Review struct {
	Game  string
	Moves []Move
	// Win is White's win probability at each position: the start, then
	// after each move (len(Moves)+1).
	Win []float64
	// Score is the evaluation of each position in centi-pawns from
	// White's side (ai.WinScore-n for a forced win n plies away).
	Score        []int
	White, Black Player
	// Turning indexes Moves: the (at most TurningPoints) judged moves with
	// the largest drops among those the engine would have played
	// differently, in game order.
	Turning []int
	Nodes   int64 // nodes searched in all
}

// Analyze reviews the game of moves (canonical or any notation the game
// reads) from start. It stops with ctx's error when ctx ends.
func Analyze(ctx context.Context, start engine.Position, moves []string, opt Options) (*Review, error) {
	if start == nil {
		return nil, errors.New("review: no start position")
	}
	budget := opt.Nodes
	if budget <= 0 {
		budget = DefaultNodes
	}
	budget = ai.ScaleNodes(start, budget)
	pos := []engine.Position{start}
	var played []engine.Move
	p := start
	for i, n := range moves {
		m, err := p.ParseMove(n)
		if err != nil {
			return nil, fmt.Errorf("review: move %d %q: %w", i+1, n, err)
		}
		if p, err = p.Play(m); err != nil {
			return nil, fmt.Errorf("review: move %d %q: %w", i+1, n, err)
		}
		pos, played = append(pos, p), append(played, m)
	}
	_, repeatable := start.(engine.Repeatable)
	r := &Review{Game: start.Rules().Name(), Win: make([]float64, len(pos)), Score: make([]int, len(pos))}
	best := make([]ai.Result, len(pos))
	planned := make([]bool, len(pos))
	// bestScore[i] is the score (White's side) of the position after the
	// engine's move in position i, when the move played differs.
	bestScore, hasBest := make([]int, len(pos)), make([]bool, len(pos))
	for i, q := range pos {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if pl, ok := q.(engine.Planner); ok {
			if _, ok := pl.PlanMove(0); ok {
				// A planned phase (the Gungi draft): the armies are not
				// yet on the board, a search says little. Even.
				planned[i] = true
				r.Win[i] = 0.5
				if opt.Progress != nil {
					opt.Progress(i+1, len(pos))
				}
				continue
			}
		}
		var hist []engine.Position
		if repeatable {
			hist = pos[:i]
		}
		res, score, err := evaluate(ctx, q, hist, budget)
		if err != nil {
			return nil, fmt.Errorf("review: position %d: %w", i, err)
		}
		best[i] = res
		r.Nodes += res.Nodes
		r.Score[i] = score
		r.Win[i] = WinProbability(score)
		if i < len(played) && res.Move != nil && res.Notation != q.FormatMove(played[i]) {
			// The played move is judged against the engine's move by the
			// positions they lead to, each searched with the same budget:
			// the score before the move comes from a search one ply
			// shallower, and its horizon alone would make moves look
			// worse or better than they are.
			alt, err := q.Play(res.Move)
			if err != nil {
				return nil, fmt.Errorf("review: position %d: the engine's move %s: %w", i, res.Notation, err)
			}
			if repeatable {
				hist = pos[:i+1]
			}
			ar, as, err := evaluate(ctx, alt, hist, budget)
			if err != nil {
				return nil, fmt.Errorf("review: position %d after %s: %w", i, res.Notation, err)
			}
			r.Nodes += ar.Nodes
			bestScore[i], hasBest[i] = as, true
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(pos))
		}
	}
	for i, m := range played {
		q := pos[i]
		mv := Move{Ply: i + 1, Side: q.Turn(), Notation: q.FormatMove(m), WinBefore: r.Win[i], WinAfter: r.Win[i+1]}
		mv.Best, mv.Line = best[i].Notation, best[i].PV
		mv.Judged = !planned[i] && mv.Best != ""
		if mv.Judged {
			before, after := mv.WinBefore, mv.WinAfter
			sb, sa := r.Score[i+1], r.Score[i+1]
			if hasBest[i] {
				sb = bestScore[i]
			}
			mv.BestScore = sb
			if mv.Side == engine.Black {
				before, after = 1-before, 1-after
				sb, sa = -sb, -sa
			}
			mv.Swing = max(0, before-after)
			mv.Drop = Drop(sb, sa)
			mv.Class = Classify(mv.Drop)
			mv.Accuracy = MoveAccuracy(1, 1-mv.Drop)
			pl := &r.White
			if mv.Side == engine.Black {
				pl = &r.Black
			}
			pl.Moves++
			switch mv.Class {
			case Inaccuracy:
				pl.Inaccuracies++
			case Mistake:
				pl.Mistakes++
			case Blunder:
				pl.Blunders++
			}
		}
		r.Moves = append(r.Moves, mv)
	}
	r.White.Accuracy, r.Black.Accuracy = r.accuracies()
	r.Turning = turning(r.Moves)
	return r, nil
}

// accuracies are White's and Black's GameAccuracy over the judged
// stretch of the game (after the Gungi draft), 0 for a side without a
// judged move.
func (r *Review) accuracies() (white, black float64) {
	first := slices.IndexFunc(r.Moves, func(m Move) bool { return m.Judged })
	if first < 0 {
		return 0, 0
	}
	ms := r.Moves[first:]
	acc := make([]float64, len(ms))
	isWhite, isBlack := make([]bool, len(ms)), make([]bool, len(ms))
	for i, m := range ms {
		acc[i] = m.Accuracy
		isWhite[i] = m.Judged && m.Side == engine.White
		isBlack[i] = m.Judged && m.Side == engine.Black
	}
	win := r.Win[first : first+len(ms)+1]
	white, black = GameAccuracy(win, acc, isWhite), GameAccuracy(win, acc, isBlack)
	if math.IsNaN(white) {
		white = 0
	}
	if math.IsNaN(black) {
		black = 0
	}
	return white, black
}

// evaluate searches q (hist: the game's earlier positions) and returns the
// result and its score from White's side; a finished position scores its
// result and has no move.
func evaluate(ctx context.Context, q engine.Position, hist []engine.Position, budget int64) (ai.Result, int, error) {
	if st := q.Status(); st.Over() {
		return ai.Result{}, resultScore(st.Result), nil
	}
	// Level 2's settings without its noise and depth cap: no exact two-ply
	// pass (levels 3 and up), which in Tank Chess costs a quarter of a
	// million nodes before the search starts; the search's own iterations
	// see the same wins and losses.
	lim := ai.Limits{Level: 2, Noise: -1, MaxDepth: 63, Nodes: budget, MoveTime: 1 << 62, NoPlan: true, History: hist}
	res, err := ai.Think(ctx, q, lim)
	if err != nil {
		return res, 0, err
	}
	score := res.Score
	if q.Turn() == engine.Black {
		score = -score
	}
	return res, score, nil
}

// resultScore scores a finished position from White's side.
func resultScore(res engine.Result) int {
	switch res {
	case engine.WhiteWins:
		return ai.WinScore
	case engine.BlackWins:
		return -ai.WinScore
	}
	return 0
}

// turning picks, among the judged moves that are at least an inaccuracy
// and where the engine preferred another move, those with the largest
// swings, in game order.
func turning(ms []Move) []int {
	var idx []int
	for i, m := range ms {
		if m.Judged && m.Class != Good && m.Best != m.Notation {
			idx = append(idx, i)
		}
	}
	// The largest swings of the graph first; among equal swings (moves
	// in a lost position, whose swing is nil) the worst moves.
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(ms[b].Swing, ms[a].Swing); c != 0 {
			return c
		}
		return cmp.Compare(ms[b].Drop, ms[a].Drop)
	})
	idx = idx[:min(len(idx), TurningPoints)]
	slices.Sort(idx)
	return idx
}

// Comment is the annotation of move i: the evaluation after it, White's
// chances before and after, the judgement, and the engine's choice with
// its line when it differs.
func (r *Review) Comment(i int) string {
	m := r.Moves[i]
	if !m.Judged {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "eval %s, White %.0f %% -> %.0f %%", FormatScore(r.Score[i+1]), 100*m.WinBefore, 100*m.WinAfter)
	if m.Class != Good {
		fmt.Fprintf(&sb, "; %s (-%.0f)", m.Class, 100*m.Drop)
	}
	if m.Best != "" && m.Best != m.Notation {
		fmt.Fprintf(&sb, "; best %s", m.Best)
		if len(m.Line) > 1 {
			fmt.Fprintf(&sb, ", line %s", strings.Join(m.Line, " | "))
		}
	}
	return sb.String()
}

// FormatScore writes a White-side score in pawns ("+1.25", "-0.40") or a
// forced result ("+W5": White wins in 5 plies, "-W3": Black does).
func FormatScore(cp int) string {
	switch {
	case cp >= ai.WinScore-1000:
		return fmt.Sprintf("+W%d", ai.WinScore-cp)
	case cp <= -(ai.WinScore - 1000):
		return fmt.Sprintf("-W%d", ai.WinScore+cp)
	}
	return fmt.Sprintf("%+.2f", float64(cp)/100)
}

// Annotate returns a copy of rec (the reviewed game) with each judged
// move's comment and an Annotator tag naming the review's budget.
func (r *Review) Annotate(rec *record.Record, nodes int64) (*record.Record, error) {
	if len(rec.Moves) != len(r.Moves) {
		return nil, fmt.Errorf("review: the record has %d moves, the review %d", len(rec.Moves), len(r.Moves))
	}
	if nodes <= 0 {
		nodes = DefaultNodes
	}
	out := *rec
	out.Comments = make([]string, len(r.Moves))
	for i := range r.Moves {
		out.Comments[i] = r.Comment(i)
	}
	out.Tags = nil
	for _, kv := range rec.Tags {
		if !strings.EqualFold(kv[0], "Annotator") {
			out.Tags = append(out.Tags, kv)
		}
	}
	acc := fmt.Sprintf("tankbot review, %d nodes a position; accuracy White %.0f, Black %.0f", nodes, r.White.Accuracy, r.Black.Accuracy)
	out.Tags = append(out.Tags, [2]string{"Annotator", acc})
	return &out, nil
}
