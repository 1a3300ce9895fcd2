package tournament

import (
	"errors"
	"fmt"
	"slices"
)

// Swiss pairing after the FIDE Dutch system (C.04.3). The absolute
// criteria always hold: no two players meet twice, nobody gets a second
// bye, and no player's colours differ by more than two or repeat three
// times in a row (counting games played over the board). Within them, the
// pairing follows the Dutch order: players sorted by score then pairing
// number (seed); in each score group the top half meets the bottom half in
// order (1 v 5, 2 v 6, … in a group of eight), transpositions and then
// exchanges with the top half are tried in that order when a pair is not
// allowed, a group's odd player floats down to the top of the next group,
// candidates who give both players their colour preference come first, and
// the bye goes to the lowest-ranked player of the lowest score who has not
// had one (nor, if possible, a forfeit win) and whose absence leaves the
// others pairable. A maximum matching
// decides at each step whether the rest can still be paired, so a pairing
// is found whenever the absolute criteria allow one (else ErrNoPairing).

// swissPlayer is what pairing needs to know of an entrant.
type swissPlayer struct {
	id      string
	num     int // pairing number (seed, from 1)
	score   float64
	met     map[string]bool
	colours []Colour // of games played over the board, in order
	hadBye  bool
	fwin    bool // scored a forfeit win (a point without playing)
	floated bool // floated down (met a lower score) last round
	// top: a topscorer in the last round (more than half the possible
	// points), for whom FIDE relaxes the colour criteria (C.04.3 A.7).
	top bool

	// Worked out once per pairing by prepare.
	ok       [2]bool // allowed(White), allowed(Black)
	pref     Colour
	strength int
}

func (p *swissPlayer) prepare() {
	p.ok = [2]bool{p.allowed(White), p.allowed(Black)}
	p.pref, p.strength = p.preference()
}

func (p *swissPlayer) diff() int {
	d := 0
	for _, c := range p.colours {
		if c == White {
			d++
		} else {
			d--
		}
	}
	return d
}

// allowed tells whether playing c keeps the absolute colour criteria.
func (p *swissPlayer) allowed(c Colour) bool {
	d := p.diff()
	if c == White {
		d++
	} else {
		d--
	}
	if d > 2 || d < -2 {
		return false
	}
	n := len(p.colours)
	return n < 2 || p.colours[n-1] != c || p.colours[n-2] != c
}

// Preference strengths.
const (
	prefNone = iota
	prefMild
	prefStrong
	prefAbsolute
)

// preference is the colour the player should get next and how strongly.
func (p *swissPlayer) preference() (Colour, int) {
	n := len(p.colours)
	if n == 0 {
		return White, prefNone
	}
	d := p.diff()
	last := p.colours[n-1]
	switch {
	case d < -1 || n >= 2 && last == Black && p.colours[n-2] == Black:
		return White, prefAbsolute
	case d > 1 || n >= 2 && last == White && p.colours[n-2] == White:
		return Black, prefAbsolute
	case d == -1:
		return White, prefStrong
	case d == 1:
		return Black, prefStrong
	}
	return 1 - last, prefMild
}

// colours allocates colours to a (ranked above b) and b: ok false when no
// allocation keeps the absolute criteria. granted tells whether both got
// their preference (or had none).
func colours(a, b *swissPlayer, first Colour) (aCol Colour, ok, granted bool) {
	wOK := a.ok[White] && b.ok[Black]
	bOK := a.ok[Black] && b.ok[White]
	relaxed := !wOK && !bOK && (a.top || b.top)
	if !wOK && !bOK && !relaxed {
		return White, false, false
	}
	pa, sa := a.pref, a.strength
	pb, sb := b.pref, b.strength
	want := White
	switch {
	case sa == prefNone && sb == prefNone:
		// Round 1 (or no colours yet): alternate down the boards by the
		// higher player's pairing number (pairing number 1 gets the
		// first colour).
		want = first
		if a.num%2 == 0 {
			want = 1 - first
		}
	case sb == prefNone || sa != prefNone && pa != pb:
		want = pa
	case sa == prefNone:
		want = 1 - pb
	case sa > sb:
		want = pa
	case sb > sa:
		want = 1 - pb
	case sa == prefAbsolute && abs(a.diff()) != abs(b.diff()):
		// Both absolute (a topscorer's relaxed pairing): the larger
		// colour difference gets its colour.
		want = pa
		if abs(b.diff()) > abs(a.diff()) {
			want = 1 - pb
		}
	default:
		// Same preference, same strength: alternate from the latest game
		// where they had different colours; else the higher ranked wins.
		want = pa
		for i, j := len(a.colours)-1, len(b.colours)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
			if a.colours[i] != b.colours[j] {
				want = 1 - a.colours[i]
				break
			}
		}
	}
	if relaxed {
		// Neither allocation keeps the colour criteria: want stands.
	} else if want == White && !wOK {
		want = Black
	} else if want == Black && !bOK {
		want = White
	}
	granted = (sa == prefNone || want == pa) && (sb == prefNone || 1-want == pb)
	return want, true, granted
}

