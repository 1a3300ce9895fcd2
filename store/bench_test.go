package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkAppendMove is the bot's write path on a file: read the game,
// compare-and-set it, append the move, commit.
func BenchmarkAppendMove(b *testing.B) {
	ctx := context.Background()
	s := open(b, filepath.Join(b.TempDir(), "bench.db"), nil)
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
}

// BenchmarkLoadGame300 loads a game with a 300-move log.
func BenchmarkLoadGame300(b *testing.B) {
	ctx := context.Background()
	s := open(b, filepath.Join(b.TempDir(), "bench.db"), nil)
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
}
