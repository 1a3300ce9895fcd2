package ai

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tankbot/tankbot/engine"
)

// Player chooses moves in an arena match.
type Player interface {
	// Name is the player's spec ("ai:3", "random", "greedy").
	Name() string
	// Choose returns a legal move of pos; history lists the game's earlier
	// positions (oldest first) and seed varies the choice reproducibly.
	Choose(ctx context.Context, pos engine.Position, history []engine.Position, seed int64) (engine.Move, error)
}

// ParsePlayer reads a player spec: "ai:N" (level 1..5), "random" (a
// uniform legal move) or "greedy" (the best move one ply deep by outcome
// and static evaluation). nodes and moveTime, when non-zero, override the
// AI level's node budget and time cap.
func ParsePlayer(spec string, nodes int64, moveTime time.Duration) (Player, error) {
	s := strings.ToLower(strings.TrimSpace(spec))
	switch {
	case s == "random":
		return randomPlayer{}, nil
	case s == "greedy":
		return greedyPlayer{}, nil
	case strings.HasPrefix(s, "ai:"):
		n, err := strconv.Atoi(s[3:])
		if err != nil || n < 1 || n > Levels {
			return nil, fmt.Errorf("player %q: the level must be 1 to %d", spec, Levels)
		}
		return aiPlayer{name: s, lim: Limits{Level: n, Nodes: nodes, MoveTime: moveTime}, stats: new(SearchStats)}, nil
	}
	return nil, fmt.Errorf("unknown player %q (want ai:1 .. ai:%d, random or greedy)", spec, Levels)
}

type aiPlayer struct {
	name  string
	lim   Limits
	stats *SearchStats
}

// SearchStats sums what an AI player's searches reached over a match
// (searched moves only: not book or planned ones): at the time cap, how
// deep each side got is what decides a match between two builds.
type SearchStats struct {
	mu       sync.Mutex
	Moves    int   // searched moves
	Depth    int64 // sum of the completed depths
	Nodes    int64 // sum of the nodes visited
	MinDepth int   // shallowest completed depth (0 before any move)
}

// Add counts one searched move.
func (s *SearchStats) Add(depth int, nodes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Moves == 0 || depth < s.MinDepth {
		s.MinDepth = depth
	}
	s.Moves++
	s.Depth += int64(depth)
	s.Nodes += nodes
}

// Snapshot returns a copy of the counts, safe to read.
func (s *SearchStats) Snapshot() SearchStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return SearchStats{Moves: s.Moves, Depth: s.Depth, Nodes: s.Nodes, MinDepth: s.MinDepth}
}

// Searcher is implemented by arena players that search (the AI levels,
// and another build's over the engine protocol): their SearchStats.
type Searcher interface {
	Stats() SearchStats
}

// Stats implements Searcher.
func (p aiPlayer) Stats() SearchStats { return p.stats.Snapshot() }

func (p aiPlayer) Name() string { return p.name }

func (p aiPlayer) Choose(ctx context.Context, pos engine.Position, history []engine.Position, seed int64) (engine.Move, error) {
	lim := p.lim
	lim.Seed = seed
	lim.History = history
	r, err := Think(ctx, pos, lim)
	if err != nil {
		return nil, err
	}
	if !r.Book && !r.Planned && p.stats != nil {
		p.stats.Add(r.Depth, r.Nodes)
	}
	return r.Move, nil
}

type randomPlayer struct{}

func (randomPlayer) Name() string { return "random" }

func (randomPlayer) Choose(_ context.Context, pos engine.Position, _ []engine.Position, seed int64) (engine.Move, error) {
	ms := pos.LegalMoves()
	if len(ms) == 0 {
		return nil, ErrGameOver
	}
	return ms[rand.New(rand.NewPCG(uint64(seed), 1)).IntN(len(ms))], nil
}

type greedyPlayer struct{}

func (greedyPlayer) Name() string { return "greedy" }

