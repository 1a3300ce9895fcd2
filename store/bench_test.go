package store

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

// benchBackends runs fn per backend as sub-benchmarks.
func benchBackends(b *testing.B, fn func(b *testing.B, s *Store)) {
	for _, be := range storetest.Backends() {
		b.Run(be.Name, func(b *testing.B) { fn(b, open(b, be.New(b), nil)) })
	}
}

// BenchmarkAppendMove is the bot's write path: read the game,
// compare-and-set it, append the move, commit; one writer.
func BenchmarkAppendMove(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		g, err := s.CreateGame(ctx, newGame("c", "a", "b"))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			cur, err := s.Game(ctx, g.ID)
			if err != nil {
				b.Fatal(err)
			}
			pos := fmt.Sprint("position-after-", cur.Ply+1)
			if err := s.AppendMove(ctx, g.ID, cur.Ply, MoveRecord{Side: cur.Ply % 2, Notation: "Qd1-d8", Position: pos},
				GameUpdate{ClockState: cur.ClockState}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	})
}

// BenchmarkAppendMoveParallel is the same write path from 8 goroutines per
// core, each playing its own game: many games moving at once, as on a busy
// bot. SQLite queues them on its one writer; PostgreSQL commits in parallel.
func BenchmarkAppendMoveParallel(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		var next atomic.Int64
		b.SetParallelism(8)
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			g, err := s.CreateGame(ctx, newGame(fmt.Sprint("c", next.Add(1)), "a", "b"))
			if err != nil {
				b.Error(err)
				return
			}
			for pb.Next() {
				cur, err := s.Game(ctx, g.ID)
				if err != nil {
					b.Error(err)
					return
				}
				if err := s.AppendMove(ctx, g.ID, cur.Ply, MoveRecord{Side: cur.Ply % 2, Notation: "Qd1-d8", Position: fmt.Sprint("p", cur.Ply+1)},
					GameUpdate{ClockState: cur.ClockState}); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	})
}

// BenchmarkLoadGame300 loads a game with a 300-move log.
func BenchmarkLoadGame300(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		g, err := s.CreateGame(ctx, newGame("c", "a", "b"))
		if err != nil {
			b.Fatal(err)
		}
		for ply := range 300 {
			// Positions of realistic size (an encoded board is ~100 bytes).
			pos := fmt.Sprintf("%0100d", ply+1)
			if err := s.AppendMove(ctx, g.ID, ply, MoveRecord{Side: ply % 2, Notation: "Qd1-d8", Position: pos}, GameUpdate{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportAllocs()
		for b.Loop() {
			_, ms, err := s.LoadGame(ctx, g.ID)
			if err != nil || len(ms) != 300 {
				b.Fatal(len(ms), err)
			}
		}
	})
}
