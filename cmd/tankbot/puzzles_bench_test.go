package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/imaging"
)

// BenchmarkPuzzleGenerate mines two self-play games per game and
// iteration, as `puzzles generate --seed 2026` does with the game's
// depth-1 settings ("default") and with --deep ("deep"), and reports
// puzzles a minute and positions tried a second.
func BenchmarkPuzzleGenerate(b *testing.B) {
	for _, g := range puzzle.Games {
		for _, mode := range []string{"default", "deep"} {
			b.Run(g+"/"+mode, func(b *testing.B) {
				r, _ := games.Lookup(g)
				set := puzzle.DefaultSettings(g)
				if mode == "deep" {
					set = puzzle.DeepSettings(g)
				}
				found, positions := 0, 0
				start := time.Now()
				for k := 0; k < b.N; k++ {
					run := &genRun{game: g, set: set, out: bufio.NewWriter(io.Discard), stderr: io.Discard,
						seen: map[string]bool{}, deviations: 3, start: start, lastShow: start}
					per := 2 // self-play games per iteration; 1 in CI's smoke run
					if testing.Short() {
						per = 1
					}
					for game := per * k; game < per*k+per; game++ {
						ps, err := puzzle.SelfPlay(r, 2026, game, 300)
						if err != nil {
							b.Fatal(err)
						}
						run.mine(ps, "bench", 0)
					}
					found += run.found
					positions += run.positions
				}
				el := time.Since(start)
				b.ReportMetric(perMinute(found, el), "puzzles/min")
				b.ReportMetric(float64(positions)/el.Seconds(), "positions/s")
			})
		}
	}
}

// BenchmarkPuzzleChooseAndDraw is what serving a puzzle costs: choose one
// near the player's rating from the shipped collection and draw it from
// the solver's side (target: 50 ms).
func BenchmarkPuzzleChooseAndDraw(b *testing.B) {
	for _, g := range puzzle.Games {
		b.Run(g, func(b *testing.B) {
			ps, err := puzzle.Shipped(g)
			if err != nil || len(ps) == 0 {
				b.Fatalf("%s: %d puzzles, %v", g, len(ps), err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			// Warm up once: fonts and palettes load on the first drawing,
			// not for every puzzle a server serves.
			if warm, err := ps[0].Decode(); err != nil {
				b.Fatal(err)
			} else if _, err := imaging.Render(warm, imaging.Options{}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for k := 0; k < b.N; k++ {
				p := puzzle.Choose(ps, 1300+float64(k%5)*100, nil, rng)
				pos, err := p.Decode()
				if err != nil {
					b.Fatal(err)
				}
				png, err := imaging.Render(pos, imaging.Options{Flip: pos.Turn() == 1})
				if err != nil || len(png) == 0 {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed())/1e6/float64(b.N), "ms/puzzle")
		})
	}
}

// BenchmarkPuzzleVerify re-verifies every shipped puzzle per iteration,
// as the collection test does (puzzle.VerifyShipped, within the game's
// verification budget), on all cores, and fails on any error:
// CI runs it once without the race detector, so the whole collection is
// verified there. It reports the time one puzzle takes on one core, overall
// and per depth, and the moves and move lists a puzzle costs.
func BenchmarkPuzzleVerify(b *testing.B) {
	for _, g := range puzzle.Games {
		b.Run(g, func(b *testing.B) {
			ps, err := puzzle.Shipped(g)
			if err != nil || len(ps) == 0 {
				b.Fatalf("%s: %d puzzles, %v", g, len(ps), err)
			}
			var mu sync.Mutex
			var spent [puzzle.MaxDepth + 1]time.Duration
			var count [puzzle.MaxDepth + 1]int
			var cost int64
			var fails []string
			for k := 0; k < b.N; k++ {
				work := make(chan *puzzle.Puzzle)
				var wg sync.WaitGroup
				for range runtime.GOMAXPROCS(0) {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for pz := range work {
							st := time.Now()
							n, err := puzzle.VerifyShipped(pz, puzzle.VerifyBound(g, pz.Depth))
							el := time.Since(st)
							mu.Lock()
							spent[pz.Depth] += el
							count[pz.Depth]++
							cost += n
							if err != nil {
								fails = append(fails, err.Error())
							}
							mu.Unlock()
						}
					}()
				}
				// -short (CI's smoke run) times every 10th puzzle; CI
				// verifies every one in TestShippedCollection.
				step := 1
				if testing.Short() {
					step = 10
				}
				for i := 0; i < len(ps); i += step {
					work <- ps[i]
				}
				close(work)
				wg.Wait()
			}
			if len(fails) > 0 {
				b.Fatalf("%d puzzles fail: %s", len(fails), strings.Join(fails, "; "))
			}
			var all time.Duration
			n := 0
			for d := range spent {
				all += spent[d]
				n += count[d]
				if count[d] > 0 {
					b.ReportMetric(float64(spent[d])/1e6/float64(count[d]), fmt.Sprintf("ms/puzzle-d%d", d))
				}
			}
			b.ReportMetric(float64(all)/1e6/float64(n), "ms/puzzle")
			b.ReportMetric(float64(cost)/float64(n), "nodes/puzzle")
		})
	}
}
