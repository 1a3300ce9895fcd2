package ai

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// BenchmarkSearch reports nodes per second of a fixed 20 000-node search.
func BenchmarkSearch(b *testing.B) {
	for _, game := range games.Names() {
		b.Run(game, func(b *testing.B) {
			r, _ := games.Lookup(game)
			p := midgame(b, r)
			var nodes int64
			b.ResetTimer()
			for b.Loop() {
				res, err := Think(context.Background(), p, Limits{Level: 5, Nodes: 20000, MoveTime: 1 << 40})
				if err != nil {
					b.Fatal(err)
				}
				nodes += res.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkThinkCap plays level-5 self-play in every game, two games at a
// time (a second search competes for the cores, as on a busy bot), and
// reports the largest wall time from the call to Think to the move played
// on the position (search, notation, replay of the move) against the
// level's cap, over 500 moves of each game (the measurement): each
// of the two players keeps starting new games (new seeds) until the two
// together have played that many moves. AI_CAP_MOVES sets another count;
// -short plays 40.
func BenchmarkThinkCap(b *testing.B) {
	moves := 500
	if testing.Short() {
		moves = 40
	}
	if v, err := strconv.Atoi(os.Getenv("AI_CAP_MOVES")); err == nil && v > 0 {
		moves = v
	}
	for _, game := range games.Names() {
		b.Run(game, func(b *testing.B) {
			r, _ := games.Lookup(game)
			variant := ""
			if game == "gungi" {
				variant = "quick" // the draft plays by plan, without search
			}
			limit := LevelLimits(5).MoveTime
			for b.Loop() {
				var mu sync.Mutex
				var worst time.Duration
				var times []time.Duration
				over, total, started, games := 0, 0, 0, 0
				var wg sync.WaitGroup
				for w := range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for gi := 0; ; gi++ {
							p, _ := r.Start(variant)
							g := engine.NewGame(p)
							// Level 5 has no noise: two seeded random
							// plies make each game its own.
							rng := rand.New(rand.NewPCG(uint64(w), uint64(gi)))
							for range 2 {
								ms := g.Position().LegalMoves()
								if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
									b.Error(err)
									return
								}
							}
							for ply := 0; ply < 400 && !g.Outcome().Over(); ply++ {
								mu.Lock()
								done := started >= moves
								started++
								mu.Unlock()
								if done {
									return
								}
								seed := int64(w*1_000_000 + gi*1000 + ply)
								t0 := time.Now()
								res, err := Think(context.Background(), g.Position(), Limits{Level: 5, Seed: seed, History: GameHistory(g)})
								if err != nil {
									b.Error(err)
									return
								}
								if err := g.Play(res.Move); err != nil {
									b.Error(err)
									return
								}
								d := time.Since(t0)
								mu.Lock()
								worst = max(worst, d)
								times = append(times, d)
								total++
								if d > limit {
									over++
								}
								mu.Unlock()
							}
							mu.Lock()
							games++
							mu.Unlock()
						}
					}()
				}
				wg.Wait()
				slices.Sort(times)
				b.ReportMetric(float64(worst.Milliseconds()), "max-ms")
				if len(times) > 0 {
					b.ReportMetric(float64(times[(len(times)*99)/100].Milliseconds()), "p99-ms")
				}
				b.ReportMetric(float64(over), "over-cap")
				b.ReportMetric(float64(total), "moves")
				b.ReportMetric(float64(games), "games-ended")
			}
		})
	}
}