// swissPlayers builds the pairing view of the tournament before round r.
func (t *Tournament) swissPlayers() []*swissPlayer {
	seeds := t.Seeds()
	byID := map[string]*swissPlayer{}
	var out []*swissPlayer
	// Pairing numbers count the players taking part: those left out who
	// never had a pairing are skipped (as pairing programs do), so the
	// colours of round 1 alternate over the players actually paired.
	paired := map[string]bool{}
	for _, r := range t.Rounds {
		for _, pr := range r {
			paired[pr.White], paired[pr.Black] = true, true
		}
	}
	num := 0
	for _, e := range seeds {
		if e.Withdrawn && !paired[e.Player] {
			continue
		}
		num++
		p := &swissPlayer{id: e.Player, num: num, met: map[string]bool{}}
		byID[e.Player] = p
		if !e.Withdrawn {
			out = append(out, p)
		}
	}
	bye := t.byePoints()
	for ri, r := range t.Rounds {
		last := ri == len(t.Rounds)-1
		for _, pr := range r {
			w, b := byID[pr.White], byID[pr.Black]
			if w == nil && pr.White != "" || b == nil && pr.Black != "" {
				continue
			}
			if pr.IsBye() {
				if w != nil && pr.Result == Bye {
					w.hadBye = true
					w.score += bye
					// A point without a game is a float down (FIDE A.4).
					w.floated = w.floated && !last || last
				}
				continue
			}
			ws, bs := pr.Result.Points()
			w.score += ws
			b.score += bs
			// Only a game played over the board is a meeting (FIDE
			// C.04.1: a forfeited pairing may be paired again).
			if pr.Result.Played() {
				w.met[b.id], b.met[w.id] = true, true
			}
			w.fwin = w.fwin || pr.Result == WhiteForfeit
			b.fwin = b.fwin || pr.Result == BlackForfeit
			if pr.Result.Played() {
				w.colours = append(w.colours, White)
				b.colours = append(b.colours, Black)
			}
			if last && pr.Result.Played() {
				w.floated = w.score-ws > b.score-bs
				b.floated = b.score-bs > w.score-ws
			} else if last {
				// A forfeit: the winner's point came without a game.
				w.floated, b.floated = ws > 0, bs > 0
			}
		}
	}
	// Dutch order: score, then pairing number.
	stableSort(out, func(a, b *swissPlayer) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return a.num < b.num
	})
	return out
}

func (t *Tournament) pairSwiss(r int) ([]Pairing, error) {
	ps := t.swissPlayers()
	if len(ps) < 2 {
		return nil, fmt.Errorf("%w: fewer than two players left", ErrNoPairing)
	}
	if r == t.SwissRounds {
		for _, p := range ps {
			p.top = p.score > float64(r-1)/2
		}
	}
	pairs, bye, err := pairFIDE(ps, t.FirstColour, t)
	if errors.Is(err, errTooWide) {
		pairs, bye, err = pairDutch(ps, t.FirstColour)
	}
	if err != nil {
		return nil, fmt.Errorf("round %d: %w", r, err)
	}
	out := make([]Pairing, 0, len(pairs)+1)
	for _, p := range pairs {
		out = append(out, Pairing{White: p[0], Black: p[1]})
	}
	if bye != "" {
		out = append(out, Pairing{White: bye})
	}
	return out, nil
}

