// Package ai is tankbot's computer opponent: a game-independent
// alpha-beta search (iterative deepening, principal variation search,
// transposition table, killer and history move ordering, quiescence on
// captures) over the engine.Searcher each game provides, with five levels
// defined by node budgets and root noise so that strength does not depend on
// the machine's load. It is pure: no I/O, no clocks except the optional time
// cap, safe for concurrent use (every Think has its own tables).
package ai

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tankbot/tankbot/engine"
)

// Limits bound one search. Zero fields take the value of the level's
// LevelLimits; Level 0 means level 3.
type Limits struct {
	Level int // 1 (weakest) .. 5 (strongest)
	// MoveTime caps the wall time of the think, from Start: every phase
	// (the two-ply pass, each iteration, depth 1 of levels 3 and up) stops
	// at the deadline with the best move found so far. The node budget
	// decides the move whenever it runs out first, so results are
	// reproducible.
	MoveTime time.Duration
	// Nodes is the node budget (positions visited). The first iteration
	// (depth 1) always completes within the budget so that a win in one is
	// never missed; past the time cap, levels 3 and up rely on the two-ply
	// pass for that, which checks every move for a win at once.
	Nodes int64
	// MaxDepth caps the iterative deepening.
	MaxDepth int
	// Noise is the amplitude, in centi-pawns, of the random bonus each root
	// move gets; it makes weak levels blunder and varies play.
	Noise int
	// Seed drives the noise and any plan (Gungi draft): same seed, same
	// budget, same position gives the same move.
	Seed int64
	// ClockLeft, when positive, is the player's remaining clock time: the
	// search then uses at most 1/30 of it.
	ClockLeft time.Duration
	// History lists earlier positions of the game (oldest first, the
	// current one excluded) for games with a repetition rule: the search
	// scores a return to any of them as a draw.
	History []engine.Position
	// NoPlan searches even where the game would play by plan (the Gungi
	// draft) or from the opening book, so that every position gets a
	// score (the game review).
	NoPlan bool
	// Start is when the think request began (zero: when Think is called):
	// the time cap counts from it, so that loading the game and building
	// its history before Think are inside the promise.
	Start time.Time
	// Now reads the clock (nil: time.Now); tests inject a fake one.
	Now func() time.Time
}

// Result is what the search found.
type Result struct {
	Move     engine.Move
	Notation string   // canonical notation of Move
	Score    int      // centi-pawns for the side to move; ±WinScore-ply for a forced result
	Depth    int      // last completed iteration
	Nodes    int64    // positions visited
	PV       []string // principal variation in notation, Move first
	Elapsed  time.Duration
	Planned  bool // the move came from the game's plan (Gungi draft), not search
	Book     bool // the move came from the opening book (levels 3 and up), not search
	Phases   Phases
	// Cut says the deadline stopped a phase that is normally complete:
	// the two-ply safety pass (some moves were not checked against the
	// opponent's win at once) or depth 1 (not every root move searched).
	Cut bool
}

// Phases is where a Think's wall time went, from Limits.Start (a debug
// stat: the think-cap benchmark reports the largest of each).
type Phases struct {
	Setup     time.Duration // before the search: status, plan, history, root moves and their order
	Immediate time.Duration // the two-ply safety pass
	Search    time.Duration // iterative deepening
	Finish    time.Duration // principal variation and notation
	// Stall is the longest wall time between two looks at the clock in
	// the pass and the search (checkEvery nodes, well under a millisecond
	// of work): far more than that is time the thread waited for a core.
	Stall time.Duration
}

// WinScore is the score of a won position; a win n plies away scores
// WinScore-n.
const WinScore = 100000

// Levels is the number of levels.
const Levels = 5

// LevelLimits returns the budget of a level (clamped to 1..5); the node
// budgets are scaled per game (LevelScaler: Tank Chess ×3, Camelot ×4,
// Gungi ×4):
//
//	level  nodes      depth  noise  time cap
//	1      300        1      200    0.5 s
//	2      2 000      2      60     1 s
//	3      10 000     63     15     1.4 s
//	4      35 000     63     5      1.5 s
//	5      100 000    63     0      1.5 s
//
// The time caps leave a margin under the 2 s bound for the exact two-ply
// pass and the scheduler of a loaded machine (with a 1.8 s cap, moves of
// 2.0–2.4 s were seen on an overloaded machine).
//
// Level 1 looks one move ahead with heavy noise (it takes free material
// mostly, but often blunders); levels 3 and up always finish depth 1 and see
// every win in one and, within their budget, every threat of loss in one.
func LevelLimits(level int) Limits {
	level = max(1, min(Levels, level))
	t := [...]Limits{
		{Nodes: 300, MaxDepth: 1, Noise: 200, MoveTime: 500 * time.Millisecond},
		{Nodes: 2000, MaxDepth: 2, Noise: 60, MoveTime: time.Second},
		{Nodes: 10000, MaxDepth: maxPly - 1, Noise: 15, MoveTime: 1400 * time.Millisecond},
		{Nodes: 35000, MaxDepth: maxPly - 1, Noise: 5, MoveTime: 1500 * time.Millisecond},
		{Nodes: 100000, MaxDepth: maxPly - 1, Noise: 0, MoveTime: 1500 * time.Millisecond},
	}[level-1]
	t.Level = level
	return t
}

