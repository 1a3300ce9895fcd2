package ai

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/tankbot/tankbot/engine"
)

const (
	maxPly  = 64
	inf     = 1 << 30
	ttBits  = 16
	qsDepth = 4 // plies of captures after the horizon
	winMin  = WinScore - 1000
	// deltaMargin is how much more than a capture's gain the position
	// may swing besides (positional terms) before quiescence gives the
	// capture up as unable to reach alpha.
	deltaMargin = 200
)

// Quiescer is implemented by searchers whose captures are too costly to
// generate at every leaf (Tank Chess: a full generation per node); it says
// how many plies of quiescence pay.
type Quiescer interface {
	QuiescencePlies() int
}

// GainGenerator is implemented by searchers that can list the moves with
// a Gain alone much faster than every move (Gungi: most moves are drops,
// none a capture). Quiescence then generates only those: GenerateGains
// fills the current node's list with the moves that have Gain > 0, in
// the order Generate gives them, and returns how many, or -1 when the
// side to move has no legal move at all; the search is the same.
type GainGenerator interface {
	GenerateGains() int
}

type bound uint8

const (
	boundExact bound = iota + 1
	boundLower
	boundUpper
)

type ttEntry struct {
	hash  uint64
	move  uint32 // Key of the best move + 1; 0 none
	score int32
	depth int8
	bound bound
}

type search struct {
	ctx        context.Context
	s          engine.Searcher
	lim        Limits
	deadline   time.Time
	now        func() time.Time
	start      time.Time
	nodes      int64 // search nodes, charged against Limits.Nodes
	checked    int64 // nodes of the two-ply pass (immediate), not charged
	nextCheck  int64 // nodes+checked at which the clock is read next
	lastLook   time.Time
	stopped    bool
	late       bool // the deadline has passed (quiescence is off)
	depth1Done bool
	cutDepth1  bool // the deadline may cut depth 1 (the two-ply pass found wins at once)
	cut        bool // the deadline cut the two-ply pass or depth 1
	phases     Phases
	tt         []ttEntry
	killers    [maxPly][2]uint32
	history    [1 << 14]int32
	repetition bool
	history0   map[uint64]bool
	path       []uint64
	order      [maxPly][]scored
	qplies     int
	noise      []int
	gains      GainGenerator // s's, when it has one
}

type scored struct {
	i     int
	score int
}

func newSearch(ctx context.Context, s engine.Searcher, lim Limits, start time.Time, now func() time.Time) *search {
	q := qsDepth
	if qq, ok := s.(Quiescer); ok {
		q = qq.QuiescencePlies()
	}
	gains, _ := s.(GainGenerator)
	return &search{
		ctx: ctx, s: s, lim: lim, deadline: searchDeadline(start, lim.MoveTime), now: now, start: start,
		tt: make([]ttEntry, 1<<ttBits), qplies: q, gains: gains,
	}
}

// searchDeadline is when the search stops so that Think returns within
// moveTime of start: the cap is a wall-clock promise to the caller, who
// still formats, checks and stores the move, and a loaded machine
// deschedules a search for tens of milliseconds at a time (moves of 1.6–1.8 s
// were measured against a 1.5 s cap with the search stopping right at the
// cap, two games thinking at once on two busy cores). The search keeps a
// fifth of the cap (at least 50 ms, at most half of it) as margin.
func searchDeadline(start time.Time, moveTime time.Duration) time.Time {
	margin := max(moveTime/5, min(50*time.Millisecond, moveTime/2))
	return start.Add(moveTime - margin)
}

// checkEvery is how many nodes (of the search and of the two-ply pass)
// pass between two looks at the clock and ctx: 64 nodes are well under a
// millisecond in every game, while a clock read per node would cost
// several per cent. The count is a threshold, not a multiple: quiescence
// counts several nodes between two calls of stop, and a test of
// nodes%64 == 0 skipped the look whenever it stepped over a multiple.
const checkEvery = 64

// clock reads the clock when checkEvery nodes have passed since the last
// look and says whether the deadline has passed (sticky).
func (s *search) clock() bool {
	if w := s.nodes + s.checked; w >= s.nextCheck {
		s.nextCheck = w + checkEvery
		t := s.now()
		if !s.lastLook.IsZero() {
			s.phases.Stall = max(s.phases.Stall, t.Sub(s.lastLook))
		}
		s.lastLook = t
		s.late = s.late || !t.Before(s.deadline)
	}
	return s.late
}

