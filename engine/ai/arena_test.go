package ai

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

func TestParsePlayer(t *testing.T) {
	for _, ok := range []string{"ai:1", "AI:5", "random", " greedy "} {
		if _, err := ParsePlayer(ok, 0, 0); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"ai:0", "ai:6", "ai:x", "stockfish", ""} {
		if _, err := ParsePlayer(bad, 0, 0); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A tiny match in each game: every game ends or is adjudicated, the counts
// add up, both players thought, and a replay with the same seed gives the
// same result.
func TestMatchTiny(t *testing.T) {
	for _, r := range games.All() {
		t.Run(r.Name(), func(t *testing.T) {
			// The time cap lifted (as arena --nocap does): a cap reached
			// on a loaded machine (L2's 1 s cap was, under -race at load
			// 55) makes the moves depend on the load.
			a, _ := ParsePlayer("ai:2", 300, time.Hour)
			b, _ := ParsePlayer("random", 0, 0)
			m := Match{Rules: r, A: a, B: b, Games: 2, Seed: 3, OpeningPlies: 2, MaxPly: 60}
			if r.Name() == "gungi" {
				m.Variant = "quick" // past the draft, which TestGungiDraft covers
			}
			calls := 0
			m.Progress = func(done, total int, _ MatchResult) { calls++ }
			res, err := m.Play(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Games() != 2 || calls != 2 {
				t.Fatalf("games %d, progress calls %d", res.Games(), calls)
			}
			if res.ThinkA.Moves == 0 || res.ThinkB.Moves == 0 || res.ThinkA.Max < res.ThinkA.Mean() {
				t.Errorf("think stats %+v %+v", res.ThinkA, res.ThinkB)
			}
			m.Progress = nil
			again, err := m.Play(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if again.Wins != res.Wins || again.Draws != res.Draws || again.Plies != res.Plies {
				t.Errorf("not reproducible: %+v then %+v", res, again)
			}
			// Two games at a time: the same games, whatever finishes first;
			// each finished game is handed over once.
			m.Concurrent = 2
			finished := map[int]int{}
			m.Finished = func(i int, white, black string, g *engine.Game) {
				finished[i] += g.Ply()
				if (i%2 == 0) != (white == a.Name()) || white == black && a.Name() != b.Name() {
					t.Errorf("game %d: white %s, black %s", i, white, black)
				}
			}
			par, err := m.Play(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if par.Wins != res.Wins || par.Draws != res.Draws || par.Plies != res.Plies || par.ThinkA.Moves != res.ThinkA.Moves {
				t.Errorf("concurrent games differ: %+v then %+v", res, par)
			}
			if len(finished) != 2 || finished[0]+finished[1] != par.Plies {
				t.Errorf("finished games %v, plies %d", finished, par.Plies)
			}
			if q := par.ThinkA.Quantile(0.99); q > par.ThinkA.Max || q <= 0 || par.ThinkA.Over(par.ThinkA.Max) != 0 || par.ThinkA.Over(0) != par.ThinkA.Moves {
				t.Errorf("quantile %v, max %v, over %d", q, par.ThinkA.Max, par.ThinkA.Over(0))
			}
		})
	}
}

func TestElo(t *testing.T) {
	r := MatchResult{Wins: 30, Draws: 40, Losses: 30}
	if d, lo, hi := r.Elo(); d != 0 || lo >= 0 || hi <= 0 || math.Abs(lo+hi) > 1e-9 {
		t.Errorf("even match: %v [%v, %v]", d, lo, hi)
	}
	r = MatchResult{Wins: 75, Losses: 25}
	if d, lo, hi := r.Elo(); math.Abs(d-190.8) > 0.5 || lo >= d || hi <= d {
		t.Errorf("75%%: %v [%v, %v]", d, lo, hi)
	}
	r = MatchResult{Wins: 10}
	if d, lo, _ := r.Elo(); !math.IsInf(d, 1) || math.IsInf(lo, 0) || lo <= 0 {
		t.Errorf("perfect: %v lower %v", d, lo)
	}
}
