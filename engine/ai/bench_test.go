package ai

import (
	"context"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// benchPositions are middle-game positions: the start position after a few
// seeded ai:1 plies (Gungi from the quick start, past the draft).
func benchPosition(b *testing.B, game string) engine.Position {
	r, err := games.Lookup(game)
	if err != nil {
		b.Fatal(err)
	}
	variant := ""
	if game == "gungi" {
		variant = "quick"
	}
	p, err := r.Start(variant)
	if err != nil {
		b.Fatal(err)
	}
	for ply := range 12 {
		res, err := Think(context.Background(), p, Limits{Level: 1, Seed: int64(ply)})
		if err != nil {
			b.Fatal(err)
		}
		if p, err = p.Play(res.Move); err != nil {
			b.Fatal(err)
		}
	}
	return p
}

// BenchmarkSearch reports nodes per second of a fixed 20 000-node search.
func BenchmarkSearch(b *testing.B) {
	for _, game := range games.Names() {
		b.Run(game, func(b *testing.B) {
			p := benchPosition(b, game)
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