// pairDutch pairs ps (in Dutch order: score, then pairing number); pairs
// are White then Black, higher board first.
func pairDutch(ps []*swissPlayer, first Colour) (pairs [][2]string, bye string, err error) {
	g := newSwissGraph(ps, first)
	all := make([]bool, len(ps))
	for i := range all {
		all[i] = true
	}
	if len(ps)%2 == 0 {
		if pr, ok := g.pair(all); ok {
			return pr, "", nil
		}
		return nil, "", ErrNoPairing
	}
	// The bye: lowest score, then highest pairing number, among those
	// without one, as long as the others can then be paired; players who
	// already scored a forfeit win come last (FIDE C.04.1 d).
	for _, fwin := range []bool{false, true} {
		// Within the lowest score, the lowest-ranked player whose bye
		// leaves the rest of that score able to keep the fewest colour
		// clashes goes first (the bye is part of the bracket's pairing).
		var order []int
		for i := len(ps) - 1; i >= 0; i-- {
			if !ps[i].hadBye && ps[i].fwin == fwin {
				order = append(order, i)
			}
		}
		// Within the lowest score with a candidate whose bye leaves the
		// rest pairable, the bye goes to the one whose round has the
		// fewest colour clashes, the lowest-ranked of those.
		for k := 0; k < len(order); {
			j := k
			for j < len(order) && ps[order[j]].score == ps[order[k]].score {
				j++
			}
			// Fewest unplayed games first (FIDE C.9): the most games
			// played over the board; then the fewest colour clashes.
			var played []int
			for _, i := range order[k:j] {
				if !slices.Contains(played, len(ps[i].colours)) {
					played = append(played, len(ps[i].colours))
				}
			}
			slices.Sort(played)
			slices.Reverse(played)
			for _, games := range played {
				best, bestBad := -1, 0
				var bestPairs [][2]string
				for _, i := range order[k:j] {
					if len(ps[i].colours) != games {
						continue
					}
					all[i] = false
					pr, ok := g.pair(all)
					all[i] = true
					if !ok {
						continue
					}
					if bad := g.clashes(pr); best < 0 || bad < bestBad {
						best, bestBad, bestPairs = i, bad, pr
					}
				}
				if best >= 0 {
					return bestPairs, ps[best].id, nil
				}
			}
			k = j
		}
	}
	return nil, "", ErrNoPairing
}

// swissGraph is who may meet whom (the absolute criteria) and with which
// colours.
type swissGraph struct {
	ps     []*swissPlayer
	n      int
	compat []bool // [i*n+j]
	adj    [][]int
	col    []Colour // i's colour against j
	grant  []bool   // both get their preference
	// down marks the player chosen to float down out of an odd score
	// group (pair sets it when it reaches the group).
	down []bool
	// findPath's buffers, reused.
	used, seen, blossom []bool
	parent, base, queue []int
}

func newSwissGraph(ps []*swissPlayer, first Colour) *swissGraph {
	n := len(ps)
	g := &swissGraph{ps: ps, n: n, compat: make([]bool, n*n), adj: make([][]int, n), col: make([]Colour, n*n), grant: make([]bool, n*n), down: make([]bool, n)}
	for i, p := range ps {
		g.adj[i] = make([]int, 0, n)
		p.prepare()
	}
	for i := range ps {
		for j := i + 1; j < n; j++ {
			if ps[i].met[ps[j].id] {
				continue
			}
			c, ok, gr := colours(ps[i], ps[j], first)
			if !ok {
				continue
			}
			g.compat[i*n+j], g.compat[j*n+i] = true, true
			g.adj[i], g.adj[j] = append(g.adj[i], j), append(g.adj[j], i)
			g.col[i*n+j], g.col[j*n+i] = c, 1-c
			g.grant[i*n+j], g.grant[j*n+i] = gr, gr
		}
	}
	return g
}

