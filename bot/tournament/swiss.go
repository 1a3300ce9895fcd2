package tournament

import "fmt"

// Swiss pairing after the FIDE Dutch system (C.04.3): this file holds the
// players' view (scores, meetings, colours, byes) and the colour
// allocation; dutch.go pairs the round as a maximum-weight matching. The
// absolute criteria always hold: no two players meet twice over the board,
// nobody gets a second bye (nor a bye after a forfeit win), and no two
// players with the same absolute colour preference meet, except a
// topscorer in the final round (C.04.3 A.7). A pairing is found whenever
// the absolute criteria allow one (else ErrNoPairing).

// swissPlayer is what pairing needs to know of an entrant.
type swissPlayer struct {
	id      string
	num     int // pairing number (seed, from 1)
	score   float64
	met     map[string]bool
	colours []Colour // of games played over the board, in order
	hadBye  bool
	fwin    bool // scored a forfeit win (a point without playing)
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
	for _, r := range t.Rounds {
		for _, pr := range r {
			w, b := byID[pr.White], byID[pr.Black]
			if w == nil && pr.White != "" || b == nil && pr.Black != "" {
				continue
			}
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
