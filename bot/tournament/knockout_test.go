package tournament

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// A 4-player knockout where seed 1 loses its semi-final and seed 2 draws
// its own (a draw goes to Black): both are out in round 1, ranked by seed
// (not by the half point seed 2 scored), both share third place; the
// final's two winners both had Black, so the better seed (3) gets White,
// not the upper board's winner (4).
func TestKnockoutPodiumRanksAndColours(t *testing.T) {
	tr := newT(t, Knockout, 0, 4)
	ps := mustStart(t, tr)
	if ps[0].White != "p01" || ps[0].Black != "p04" || ps[1].White != "p02" || ps[1].Black != "p03" {
		t.Fatalf("semi-finals %+v", ps)
	}
	tr.Record(1, 1, BlackWins) // p04 knocks out seed 1
	tr.Record(1, 2, Draw)      // p03 goes through on the draw; p02 scored ½
	ps, err := tr.NextRound(1, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].White != "p03" || ps[0].Black != "p04" {
		t.Fatalf("final %+v: equal White counts, the better seed p03 has White", ps)
	}
	tr.Record(2, 1, BlackWins)
	if _, err := tr.NextRound(2, t0); err != nil || tr.Status != Finished {
		t.Fatalf("after the final: %v %s", err, tr.Status)
	}
	var got []string
	for _, s := range tr.Standings() {
		got = append(got, fmt.Sprintf("%d.%s", s.Rank, s.Player))
	}
	if fmt.Sprint(got) != "[1.p04 2.p03 3.p01 3.p02]" {
		t.Fatalf("standings %v: round reached, then seed; semi-final losers share third", got)
	}
	if got := fmt.Sprint(tr.Podium()); got != "[[p04] [p03] [p01 p02]]" {
		t.Fatalf("podium %s", got)
	}
}

// An explicit player limit of 0 (or less) is refused, not taken as "no
// limit"; a limit outside the format's range too.
func TestMaxPlayersZeroRefused(t *testing.T) {
	for _, n := range []int{0, -3, 1, MaxEntrants + 1} {
		if err := CheckMaxPlayers(Swiss, n); !errors.Is(err, ErrBadSettings) {
			t.Errorf("players:%d: %v", n, err)
		}
	}
	if _, err := New("org", Settings{Format: Knockout, MaxPlayers: -1, RoundLength: time.Hour}); !errors.Is(err, ErrBadSettings) {
		t.Errorf("a negative limit: %v", err)
	}
	if err := CheckMaxPlayers(Knockout, 2); err != nil {
		t.Error(err)
	}
}

// A double round-robin is the Berger tables twice, the second cycle with
// colours swapped: every pair meets twice, once with each colour; an odd
// field rests twice each.
func TestDoubleRoundRobin(t *testing.T) {
	for _, n := range []int{4, 5} {
		tr := newT(t, DoubleRoundRobin, 0, n)
		mustStart(t, tr)
		games, rests := map[string]int{}, map[string]int{}
		for tr.Status == Running {
			for _, p := range tr.Rounds[tr.Round-1] {
				if p.IsBye() {
					rests[p.White]++
					continue
				}
				games[p.White+">"+p.Black]++
				tr.Record(p.Round, p.Board, Draw)
			}
			if _, err := tr.NextRound(tr.Round, t0); err != nil {
				t.Fatal(err)
			}
		}
		cycle := n - 1 + n%2
		if tr.Round != 2*cycle || len(games) != n*(n-1) {
			t.Fatalf("%d players: %d rounds, %d ordered pairs", n, tr.Round, len(games))
		}
		for k, v := range games {
			if v != 1 {
				t.Errorf("%d players: %s %d times", n, k, v)
			}
		}
		for i := range cycle {
			a, b := tr.Rounds[i], tr.Rounds[cycle+i]
			for j := range a {
				if a[j].IsBye() {
					if a[j].White != b[j].White {
						t.Errorf("round %d rest %s, round %d %s", i+1, a[j].White, cycle+i+1, b[j].White)
					}
					continue
				}
				if a[j].White != b[j].Black || a[j].Black != b[j].White {
					t.Fatalf("round %d board %d %+v, round %d %+v: not swapped", i+1, j+1, a[j], cycle+i+1, b[j])
				}
			}
		}
		if n%2 == 1 && len(rests) != n {
			t.Errorf("rests %v", rests)
		}
	}
}