// pair pairs the players in the set: the first unpaired player (in Dutch
// order) takes the first candidate, in Dutch order, after which the rest
// can still all be paired. Whether they can is decided exactly by a
// maximum matching (Edmonds' blossom algorithm), kept from step to step,
// so the search never backtracks and fails only when no pairing exists.
func (g *swissGraph) pair(in []bool) ([][2]string, bool) {
	n := len(g.ps)
	alive := append([]bool(nil), in...)
	m := make([]int, n)
	for i := range m {
		m[i] = -1
	}
	if !g.augment(alive, m) {
		return nil, false
	}
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	clear(g.down)
	for p := 0; p < n; p++ {
		if !alive[p] {
			continue
		}
		g.chooseFloater(p, alive)
		done := false
		cands := g.candidates(p, alive)
		// Within p's score group, the first candidate in Dutch order that
		// keeps the group's least possible number of colour preferences
		// not granted (FIDE C.04.3 C.12) comes first; then the others.
		cands = g.colourBound(p, alive, cands)
		// Candidates of p's own group after whose pairing the group can
		// no longer make as many pairs among themselves (FIDE C.5: the
		// most pairs in the bracket) are tried last, after lower scores.
		gs := g.groupState(p, alive)
		var deferred []int
		try := func(q int) bool {
			// The remaining players without p and q, starting from the
			// current perfect matching less the pairs of p and q.
			next := append([]int(nil), m...)
			for _, v := range []int{p, q} {
				if w := next[v]; w >= 0 {
					next[w] = -1
				}
				next[v] = -1
			}
			alive[p], alive[q] = false, false
			if m[p] == q || g.augment(alive, next) {
				m = next
				mate[p], mate[q] = q, p
				return true
			}
			alive[p], alive[q] = true, true
			return false
		}
		for _, q := range cands {
			if !g.compat[p*g.n+q] {
				continue
			}
			if gs != nil && gs.mask[q] && !gs.keeps(g, p, q) {
				deferred = append(deferred, q)
				continue
			}
			if done = try(q); done {
				break
			}
		}
		for _, q := range deferred {
			if done {
				break
			}
			done = try(q)
		}
		if !done {
			return nil, false // cannot happen: m was perfect
		}
	}
	var out [][2]string
	for i, j := range mate {
		if i < j {
			if g.col[i*n+j] == White {
				out = append(out, [2]string{g.ps[i].id, g.ps[j].id})
			} else {
				out = append(out, [2]string{g.ps[j].id, g.ps[i].id})
			}
		}
	}
	return out, true
}

// candidates are p's possible opponents among the alive, in Dutch order.
func (g *swissGraph) candidates(p int, alive []bool) []int {
	var group, lower []int
	for q := range g.ps {
		if q == p || !alive[q] {
			continue
		}
		if g.ps[q].score == g.ps[p].score && !g.down[q] && !g.down[p] {
			group = append(group, q)
		} else {
			lower = append(lower, q)
		}
	}
	if g.down[p] {
		// The group's floater meets the lower score first, then its own.
		var below, same []int
		for _, q := range lower {
			if g.ps[q].score < g.ps[p].score {
				below = append(below, q)
			} else {
				same = append(same, q)
			}
		}
		lower = append(below, same...)
	}
	// group holds the others of p's score group in order; with p at the top
	// the group has k = len(group)+1 players and its top half (S1) is the
	// first k/2, p included. S2 in order, then exchanges from the bottom of
	// S1 upwards.
	half := (len(group) + 1) / 2
	var s2, s1 []int
	for i, q := range group {
		if i >= half-1 {
			s2 = append(s2, q)
		} else {
			s1 = append(s1, q)
		}
	}
	slices.Reverse(s1)
	out := make([]int, 0, len(g.ps))
	// Colours are weighed over the whole group (colourBound), not here.
	out = append(append(out, s2...), s1...)
	// Downfloats: to the highest of the next score; within it, those
	// leaving that group its fewest colour clashes first, in order.
	for i := 0; i < len(lower); {
		j := i
		for j < len(lower) && g.ps[lower[j]].score == g.ps[lower[i]].score {
			j++
		}
		out = g.floatOrder(out, p, lower[i:j], alive)
		i = j
	}
	return out
}

// chooseFloater, when p is the first of its score group still to pair
// and the group is odd with players below it, marks who floats down: the
// lowest-ranked player whose leaving keeps the group's fewest colour
// clashes (C.12) and, among those, one who did not float down last round
// (C.14).
func (g *swissGraph) chooseFloater(p int, alive []bool) {
	score := g.ps[p].score
	var group []int
	below := false
	for q := range g.ps {
		if !alive[q] {
			continue
		}
		switch {
		case g.ps[q].score == score:
			if q < p || g.down[q] {
				return // not the group's first, or chosen already
			}
			group = append(group, q)
		case g.ps[q].score < score:
			below = true
		}
	}
	if len(group)%2 == 0 || !below {
		return
	}
	var cnt [3]int
	for _, q := range group {
		cnt[g.prefClass(q)]++
	}
	// The next score group's colour clashes with the floater in it break
	// the remaining ties (the floater is part of that group's pairing).
	var next [3]int
	nextScore := -1.0
	for q := range g.ps {
		if alive[q] && g.ps[q].score < score && g.ps[q].score > nextScore {
			nextScore = g.ps[q].score
		}
	}
	for q := range g.ps {
		if alive[q] && g.ps[q].score == nextScore {
			next[g.prefClass(q)]++
		}
	}
	pick, pickBad, pickFloated, pickNext := -1, 0, false, 0
	for k := len(group) - 1; k >= 0; k-- {
		q := group[k]
		c := cnt
		c[g.prefClass(q)]--
		bad := leastBad(c[0], c[1], c[2])
		n := next
		n[g.prefClass(q)]++
		nb := leastBad(n[0], n[1], n[2])
		fl := g.ps[q].floated
		if pick < 0 || bad < pickBad || bad == pickBad && (pickFloated && !fl || pickFloated == fl && nb < pickNext) {
			pick, pickBad, pickFloated, pickNext = q, bad, fl, nb
		}
	}
	g.down[pick] = true
}

