package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkSwiss64 pairs every round of a 64-player, 11-round Swiss with
// random results (run with -benchtime 1x; the figure is per tournament).
func BenchmarkSwiss64(b *testing.B) {
	for b.Loop() {
		rng := rand.New(rand.NewPCG(7, 7))
		tr, _ := New("org", Settings{Format: Swiss, SwissRounds: 11, RoundLength: time.Hour})
		for i := range 64 {
			tr.Join(fmt.Sprint("p", i), float64(rng.IntN(2000)), t0)
		}
		if _, err := tr.Start(organiser(), t0); err != nil {
			b.Fatal(err)
		}
		for tr.Status == Running {
			for _, p := range tr.Rounds[tr.Round-1] {
				if p.Result == Pending {
					tr.Record(p.Round, p.Board, []Result{WhiteWins, BlackWins, Draw}[rng.IntN(3)])
				}
			}
			if _, err := tr.NextRound(tr.Round, t0); err != nil {
				b.Fatal(err)
			}
		}
		if tr.Round != 11 {
			b.Fatalf("ended after round %d", tr.Round)
		}
	}
}

// BenchmarkSwissPair128 pairs one round of a 128-player Swiss (round 8,
// after seven rounds of random results): the figure is per round; the
// target is at most 1 s on one core (go test -run X -bench SwissPair128
// -cpu 1 ./bot/tournament/).
func BenchmarkSwissPair128(b *testing.B) {
	rng := rand.New(rand.NewPCG(128, 1))
	tr, _ := New("org", Settings{Format: Swiss, SwissRounds: 9, RoundLength: time.Hour})
	for i := range 128 {
		tr.Join(fmt.Sprint("p", i), float64(1000+rng.IntN(1500)), t0)
	}
	if _, err := tr.Start(organiser(), t0); err != nil {
		b.Fatal(err)
	}
	for tr.Round < 7 {
		for _, p := range tr.Rounds[tr.Round-1] {
			if p.Result == Pending {
				tr.Record(p.Round, p.Board, []Result{WhiteWins, BlackWins, Draw}[rng.IntN(3)])
			}
		}
		if _, err := tr.NextRound(tr.Round, t0); err != nil {
			b.Fatal(err)
		}
	}
	for _, p := range tr.Rounds[tr.Round-1] {
		if p.Result == Pending {
			tr.Record(p.Round, p.Board, []Result{WhiteWins, BlackWins, Draw}[rng.IntN(3)])
		}
	}
	for b.Loop() {
		if ps, err := tr.PairNext(nil); err != nil || len(ps) != 64 {
			b.Fatalf("%d boards: %v", len(ps), err)
		}
	}
}