// stop reports whether the search must end now. The budget binds only after
// depth 1; the time cap and ctx always bind, except that depth 1 of levels
// 1 and 2 (which have no two-ply pass) completes past the deadline, without
// quiescence, to see every win in one. A cancelled depth 1 ends with an
// error rather than a half-searched move.
func (s *search) stop() bool {
	if s.stopped {
		return true
	}
	if s.depth1Done && s.nodes >= s.lim.Nodes {
		s.stopped = true
	} else if w := s.nodes + s.checked; w >= s.nextCheck {
		late := s.clock()
		if s.ctx.Err() != nil || (late && (s.depth1Done || s.cutDepth1)) {
			s.stopped = true
		}
	}
	return s.stopped
}

// resultScore scores a finished game for the side to move at ply.
func (s *search) resultScore(r engine.Result, ply int) int {
	switch r {
	case engine.Draw:
		return 0
	case engine.WhiteWins, engine.BlackWins:
		won := (r == engine.WhiteWins) == (s.s.Turn() == engine.White)
		if won {
			return WinScore - ply
		}
		return -(WinScore - ply)
	}
	return 0
}

func (s *search) run() (Result, error) {
	if s.repetition {
		s.history0 = make(map[uint64]bool, len(s.path))
		for _, h := range s.path {
			s.history0[h] = true
		}
		s.path = s.path[:0]
	}
	n := s.s.Generate()
	if n == 0 {
		return Result{}, ErrGameOver
	}
	rng := rand.New(rand.NewPCG(uint64(s.lim.Seed), 0x7a6b))
	s.noise = make([]int, n)
	keys := make([]uint32, n)
	root := make([]scored, n)
	for i := range n {
		if s.lim.Noise > 0 {
			s.noise[i] = rng.IntN(2*s.lim.Noise+1) - s.lim.Noise
		}
		keys[i] = s.s.Key(i)
		root[i] = scored{i, s.s.Gain(i)*16 + s.noise[i]}
	}
	sortScored(root)
	t := s.now()
	s.phases.Setup = t.Sub(s.start)
	if s.lim.Level >= 3 {
		var win int
		root, _, win = s.immediate(root)
		t2 := s.now()
		s.phases.Immediate = t2.Sub(t)
		t = t2
		if win >= 0 {
			return Result{Move: s.s.Move(win), Score: WinScore - 1, Depth: 1, Nodes: s.checked, PV: []string{moveNotation(s.s, win)}, Phases: s.phases, Cut: s.cut}, nil
		}
		// The pass saw every win at once, so depth 1 need not complete
		// past the deadline: its best move so far, or the first move the
		// pass proved safe, stands.
		s.cutDepth1 = true
	}
	res := Result{Move: s.s.Move(root[0].i)}
	best := root[0].i
	bestScore := -inf
	s.path = append(s.path, s.s.Hash())
	for depth := 1; depth <= s.lim.MaxDepth; depth++ {
		alpha := -inf
		iterBest, iterScore := -1, -inf
		for k := range root {
			i := root[k].i
			s.s.Make(i)
			var v int
			if k == 0 {
				v = -s.negamax(depth-1, 1, -inf, -alpha+s.noise[i]) + s.noise[i]
			} else {
				v = -s.negamax(depth-1, 1, -alpha-1+s.noise[i], -alpha+s.noise[i]) + s.noise[i]
				if v > alpha && !s.stopped {
					v = -s.negamax(depth-1, 1, -inf, -alpha+s.noise[i]) + s.noise[i]
				}
			}
			s.s.Unmake()
			if s.stopped {
				break
			}
			root[k].score = v
			if v > alpha {
				alpha, iterBest, iterScore = v, i, v
			} else {
				root[k].score = v - 1 // fails low: keep it behind
			}
			if (s.depth1Done || s.cutDepth1) && !s.now().Before(s.deadline) {
				s.late, s.stopped = true, true // between root moves: a few per node check
				break
			}
		}
		if s.stopped && depth == 1 {
			if err := s.ctx.Err(); err != nil || !s.cutDepth1 {
				return Result{}, err
			}
			s.cut = true
		}
		if iterBest >= 0 {
			best, bestScore = iterBest, iterScore
			res.Move = s.s.Move(best)
		}
		if s.stopped {
			break
		}
		res.Depth = depth
		s.depth1Done = true
		s.store(s.s.Hash(), depth, bestScore, boundExact, keys[best])
		sortScored(root)
		if bestScore >= winMin || bestScore <= -winMin {
			break // a forced result: deeper search cannot change it
		}
		if s.stop() {
			break
		}
	}
	if bestScore == -inf {
		bestScore = root[0].score / 16 // depth 1 cut before any move: the order's gain
	}
	res.Score = bestScore
	res.Nodes = s.nodes + s.checked
	s.phases.Search = s.now().Sub(t)
	res.PV = s.pv(best)
	res.Phases, res.Cut = s.phases, s.cut
	return res, nil
}