// clashes counts the pairs whose players both wanted the same colour.
func (g *swissGraph) clashes(pairs [][2]string) int {
	idx := map[string]int{}
	for i, p := range g.ps {
		idx[p.id] = i
	}
	n := 0
	for _, pr := range pairs {
		a, b := g.prefClass(idx[pr[0]]), g.prefClass(idx[pr[1]])
		if a == b && a != 2 {
			n++
		}
	}
	return n
}

// groupState is p's score group (its players still to pair, floater
// left out) with a maximum matching among themselves, to tell which of
// p's opponents keep the group's most pairs; nil for a group of fewer
// than three or when p floats down.
type groupState struct {
	mask []bool
	m    []int
	most int
}

func (g *swissGraph) groupState(p int, alive []bool) *groupState {
	if g.down[p] {
		return nil
	}
	score := g.ps[p].score
	gs := &groupState{mask: make([]bool, len(g.ps)), m: make([]int, len(g.ps))}
	size := 0
	for q := range g.ps {
		gs.m[q] = -1
		if alive[q] && g.ps[q].score == score && !g.down[q] {
			gs.mask[q] = true
			size++
		}
	}
	if size < 3 {
		return nil
	}
	g.augment(gs.mask, gs.m)
	gs.most = matched(gs.mask, gs.m)
	return gs
}

func matched(mask []bool, m []int) int {
	n := 0
	for v, w := range m {
		if mask[v] && w >= 0 {
			n++
		}
	}
	return n / 2
}

// keeps tells whether pairing p with q leaves the rest of the group able
// to make all but one of its most pairs.
func (gs *groupState) keeps(g *swissGraph, p, q int) bool {
	if gs.m[p] == q {
		return true // the rest of a maximum matching is maximum
	}
	m := append([]int(nil), gs.m...)
	for _, v := range []int{p, q} {
		if w := m[v]; w >= 0 {
			m[w] = -1
		}
		m[v] = -1
	}
	gs.mask[p], gs.mask[q] = false, false
	g.augment(gs.mask, m)
	ok := 1+matched(gs.mask, m) == gs.most
	gs.mask[p], gs.mask[q] = true, true
	return ok
}

// prefClass is a player's colour preference class for counting: 0
// White, 1 Black, 2 none.
func (g *swissGraph) prefClass(i int) int {
	p := g.ps[i]
	if p.strength == prefNone {
		return 2
	}
	return int(p.pref)
}

// leastBad is the fewest pairs whose two players want the same colour
// among w, b, n players preferring White, Black or nothing, paired among
// themselves (one left over when odd), counting alone.
func leastBad(w, b, n int) int {
	if (w+b+n)%2 == 1 {
		best := -1
		for _, d := range [][3]int{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
			if w-d[0] < 0 || b-d[1] < 0 || n-d[2] < 0 {
				continue
			}
			if v := leastBad(w-d[0], b-d[1], n-d[2]); best < 0 || v < best {
				best = v
			}
		}
		return max(best, 0)
	}
	m := min(w, b)
	r := max(0, w+b-2*m-n)
	return (r + 1) / 2
}

