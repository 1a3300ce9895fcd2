package tournament

import (
	"fmt"
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
// had one. The search backtracks, so it finds a pairing whenever the
// absolute criteria allow one (within a work bound; then ErrNoPairing).

// swissPlayer is what pairing needs to know of an entrant.
type swissPlayer struct {
	id      string
	num     int // pairing number (seed, from 1)
	score   float64
	met     map[string]bool
	colours []Colour // of games played over the board, in order
	hadBye  bool
	floated bool // floated down (met a lower score) last round
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
func colours(a, b *swissPlayer) (aCol Colour, ok, granted bool) {
	wOK := a.allowed(White) && b.allowed(Black)
	bOK := a.allowed(Black) && b.allowed(White)
	if !wOK && !bOK {
		return White, false, false
	}
	pa, sa := a.preference()
	pb, sb := b.preference()
	want := White
	switch {
	case sa == prefNone && sb == prefNone:
		// Round 1 (or no colours yet): alternate down the boards by the
		// higher player's pairing number.
		if a.num%2 == 0 {
			want = Black
		}
	case sb == prefNone || sa != prefNone && pa != pb:
		want = pa
	case sa == prefNone:
		want = 1 - pb
	case sa > sb:
		want = pa
	case sb > sa:
		want = 1 - pb
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
	if want == White && !wOK {
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
	for i, e := range seeds {
		p := &swissPlayer{id: e.Player, num: i + 1, met: map[string]bool{}}
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
			if pr.IsBye() {
				if w != nil && pr.Result == Bye {
					w.hadBye = true
					w.score += bye
				}
				continue
			}
			ws, bs := pr.Result.Points()
			w.score += ws
			b.score += bs
			w.met[b.id], b.met[w.id] = true, true
			if pr.Result.Played() {
				w.colours = append(w.colours, White)
				b.colours = append(b.colours, Black)
			}
			if last {
				w.floated = w.score-ws > b.score-bs
				b.floated = b.score-bs > w.score-ws
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

// Work bounds of the backtracking search (nodes visited), per attempt.
const (
	dutchBudget       = 20000
	constrainedBudget = 200000
)

func (t *Tournament) pairSwiss(r int) ([]Pairing, error) {
	ps := t.swissPlayers()
	if len(ps) < 2 {
		return nil, fmt.Errorf("%w: fewer than two players left", ErrNoPairing)
	}
	pairs, bye, err := pairDutch(ps)
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
func pairDutch(ps []*swissPlayer) (pairs [][2]string, bye string, err error) {
	if len(ps)%2 == 0 {
		if pr, ok := matchSwiss(ps); ok {
			return pr, "", nil
		}
		return nil, "", ErrNoPairing
	}
	// The bye: lowest score, then highest pairing number, among those
	// without one, as long as the others can then be paired.
	order := make([]int, len(ps))
	for i := range order {
		order[i] = len(ps) - 1 - i
	}
	for _, i := range order {
		if ps[i].hadBye {
			continue
		}
		rest := append(append([]*swissPlayer(nil), ps[:i]...), ps[i+1:]...)
		if pr, ok := matchSwiss(rest); ok {
			return pr, ps[i].id, nil
		}
	}
	return nil, "", ErrNoPairing
}

// matchSwiss pairs an even list: the Dutch search first, then, if it runs
// out of budget, a search taking the most constrained player first (any
// pairing that keeps the absolute criteria beats none).
func matchSwiss(ps []*swissPlayer) ([][2]string, bool) {
	n := len(ps)
	compat := make([][]bool, n)
	col := make([][]Colour, n)
	grant := make([][]bool, n)
	for i := range ps {
		compat[i], col[i], grant[i] = make([]bool, n), make([]Colour, n), make([]bool, n)
	}
	for i := range ps {
		for j := i + 1; j < n; j++ {
			if ps[i].met[ps[j].id] {
				continue
			}
			c, ok, g := colours(ps[i], ps[j])
			compat[i][j], compat[j][i] = ok, ok
			col[i][j], col[j][i] = c, 1-c
			grant[i][j], grant[j][i] = g, g
		}
	}
	s := &search{ps: ps, compat: compat, grant: grant, mate: make([]int, n)}
	for i := range s.mate {
		s.mate[i] = -1
	}
	s.budget = dutchBudget
	ok := s.dfs(false)
	if !ok {
		for i := range s.mate {
			s.mate[i] = -1
		}
		s.budget = constrainedBudget
		ok = s.dfs(true)
	}
	if !ok {
		return nil, false
	}
	var out [][2]string
	for i, j := range s.mate {
		if i < j {
			if col[i][j] == White {
				out = append(out, [2]string{ps[i].id, ps[j].id})
			} else {
				out = append(out, [2]string{ps[j].id, ps[i].id})
			}
		}
	}
	return out, true
}

type search struct {
	ps     []*swissPlayer
	compat [][]bool
	grant  [][]bool
	mate   []int
	budget int
}

// candidates are p's possible opponents in Dutch order.
func (s *search) candidates(p int) []int {
	var group, lower []int
	for q := range s.ps {
		if q == p || s.mate[q] >= 0 {
			continue
		}
		if s.ps[q].score == s.ps[p].score {
			group = append(group, q)
		} else {
			lower = append(lower, q) // higher scores only in the constrained search
		}
	}
	// group holds the others of p's score group in order; with p at the top
	// the group has k = len(group)+1 players and its top half is the first
	// k/2 (p included). S2 in order, then exchanges from the bottom of S1.
	half := (len(group) + 1) / 2
	var s2, s1 []int
	for i, q := range group {
		if i >= half-1 {
			s2 = append(s2, q)
		} else {
			s1 = append(s1, q)
		}
	}
	for i, j := 0, len(s1)-1; i < j; i, j = i+1, j-1 {
		s1[i], s1[j] = s1[j], s1[i]
	}
	out := make([]int, 0, len(s.ps))
	for _, part := range [][]int{s2, s1} {
		// Colour preferences granted first, otherwise in order.
		for _, want := range []bool{true, false} {
			for _, q := range part {
				if s.grant[p][q] == want {
					out = append(out, q)
				}
			}
		}
	}
	// Downfloats: to the highest of the next score, colours first within it.
	for i := 0; i < len(lower); {
		j := i
		for j < len(lower) && s.ps[lower[j]].score == s.ps[lower[i]].score {
			j++
		}
		for _, want := range []bool{true, false} {
			for _, q := range lower[i:j] {
				if s.grant[p][q] == want {
					out = append(out, q)
				}
			}
		}
		i = j
	}
	return out
}

func (s *search) dfs(constrained bool) bool {
	if s.budget <= 0 {
		return false
	}
	s.budget--
	p := -1
	best := 1 << 30
	for q := range s.ps {
		if s.mate[q] >= 0 {
			continue
		}
		if !constrained {
			p = q
			break
		}
		c := 0
		for o := range s.ps {
			if o != q && s.mate[o] < 0 && s.compat[q][o] {
				c++
			}
		}
		if c < best {
			p, best = q, c
		}
	}
	if p < 0 {
		return true
	}
	for _, q := range s.candidates(p) {
		if !s.compat[p][q] {
			continue
		}
		s.mate[p], s.mate[q] = q, p
		if s.feasible() && s.dfs(constrained) {
			return true
		}
		s.mate[p], s.mate[q] = -1, -1
		if s.budget <= 0 {
			return false
		}
	}
	return false
}

// feasible is a forward check: every unpaired player still has a possible
// opponent among the unpaired.
func (s *search) feasible() bool {
	for q := range s.ps {
		if s.mate[q] >= 0 {
			continue
		}
		ok := false
		for o := range s.ps {
			if o != q && s.mate[o] < 0 && s.compat[q][o] {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
