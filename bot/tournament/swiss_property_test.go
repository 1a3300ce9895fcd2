package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestSwissProperty pairs 1,000 random Swiss tournaments (4–64 players,
// random results including forfeits, withdrawals between rounds) through
// the Tournament API and checks every round against the absolute criteria
// from the pairings alone. It logs how often each quality criterion held.
func TestSwissProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	var q struct {
		rounds, noPairing                  int
		pairs, sameScore                   int
		prefs, prefsGranted                int
		byes, byeLowest, byeNoFwin         int
		floaters, floatersNotTwice         int
		tournaments, withdrawals, forfeits int
	}
	// The fast tier pairs the first 150 tournaments; the long tier all
	// 1,000 (the figures in docs/tournaments.md).
	events := 1000
	if testing.Short() {
		events = 150
	}
	for it := range events {
		n := 4 + rng.IntN(61)
		rounds := 1 + rng.IntN(min(n-1, 11))
		tr, err := New("org", Settings{Format: Swiss, SwissRounds: rounds, RoundLength: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			tr.Join(fmt.Sprint("p", i), float64(1000+rng.IntN(1500)), t0)
		}
		ps, err := tr.Start(organiser(), t0)
		if err != nil {
			t.Fatalf("tournament %d: start: %v", it, err)
		}
		q.tournaments++
		h := newHistory()
		for {
			q.rounds++
			// Check this round against everything before it.
			if v := h.violation(tr, ps); v != "" {
				t.Fatalf("tournament %d (%d players) round %d: %s", it, n, tr.Round, v)
			}
			// Quality figures.
			// Eligible for the bye (FIDE C.04.1 d): no bye yet and, while
			// anyone qualifies, no forfeit win either.
			lowest := -1.0
			for _, strict := range []bool{true, false} {
				for _, e := range tr.Entrants {
					if !e.Withdrawn && !h.bye[e.Player] && (!strict || !h.fwin[e.Player]) && (lowest < 0 || h.score[e.Player] < lowest) {
						lowest = h.score[e.Player]
					}
				}
				if lowest >= 0 {
					break
				}
			}
			for _, p := range ps {
				if p.IsBye() {
					q.byes++
					if h.score[p.White] == lowest {
						q.byeLowest++
					}
					if !h.fwin[p.White] {
						q.byeNoFwin++
					}
					continue
				}
				ws, bs := h.score[p.White], h.score[p.Black]
				q.pairs++
				if ws == bs {
					q.sameScore++
				} else {
					hi := p.White
					if bs > ws {
						hi = p.Black
					}
					q.floaters++
					if !h.floated[hi] {
						q.floatersNotTwice++
					}
				}
				for c, pl := range []string{p.White, p.Black} {
					if want, ok := h.preference(pl); ok {
						q.prefs++
						if want == Colour(c) {
							q.prefsGranted++
						}
					}
				}
			}
			// Results: mostly played, some forfeits.
			for _, p := range ps {
				if p.Result != Pending {
					continue
				}
				res := []Result{WhiteWins, BlackWins, Draw, WhiteWins, BlackWins, Draw, WhiteForfeit, BlackForfeit}[rng.IntN(8)]
				if !res.Played() {
					q.forfeits++
				}
				if err := tr.Record(p.Round, p.Board, res); err != nil {
					t.Fatal(err)
				}
				ps[p.Board-1].Result = res
			}
			h.add(ps, tr)
			if rng.IntN(4) == 0 {
				e := tr.Entrants[rng.IntN(len(tr.Entrants))]
				if _, err := tr.Withdraw(e.Player); err == nil {
					q.withdrawals++
				}
			}
			ps, err = tr.NextRound(tr.Round, t0)
			if err != nil {
				t.Fatalf("tournament %d round %d: %v", it, tr.Round+1, err)
			}
			if tr.EndedEarly() {
				q.noPairing++
				t.Logf("tournament %d (%d players, %d rounds): no legal pairing for round %d, ended early", it, n, rounds, tr.Round+1)
			}
			if tr.Status == Finished {
				break
			}
		}
	}
	pct := func(a, b int) string { return fmt.Sprintf("%d/%d (%.1f%%)", a, b, 100*float64(a)/float64(max(b, 1))) }
	t.Logf("%d tournaments, %d rounds paired, %d withdrawals, %d forfeits; absolute-criteria violations: 0; rounds without a legal pairing: %d",
		q.tournaments, q.rounds, q.withdrawals, q.forfeits, q.noPairing)
	t.Logf("quality: pairs within one score group %s", pct(q.sameScore, q.pairs))
	t.Logf("quality: colour preferences granted %s", pct(q.prefsGranted, q.prefs))
	t.Logf("quality: bye to a player of the lowest score among those eligible %s", pct(q.byeLowest, q.byes))
	t.Logf("quality: bye to a player without a forfeit win %s", pct(q.byeNoFwin, q.byes))
	t.Logf("quality: downfloaters who had not floated down the round before %s", pct(q.floatersNotTwice, q.floaters))
}

// history is the test's own record of a Swiss so far, kept from the
// pairings alone (independent of the pairing code's view).
type history struct {
	met     map[[2]string]bool
	colours map[string][]Colour // of played games
	bye     map[string]bool
	fwin    map[string]bool // scored a forfeit win
	score   map[string]float64
	floated map[string]bool // met a lower score in the last round
}

func newHistory() *history {
	return &history{met: map[[2]string]bool{}, colours: map[string][]Colour{}, bye: map[string]bool{}, fwin: map[string]bool{},
		score: map[string]float64{}, floated: map[string]bool{}}
}

func key(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// add counts a round with its results.
func (h *history) add(ps []Pairing, tr *Tournament) {
	clear(h.floated)
	for _, p := range ps {
		if p.IsBye() {
			h.bye[p.White] = true
			h.score[p.White]++
			continue
		}
		ws, bs := p.Result.Points()
		h.floated[p.White] = h.score[p.White] > h.score[p.Black]
		h.floated[p.Black] = h.score[p.Black] > h.score[p.White]
		h.score[p.White] += ws
		h.score[p.Black] += bs
		// A forfeited pairing is no meeting (FIDE C.04.1): they may be
		// paired again.
		if p.Result.Played() {
			h.met[key(p.White, p.Black)] = true
		}
		h.fwin[p.White] = h.fwin[p.White] || p.Result == WhiteForfeit
		h.fwin[p.Black] = h.fwin[p.Black] || p.Result == BlackForfeit
		if p.Result.Played() {
			h.colours[p.White] = append(h.colours[p.White], White)
			h.colours[p.Black] = append(h.colours[p.Black], Black)
		}
	}
}

// preference is the colour a player should get (FIDE: the one that
// equalises, else the one alternating from the last game), if any.
func (h *history) preference(id string) (Colour, bool) {
	cs := h.colours[id]
	if len(cs) == 0 {
		return White, false
	}
	d := 0
	for _, c := range cs {
		d += 1 - 2*int(c)
	}
	switch {
	case d < 0:
		return White, true
	case d > 0:
		return Black, true
	}
	return 1 - cs[len(cs)-1], true
}

// violation checks one round's pairings: every active player exactly
// once, withdrawn players not at all, no repeat opponent, at most one bye
// each and none after a forfeit win (FIDE C.04.1 d, an absolute criterion
// of the Dutch system, C.04.3 C.2; tankbot's earlier search only put such
// players last), and colours (of played games so far, this round's included) never
// three in a row nor more than two apart, except for a last-round pairing
// with a topscorer (FIDE C.04.3 A.7).
func (h *history) violation(tr *Tournament, ps []Pairing) string {
	seen := map[string]bool{}
	for _, p := range ps {
		for _, id := range []string{p.White, p.Black} {
			if id == "" {
				continue
			}
			if seen[id] {
				return id + " paired twice"
			}
			if e, _ := tr.Entrant(id); e.Withdrawn && e.WithdrawnRound < p.Round {
				return "withdrawn player " + id + " is paired"
			}
			seen[id] = true
		}
		if p.IsBye() {
			if h.bye[p.White] {
				return p.White + " has a second bye"
			}
			if h.fwin[p.White] {
				return p.White + " has a bye after a forfeit win"
			}
			continue
		}
		if h.met[key(p.White, p.Black)] {
			return p.White + " meets " + p.Black + " again"
		}
		// FIDE relaxes the colour criteria for a topscorer (more than
		// half the possible points) in the last round.
		top := func(id string) bool { return h.score[id] > float64(p.Round-1)/2 }
		if p.Round == tr.SwissRounds && (top(p.White) || top(p.Black)) {
			continue
		}
		for c, id := range []string{p.White, p.Black} {
			cs := append(append([]Colour(nil), h.colours[id]...), Colour(c))
			d := 0
			for i, x := range cs {
				d += 1 - 2*int(x)
				if d > 2 || d < -2 {
					return fmt.Sprintf("%s colour difference %d", id, d)
				}
				if i >= 2 && cs[i-1] == x && cs[i-2] == x {
					return id + " gets the same colour three times in a row"
				}
			}
		}
	}
	for _, e := range tr.Entrants {
		if !e.Withdrawn && !seen[e.Player] {
			return e.Player + " is not paired"
		}
	}
	return ""
}
