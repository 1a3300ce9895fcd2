package ai

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// BenchmarkSearch reports nodes per second of a fixed 20 000-node level-5
// search (two-ply pass included) in each of its game's positions of
// testdata/bench_positions.txt: per wall second and per CPU second of the
// searching thread (on a shared machine the wall clock also counts the
// waits for a core).
func BenchmarkSearch(b *testing.B) {
	for _, game := range games.Names() {
		b.Run(game, func(b *testing.B) {
			ps := benchPositions(b, game)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var nodes int64
			b.ResetTimer()
			c0 := threadCPU()
			for b.Loop() {
				for _, p := range ps {
					res, err := Think(context.Background(), p, Limits{Level: 5, Nodes: 20000, MoveTime: 1 << 40})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			if c := threadCPU() - c0; c > 0 {
				b.ReportMetric(float64(nodes)/c.Seconds(), "nodes/cpu-s")
			}
		})
	}
}

// benchPositions reads game's positions from testdata/bench_positions.txt.
func benchPositions(t testing.TB, game string) []engine.Position {
	data, err := os.ReadFile("testdata/bench_positions.txt")
	if err != nil {
		t.Fatal(err)
	}
	r, err := games.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Position
	for _, line := range strings.Split(string(data), "\n") {
		g, enc, ok := strings.Cut(line, "\t")
		if !ok || g != game || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := r.Decode(enc)
		if err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		t.Fatalf("no %s position in testdata/bench_positions.txt", game)
	}
	return out
}

// BenchmarkThinkCap plays level-5 self-play in every game, two games at a
// time (a second search competes for the cores, as on a busy bot), and
// reports the largest wall time from the think request (the game's history
// built, Think called: Limits.Start) to the move played on the position
// (search, notation, replay of the move) against the level's cap, the
// largest time of each phase (Result.Phases; play: the move played on the
// game) and how many moves the deadline cut (Result.Cut), over 500 moves of each game (the measurement): each
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
				var ph Phases // the largest of each phase
				var play time.Duration
				var cpuMax, cpuOfWorst time.Duration // a move's CPU time; that of the slowest move
				cut := 0
				over, total, started, games := 0, 0, 0, 0
				var wg sync.WaitGroup
				for w := range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						runtime.LockOSThread() // threadCPU measures this player only
						defer runtime.UnlockOSThread()
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
								t0, c0 := time.Now(), threadCPU()
								res, err := Think(context.Background(), g.Position(), Limits{Level: 5, Seed: seed, History: GameHistory(g), Start: t0})
								if err != nil {
									b.Error(err)
									return
								}
								t1 := time.Now()
								if err := g.Play(res.Move); err != nil {
									b.Error(err)
									return
								}
								d, c := time.Since(t0), threadCPU()-c0
								mu.Lock()
								cpuMax = max(cpuMax, c)
								if d > worst {
									cpuOfWorst = c
								}
								ph.Stall = max(ph.Stall, res.Phases.Stall)
								ph.Setup = max(ph.Setup, res.Phases.Setup)
								ph.Immediate = max(ph.Immediate, res.Phases.Immediate)
								ph.Search = max(ph.Search, res.Phases.Search)
								ph.Finish = max(ph.Finish, res.Phases.Finish)
								play = max(play, time.Since(t1))
								if res.Cut {
									cut++
								}
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
				b.ReportMetric(float64(cut), "cut")
				b.ReportMetric(float64(ph.Setup.Milliseconds()), "max-setup-ms")
				b.ReportMetric(float64(ph.Immediate.Milliseconds()), "max-pass-ms")
				b.ReportMetric(float64(ph.Search.Milliseconds()), "max-search-ms")
				b.ReportMetric(float64(ph.Finish.Milliseconds()), "max-finish-ms")
				b.ReportMetric(float64(play.Milliseconds()), "max-play-ms")
				b.ReportMetric(float64(ph.Stall.Milliseconds()), "max-stall-ms")
				b.ReportMetric(float64(cpuMax.Milliseconds()), "max-cpu-ms")
				b.ReportMetric(float64(cpuOfWorst.Milliseconds()), "cpu-of-max-ms")
				b.ReportMetric(float64(total), "moves")
				b.ReportMetric(float64(games), "games-ended")
			}
		})
	}
}
