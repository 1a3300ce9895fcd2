package app

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// BenchmarkRepetition is the repetition check of one Camelot move with the
// log at ply 10 and at ply 10,000: with stored keys it is an index look-up,
// so the two cost the same (the replay it replaces grew with the log: 12 ms
// a move by ply 1,500).
func BenchmarkRepetition(b *testing.B) {
	rules, _ := LookupGame("camelot")
	start := rules.Variants()[0].Position
	for _, plies := range []int{10, 10000} {
		b.Run("ply="+strconv.Itoa(plies), func(b *testing.B) {
			ctx := context.Background()
			st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			row, err := st.CreateGame(ctx, store.Game{Kind: "camelot", Channel: "c", Players: [2]string{"a", "b"}, Start: start})
			if err != nil {
				b.Fatal(err)
			}
			for i := range plies {
				// Distinct keys: no repetition, the log just grows.
				if err := st.AppendMove(ctx, row.ID, i, store.MoveRecord{Notation: "x", Position: "p", RepKey: "k" + strconv.Itoa(i)}, store.GameUpdate{}); err != nil {
					b.Fatal(err)
				}
			}
			bt := newBot(Config{}, NewStorage(st), clock.NewFake(t0), nil, nil)
			g, err := bt.St.game(ctx, row.ID)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				o, err := bt.repetitionOutcome(ctx, g, "F5-F6", "k1")
				if err != nil || o.Over() {
					b.Fatal(err, o)
				}
			}
		})
	}
}