// colourBound reorders p's same-score candidates (already in Dutch
// order) so that those after which the rest of the score group can still
// reach the group's least number of colour clashes come first, in order;
// the others follow in order, then the players outside the group.
func (g *swissGraph) colourBound(p int, alive []bool, cands []int) []int {
	var cnt [3]int
	score := g.ps[p].score
	if g.down[p] {
		return cands
	}
	for q := range g.ps {
		if alive[q] && g.ps[q].score == score && !g.down[q] {
			cnt[g.prefClass(q)]++
		}
	}
	best := leastBad(cnt[0], cnt[1], cnt[2])
	var good, rest, lower []int
	for _, q := range cands {
		if g.ps[q].score != score || g.down[q] {
			lower = append(lower, q)
			continue
		}
		c := cnt
		cp, cq := g.prefClass(p), g.prefClass(q)
		c[cp]--
		c[cq]--
		bad := 0
		if cp == cq && cp != 2 {
			bad = 1
		}
		if bad+leastBad(c[0], c[1], c[2]) == best {
			good = append(good, q)
		} else {
			rest = append(rest, q)
		}
	}
	return append(append(good, rest...), lower...)
}

// floatOrder appends part (players of one lower score, in order) to out
// for p floating down to them: first those after whose pairing with p
// the clashes of that pair plus the fewest left in their group are
// least, each kind in order.
func (g *swissGraph) floatOrder(out []int, p int, part []int, alive []bool) []int {
	var cnt [3]int
	score := g.ps[part[0]].score
	for q := range g.ps {
		if alive[q] && q != p && g.ps[q].score == score {
			cnt[g.prefClass(q)]++
		}
	}
	cost := make([]int, len(part))
	best := -1
	cp := g.prefClass(p)
	for k, q := range part {
		c := cnt
		cq := g.prefClass(q)
		c[cq]--
		cost[k] = leastBad(c[0], c[1], c[2])
		if cp == cq && cp != 2 {
			cost[k]++
		}
		if best < 0 || cost[k] < best {
			best = cost[k]
		}
	}
	for _, want := range []bool{true, false} {
		for k, q := range part {
			if (cost[k] == best) == want {
				out = append(out, q)
			}
		}
	}
	return out
}

// augment extends the matching m on the alive players by augmenting paths
// until none is left; it reports whether m is then perfect.
func (g *swissGraph) augment(alive []bool, m []int) bool {
	perfect := true
	for v := range g.ps {
		if alive[v] && m[v] < 0 && !g.findPath(v, alive, m) {
			perfect = false
		}
	}
	return perfect
}

// findPath looks for an augmenting path from the free vertex root and
// applies it (Edmonds' blossom algorithm, O(n²) per search).
func (g *swissGraph) findPath(root int, alive []bool, m []int) bool {
	n := len(g.ps)
	if g.used == nil {
		g.used, g.seen, g.blossom = make([]bool, n), make([]bool, n), make([]bool, n)
		g.parent, g.base, g.queue = make([]int, n), make([]int, n), make([]int, 0, n)
	}
	used, parent, base, blossom := g.used, g.parent, g.base, g.blossom
	for i := range parent {
		used[i], parent[i], base[i] = false, -1, i
	}
	lca := func(a, b int) int {
		seen := g.seen
		clear(seen)
		for {
			a = base[a]
			seen[a] = true
			if m[a] < 0 {
				break
			}
			a = parent[m[a]]
		}
		for {
			b = base[b]
			if seen[b] {
				return b
			}
			b = parent[m[b]]
		}
	}
	markPath := func(v, b, child int) {
		for base[v] != b {
			blossom[base[v]], blossom[base[m[v]]] = true, true
			parent[v] = child
			child = m[v]
			v = parent[m[v]]
		}
	}
	used[root] = true
	queue := append(g.queue[:0], root)
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, to := range g.adj[v] {
			if !alive[to] || base[v] == base[to] || m[v] == to {
				continue
			}
			if to == root || m[to] >= 0 && parent[m[to]] >= 0 {
				cur := lca(v, to)
				clear(blossom)
				markPath(v, cur, to)
				markPath(to, cur, v)
				for i := range n {
					if alive[i] && blossom[base[i]] {
						base[i] = cur
						if !used[i] {
							used[i] = true
							queue = append(queue, i)
						}
					}
				}
			} else if parent[to] < 0 {
				parent[to] = v
				if m[to] < 0 {
					// Flip the path root … v-to.
					for to >= 0 {
						pv := parent[to]
						next := m[pv]
						m[to], m[pv] = pv, to
						to = next
					}
					return true
				}
				used[m[to]] = true
				queue = append(queue, m[to])
			}
		}
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
