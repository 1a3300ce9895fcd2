package ai

import (
	"context"
	"testing"

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