// immediate is an exact two-ply pass over immediate outcomes: it returns a
// root move that wins at once (or -1), and the root moves without the ones
// after which the opponent wins at once, unless every move loses so; the
// first proven of them were checked (all of them unless the deadline cut
// the pass).
//
// Its nodes are counted apart (s.checked), not against the node budget:
// it visits up to moves² positions (about 250 000 in Tank Chess, 70 000
// in a Gungi position with drops), which used to exhaust the budgets of
// levels 3 and 4 — and in such Gungi positions level 5's — before the
// search proper, so those levels all played depth 1 and alike. The pass
// is cheap per node (make, outcome, unmake: no evaluation), about 20 ms
// in Tank Chess on an idle core.
//
// The pass is bounded by the deadline too (the clock is read every
// checkEvery nodes, as in the search): it cost up to 0.4 s in Gungi
// (hundreds of drops, each answered by hundreds) on a loaded machine. Once
// the deadline has passed, the remaining moves are still checked for a win
// at once (one make each) but no longer for the opponent's: they are kept,
// after every move proved safe, so that a search cut at depth 1 plays a
// checked move when there is one (Result.Cut reports the cut pass).
func (s *search) immediate(root []scored) (moves []scored, proven, win int) {
	me := s.s.Turn()
	safe := make([]scored, 0, len(root))
	var unchecked []scored
	for _, r := range root {
		s.s.Make(r.i)
		s.checked++
		res := s.s.Over()
		lost, checked := false, res != engine.Ongoing || !s.clock()
		if res == engine.Ongoing && checked {
			n := s.s.Generate()
			if n == 0 {
				res = s.s.NoMoves()
			}
			for j := 0; j < n && !lost; j++ {
				if s.clock() {
					checked = false
					break
				}
				s.s.Make(j)
				s.checked++
				if o := s.s.Over(); o != engine.Ongoing && o != engine.Draw {
					lost = (o == engine.WhiteWins) != (me == engine.White)
				}
				s.s.Unmake()
			}
		}
		s.s.Unmake()
		if res != engine.Ongoing && res != engine.Draw && (res == engine.WhiteWins) == (me == engine.White) {
			return root, 0, r.i
		}
		switch {
		case !checked:
			unchecked = append(unchecked, r)
		case !lost:
			safe = append(safe, r)
		}
	}
	if len(unchecked) > 0 {
		s.cut = true
	}
	proven = len(safe)
	safe = append(safe, unchecked...)
	if len(safe) == 0 {
		return root, 0, -1
	}
	return safe, proven, -1
}

// pv follows the transposition table from the root's best move.
func (s *search) pv(best int) []string {
	var out []string
	out = append(out, moveNotation(s.s, best))
	s.s.Make(best)
	made := 1
	for made < 12 {
		if s.s.Over() != engine.Ongoing {
			break
		}
		e := s.probe(s.s.Hash())
		if e == nil || e.move == 0 {
			break
		}
		n := s.s.Generate()
		i := -1
		for j := range n {
			if s.s.Key(j)+1 == e.move {
				i = j
				break
			}
		}
		if i < 0 {
			break
		}
		out = append(out, moveNotation(s.s, i))
		s.s.Make(i)
		made++
	}
	for ; made > 0; made-- {
		s.s.Unmake()
	}
	return out
}

// moveNotation formats move i of the current list through the searcher's
// exported move.
func moveNotation(s engine.Searcher, i int) string {
	m := s.Move(i)
	if st, ok := m.(interface{ String() string }); ok {
		return st.String()
	}
	return "?"
}

func (s *search) probe(h uint64) *ttEntry {
	e := &s.tt[h&(1<<ttBits-1)]
	if e.hash != h || e.bound == 0 {
		return nil
	}
	return e
}

func (s *search) store(h uint64, depth, score int, b bound, key uint32) {
	e := &s.tt[h&(1<<ttBits-1)]
	if e.hash == h && int(e.depth) > depth && b != boundExact {
		return
	}
	*e = ttEntry{hash: h, move: key + 1, score: int32(score), depth: int8(depth), bound: b}
}

// repeated reports whether the current node repeats the game's history or
// a position earlier in the search path.
func (s *search) repeated(h uint64) bool {
	if s.history0[h] {
		return true
	}
	for i := len(s.path) - 1; i >= 0; i-- {
		if s.path[i] == h {
			return true
		}
	}
	return false
}

