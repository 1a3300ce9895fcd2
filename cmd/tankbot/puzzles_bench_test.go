package main

import (
	"bufio"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/imaging"
)

// BenchmarkPuzzleGenerate mines two self-play games per game and
// iteration (as `puzzles generate --seed 2026` does with its default
// settings: depth 2, blunder deviations) and reports puzzles a minute.
func BenchmarkPuzzleGenerate(b *testing.B) {
	for _, g := range puzzle.Games {
		b.Run(g, func(b *testing.B) {
			r, _ := games.Lookup(g)
			found, positions := 0, 0
			start := time.Now()
			for k := 0; k < b.N; k++ {
				run := &genRun{game: g, set: puzzle.DefaultSettings(g), out: bufio.NewWriter(io.Discard), stderr: io.Discard,
					seen: map[string]bool{}, deviations: 3, start: start, lastShow: start}
				for game := 2 * k; game < 2*k+2; game++ {
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

// BenchmarkPuzzleVerify re-verifies shipped puzzles as the collection test
// does (one move deeper than generation) and reports the time per puzzle.
func BenchmarkPuzzleVerify(b *testing.B) {
	for _, g := range puzzle.Games {
		b.Run(g, func(b *testing.B) {
			ps, err := puzzle.Shipped(g)
			if err != nil || len(ps) == 0 {
				b.Fatalf("%s: %d puzzles, %v", g, len(ps), err)
			}
			for k := 0; k < b.N; k++ {
				if err := puzzle.Verify(ps[k%len(ps)], 1, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed())/1e6/float64(b.N), "ms/puzzle")
		})
	}
}