// Choose takes a win at once, else the move after which the opponent's
// static evaluation is lowest (ties at random). In a planned phase (the
// Gungi draft) it follows the plan, like the AI.
func (greedyPlayer) Choose(_ context.Context, pos engine.Position, _ []engine.Position, seed int64) (engine.Move, error) {
	if pl, ok := pos.(engine.Planner); ok {
		if m, ok := pl.PlanMove(seed); ok {
			return m, nil
		}
	}
	sp, ok := pos.(engine.Searchable)
	if !ok {
		return nil, fmt.Errorf("greedy: %s positions cannot be searched", pos.Rules().Name())
	}
	s := sp.NewSearcher()
	n := s.Generate()
	if n == 0 {
		return nil, ErrGameOver
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 2))
	me := s.Turn()
	best, bestScore, ties := 0, math.MinInt, 0
	for i := range n {
		s.Make(i)
		var v int
		switch r := s.Over(); r {
		case engine.Ongoing:
			if s.Generate() == 0 {
				v = resultFor(s.NoMoves(), me)
			} else {
				v = -s.Evaluate()
			}
		default:
			v = resultFor(r, me)
		}
		s.Unmake()
		switch {
		case v > bestScore:
			best, bestScore, ties = i, v, 1
		case v == bestScore:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return s.Move(best), nil
}

func resultFor(r engine.Result, me engine.Side) int {
	switch r {
	case engine.WhiteWins, engine.BlackWins:
		if (r == engine.WhiteWins) == (me == engine.White) {
			return WinScore
		}
		return -WinScore
	}
	return 0
}

// Match is an arena match between players A and B, who alternate colours:
// A has White in games 0, 2, 4, ... Each pair of games starts from the same
// opening (OpeningPlies uniformly random plies, seeded), so colour and
// opening luck cancel out.
type Match struct {
	Rules        engine.Rules
	Variant      string // "" for the game's default
	A, B         Player
	Games        int
	Seed         int64
	OpeningPlies int // random plies at the start of each game (planned phases excluded)
	// MaxPly adjudicates a game still running after that many plies as a
	// draw (0: DefaultMaxPly).
	MaxPly int
	// Concurrent is the number of games played at the same time (0 or 1:
	// one after the other). Several games measure think times while
	// other searches compete for the cores, as on a busy bot.
	Concurrent int
	// Progress, when set, is called after each game (never concurrently).
	Progress func(done, total int, r MatchResult)
	// Finished, when set, is given each game when it ends (0-based index,
	// the players' names by colour), e.g. to write its record. It is
	// called before Progress, never concurrently.
	Finished func(game int, white, black string, g *engine.Game)
	// Known, when set, gives games already played (e.g. read back from
	// the records of a run cut short): such a game is counted as given
	// and not played again. Game gi depends only on Seed and gi, so a
	// match resumed this way scores as one played in a single run.
	Known func(game int) (MatchResult, bool)
}

// GameResult scores one finished (or ply-capped, when o is not over) game
// gi of a match, from A's point of view: A is White in even games.
func GameResult(gi int, o engine.Outcome, plies int) MatchResult {
	res := MatchResult{Plies: plies}
	w, ok := o.Winner()
	switch {
	case !o.Over():
		res.Draws++
		res.Adjudicated++
	case !ok:
		res.Draws++
	case (w == engine.White) == (gi%2 == 0):
		res.Wins++
	default:
		res.Losses++
	}
	return res
}

// DefaultMaxPly is the ply cap of arena games: far beyond the length of
// decided games in self-play, so only shuffling games are cut.
const DefaultMaxPly = 400

// ThinkStats are one player's think times.
type ThinkStats struct {
	Moves int
	Total time.Duration
	Max   time.Duration
	times []time.Duration
}

// Quantile is the q-quantile (0..1) of the think times (nearest rank).
func (t ThinkStats) Quantile(q float64) time.Duration {
	if len(t.times) == 0 {
		return 0
	}
	s := slices.Clone(t.times)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(len(s)-1, i))]
}

// Over counts the moves that took longer than d.
func (t ThinkStats) Over(d time.Duration) int {
	n := 0
	for _, x := range t.times {
		if x > d {
			n++
		}
	}
	return n
}

func (t *ThinkStats) merge(o ThinkStats) {
	t.Moves += o.Moves
	t.Total += o.Total
	t.Max = max(t.Max, o.Max)
	t.times = append(t.times, o.times...)
}

// Mean is the mean think time per move.
func (t ThinkStats) Mean() time.Duration {
	if t.Moves == 0 {
		return 0
	}
	return t.Total / time.Duration(t.Moves)
}

func (t *ThinkStats) add(d time.Duration) {
	t.Moves++
	t.Total += d
	t.Max = max(t.Max, d)
	t.times = append(t.times, d)
}

// MatchResult counts games from A's point of view.
type MatchResult struct {
	Wins, Draws, Losses int
	Adjudicated         int // games drawn at the ply cap
	Plies               int // plies played in all games
	ThinkA, ThinkB      ThinkStats
}

// Games is the number of games played.
func (r MatchResult) Games() int { return r.Wins + r.Draws + r.Losses }

// Score is A's score fraction (a draw counts half).
func (r MatchResult) Score() float64 {
	if r.Games() == 0 {
		return 0
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games())
}