func (s *search) negamax(depth, ply, alpha, beta int) int {
	s.nodes++
	if s.stop() {
		return 0
	}
	if r := s.s.Over(); r != engine.Ongoing {
		return s.resultScore(r, ply)
	}
	h := s.s.Hash()
	if s.repetition {
		if s.repeated(h) {
			return 0
		}
		s.path = append(s.path, h)
		defer func() { s.path = s.path[:len(s.path)-1] }()
	}
	if depth <= 0 || ply >= maxPly-1 {
		return s.quiesce(ply, alpha, beta, s.qplies)
	}
	var ttMove uint32
	if e := s.probe(h); e != nil {
		ttMove = e.move
		if int(e.depth) >= depth {
			v := int(e.score)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && v >= beta,
				e.bound == boundUpper && v <= alpha:
				return v
			}
		}
	}
	n := s.s.Generate()
	if n == 0 {
		return s.resultScore(s.s.NoMoves(), ply)
	}
	ms := s.orderMoves(ply, n, ttMove)
	alpha0 := alpha
	best, bestKey := -inf, uint32(0)
	for k := range ms {
		i := pick(ms, k)
		key := s.s.Key(i)
		gain := s.s.Gain(i)
		s.s.Make(i)
		var v int
		if k == 0 {
			v = -s.negamax(depth-1, ply+1, -beta, -alpha)
		} else {
			r := 0
			if depth >= 3 && k >= 4 && gain == 0 {
				r = 1
				if k >= 16 && depth >= 4 {
					r = 2
				}
			}
			v = -s.negamax(depth-1-r, ply+1, -alpha-1, -alpha)
			if v > alpha && (r > 0 || v < beta) && !s.stopped {
				v = -s.negamax(depth-1, ply+1, -beta, -alpha)
			}
		}
		s.s.Unmake()
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestKey = v, key
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			if gain == 0 {
				if s.killers[ply][0] != key {
					s.killers[ply][1] = s.killers[ply][0]
					s.killers[ply][0] = key
				}
				hk := &s.history[key&(1<<14-1)]
				*hk = min(*hk+int32(depth*depth), 1<<20)
			}
			break
		}
	}
	b := boundExact
	switch {
	case best >= beta:
		b = boundLower
	case best <= alpha0:
		b = boundUpper
	}
	s.store(h, depth, best, b, bestKey)
	return best
}

// quiesce searches captures (moves with a gain) until the position is quiet,
// standing pat on the static evaluation.
func (s *search) quiesce(ply, alpha, beta, left int) int {
	stand := s.s.Evaluate()
	if left <= 0 || ply >= maxPly-1 || s.late {
		// Past the deadline depth 1 still completes (it must see every
		// win in one), but without capture chains: in Camelot they made
		// level-1 moves of 0.5 s and more on a loaded machine.
		return stand
	}
	if stand >= beta {
		return stand
	}
	alpha = max(alpha, stand)
	var n int
	if s.gains != nil {
		// Only the moves with a gain, same order: the same search.
		if n = s.gains.GenerateGains(); n < 0 {
			return s.resultScore(s.s.NoMoves(), ply)
		}
	} else if n = s.s.Generate(); n == 0 {
		return s.resultScore(s.s.NoMoves(), ply)
	}
	ms := s.order[ply][:0]
	for i := range n {
		if g := s.s.Gain(i); g > 0 {
			ms = append(ms, scored{i, g})
		}
	}
	s.order[ply] = ms
	best := stand
	for k := range ms {
		i := pick(ms, k)
		if stand+ms[k].score+deltaMargin < alpha {
			// Delta pruning: even this capture, the largest left, cannot
			// bring the score up to alpha (game-ending moves have gains far
			// beyond any margin and are never cut).
			break
		}
		s.s.Make(i)
		s.nodes++
		var v int
		if r := s.s.Over(); r != engine.Ongoing {
			v = -s.resultScore(r, ply+1)
		} else {
			v = -s.quiesce(ply+1, -beta, -alpha, left-1)
		}
		s.s.Unmake()
		if s.stop() {
			return 0
		}
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// orderMoves scores the moves of the current node: the table's move first,
// then captures by gain, killers, and quiet moves by history.
func (s *search) orderMoves(ply, n int, ttMove uint32) []scored {
	ms := s.order[ply][:0]
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	for i := range n {
		key := s.s.Key(i)
		var sc int
		switch g := s.s.Gain(i); {
		case key+1 == ttMove:
			sc = 1 << 28
		case g > 0:
			sc = 1<<24 + g
		case key == k0:
			sc = 1 << 22
		case key == k1:
			sc = 1<<22 - 1
		default:
			sc = int(s.history[key&(1<<14-1)])
		}
		ms = append(ms, scored{i, sc})
	}
	s.order[ply] = ms
	return ms
}

// pick moves the best remaining move to position k (selection sort: most
// nodes cut off after a few moves) and returns its index.
func pick(ms []scored, k int) int {
	b := k
	for j := k + 1; j < len(ms); j++ {
		if ms[j].score > ms[b].score {
			b = j
		}
	}
	ms[k], ms[b] = ms[b], ms[k]
	return ms[k].i
}

// sortScored sorts by descending score, stable on ties.
func sortScored(ms []scored) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].score > ms[j-1].score; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