// NodeScaler is implemented by searchers whose nodes cost much less or
// more than the average game's: the level budgets (not an explicit
// Limits.Nodes) are multiplied by NodeScale, so that each level takes
// similar time in every game and the node budget, not the time cap,
// decides the move.
type NodeScaler interface {
	NodeScale() float64
}

// LevelScaler is implemented by searchers whose level budgets grow beyond
// NodeScale: issue 45 made the Camelot and Gungi searches several times
// faster, and their levels now spend that speed on more nodes within the
// same time cap, while callers with budgets of their own (the game
// review, the puzzle miner: ScaleNodes) keep NodeScale and their cost.
type LevelScaler interface {
	LevelScale() float64
}

// levelScale is the multiplier of the level budgets for searcher s.
func levelScale(s engine.Searcher) float64 {
	if sc, ok := s.(LevelScaler); ok {
		return sc.LevelScale()
	}
	if sc, ok := s.(NodeScaler); ok {
		return sc.NodeScale()
	}
	return 1
}

// ScaleNodes scales a node budget n like the level budgets for pos's game
// (NodeScaler), for callers that choose their own budget per game.
func ScaleNodes(pos engine.Position, n int64) int64 {
	if sp, ok := pos.(engine.Searchable); ok {
		if sc, ok := sp.NewSearcher().(NodeScaler); ok {
			return max(1, int64(float64(n)*sc.NodeScale()))
		}
	}
	return n
}

// resolve fills the zero fields of l from its level.
func (l Limits) resolve() Limits {
	if l.Level == 0 {
		l.Level = 3
	}
	d := LevelLimits(l.Level)
	if l.MoveTime == 0 {
		l.MoveTime = d.MoveTime
	}
	if l.Nodes == 0 {
		l.Nodes = d.Nodes
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.Noise == 0 {
		l.Noise = d.Noise
	}
	if l.Noise < 0 {
		l.Noise = 0
	}
	l.MaxDepth = min(l.MaxDepth, maxPly-1)
	if l.ClockLeft > 0 {
		l.MoveTime = min(l.MoveTime, max(l.ClockLeft/30, 10*time.Millisecond))
	}
	return l
}

// ErrGameOver is returned for a position without legal moves.
var ErrGameOver = errors.New("ai: the game is over")

// Think chooses a move for the side to move of pos. It returns ErrGameOver
// for a finished game and ctx's error if ctx ends before depth 1 is done.
func Think(ctx context.Context, pos engine.Position, lim Limits) (Result, error) {
	now := lim.Now
	if now == nil {
		now = time.Now
	}
	start := lim.Start
	if start.IsZero() {
		start = now()
	}
	nodesGiven := lim.Nodes != 0
	lim = lim.resolve()
	if pos.Status().Over() {
		return Result{}, ErrGameOver
	}
	if pl, ok := pos.(engine.Planner); ok && !lim.NoPlan {
		if m, ok := pl.PlanMove(lim.Seed); ok {
			n := pos.FormatMove(m)
			e := now().Sub(start)
			return Result{Move: m, Notation: n, PV: []string{n}, Elapsed: e, Planned: true, Phases: Phases{Setup: e}}, nil
		}
	}
	if lim.Level >= BookMinLevel && !lim.NoPlan {
		if m, ok := BookMove(pos, lim.Seed); ok {
			n := pos.FormatMove(m)
			e := now().Sub(start)
			return Result{Move: m, Notation: n, PV: []string{n}, Elapsed: e, Book: true, Phases: Phases{Setup: e}}, nil
		}
	}
	sp, ok := pos.(engine.Searchable)
	if !ok {
		return Result{}, fmt.Errorf("ai: %s positions cannot be searched", pos.Rules().Name())
	}
	sr := sp.NewSearcher()
	if !nodesGiven {
		lim.Nodes = max(1, int64(float64(lim.Nodes)*levelScale(sr)))
	}
	s := newSearch(ctx, sr, lim, start, now)
	if _, rep := pos.(engine.Repeatable); rep {
		s.repetition = true
		for _, h := range lim.History {
			if hs, ok := h.(engine.Searchable); ok {
				s.path = append(s.path, hs.NewSearcher().Hash())
			}
		}
	}
	res, err := s.run()
	if err != nil {
		return Result{}, err
	}
	res.Notation = pos.FormatMove(res.Move)
	res.Elapsed = now().Sub(start)
	res.Phases.Finish = res.Elapsed - res.Phases.Setup - res.Phases.Immediate - res.Phases.Search
	return res, nil
}

// GameHistory lists the positions of g before the current one, oldest
// first, for Limits.History. It is nil for games without a repetition rule.
func GameHistory(g *engine.Game) []engine.Position {
	if _, ok := g.Position().(engine.Repeatable); !ok {
		return nil
	}
	out := make([]engine.Position, 0, g.Ply())
	p := g.Start()
	for _, n := range g.Moves() {
		out = append(out, p)
		m, err := p.ParseMove(n)
		if err != nil {
			return out[:len(out)-1] // cannot happen for a game's own notation
		}
		if p, err = p.Play(m); err != nil {
			return out[:len(out)-1]
		}
	}
	return out
}