// Elo is A's Elo difference over B with a 95 % confidence interval (from
// the standard error of the per-game score). A perfect or null score gives
// an infinite estimate; the interval bound on the other side stays finite.
func (r MatchResult) Elo() (diff, lo, hi float64) {
	n := float64(r.Games())
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	p := r.Score()
	dev := (float64(r.Wins)*(1-p)*(1-p) + float64(r.Draws)*(0.5-p)*(0.5-p) + float64(r.Losses)*p*p) / n
	se := math.Sqrt(dev / n)
	if se == 0 {
		// Every game the same result: use the interval of one game the
		// other way (a conservative bound).
		se = 1 / n
	}
	return elo(p), elo(p - 1.96*se), elo(p + 1.96*se)
}

func elo(p float64) float64 {
	switch {
	case p >= 1:
		return math.Inf(1)
	case p <= 0:
		return math.Inf(-1)
	}
	return -400 * math.Log10(1/p-1)
}

// Play runs the match. When ctx ends it returns the games finished so far
// (a game cut short is not counted) with ctx's error.
func (m Match) Play(parent context.Context) (MatchResult, error) {
	var (
		res  MatchResult
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		done int
	)
	next := make(chan int)
	workers := max(1, min(m.Concurrent, m.Games))
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for gi := range next {
				g, game, err := m.playGame(ctx, gi)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
					cancel()
				} else {
					if m.Finished != nil {
						white, black := m.A, m.B
						if gi%2 == 1 {
							white, black = m.B, m.A
						}
						m.Finished(gi, white.Name(), black.Name(), game)
					}
					res.add(g)
					done++
					if m.Progress != nil {
						m.Progress(done, m.Games, res)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for gi := 0; gi < m.Games; gi++ {
		if m.Known != nil {
			if g, ok := m.Known(gi); ok {
				mu.Lock()
				res.add(g)
				done++
				if m.Progress != nil {
					m.Progress(done, m.Games, res)
				}
				mu.Unlock()
				continue
			}
		}
		select {
		case next <- gi:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := parent.Err(); err != nil {
		return res, err
	}
	if len(errs) > 0 {
		return res, errs[0]
	}
	return res, nil
}

func (r *MatchResult) add(g MatchResult) {
	r.Wins += g.Wins
	r.Draws += g.Draws
	r.Losses += g.Losses
	r.Adjudicated += g.Adjudicated
	r.Plies += g.Plies
	r.ThinkA.merge(g.ThinkA)
	r.ThinkB.merge(g.ThinkB)
}

// playGame plays game gi (0-based) of the match; the result counts it from
// A's point of view.
func (m Match) playGame(ctx context.Context, gi int) (MatchResult, *engine.Game, error) {
	var res MatchResult
	maxPly := m.MaxPly
	if maxPly <= 0 {
		maxPly = DefaultMaxPly
	}
	if err := ctx.Err(); err != nil {
		return res, nil, err
	}
	start, err := m.Rules.Start(m.Variant)
	if err != nil {
		return res, nil, err
	}
	g := engine.NewGame(start)
	white, black := m.A, m.B
	tw, tb := &res.ThinkA, &res.ThinkB
	if gi%2 == 1 {
		white, black, tw, tb = m.B, m.A, &res.ThinkB, &res.ThinkA
	}
	openSeed := m.Seed*7919 + int64(gi/2)
	opening := rand.New(rand.NewPCG(uint64(openSeed), 3))
	random := 0
	var history []engine.Position
	for g.Ply() < maxPly && !g.Outcome().Over() {
		if err := ctx.Err(); err != nil {
			return res, nil, err // cut short: not counted
		}
		pos := g.Position()
		planned := false
		if pl, ok := pos.(engine.Planner); ok {
			_, planned = pl.PlanMove(0)
		}
		var mv engine.Move
		if !planned && random < m.OpeningPlies {
			ms := pos.LegalMoves()
			mv = ms[opening.IntN(len(ms))]
			random++
		} else {
			p, t := white, tw
			if pos.Turn() == engine.Black {
				p, t = black, tb
			}
			seed := m.Seed*1_000_003 + int64(gi)*10_007 + int64(g.Ply())
			t0 := time.Now()
			mv, err = p.Choose(ctx, pos, history, seed)
			t.add(time.Since(t0))
			if err != nil {
				return res, nil, fmt.Errorf("game %d ply %d, %s: %w", gi+1, g.Ply()+1, p.Name(), err)
			}
		}
		if err := g.Play(mv); err != nil {
			return res, nil, fmt.Errorf("game %d ply %d: %w", gi+1, g.Ply()+1, err)
		}
		history = append(history, pos)
	}
	r := GameResult(gi, g.Outcome(), g.Ply())
	r.ThinkA, r.ThinkB = res.ThinkA, res.ThinkB
	return r, g, nil
}
