package puzzle

import (
	"context"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// GamePositions replays a game: the start and every ongoing position, the
// final (won) one left out; a bad move is an error naming it; MineGame
// finds the shipped puzzle's line again in its own game, once, and skips
// what it is told to.
func TestGamePositionsAndMineGame(t *testing.T) {
	ps, err := Shipped("camelot")
	if err != nil {
		t.Fatal(err)
	}
	var pz *Puzzle
	for _, p := range ps {
		if p.Depth == 2 {
			pz = p
			break
		}
	}
	if pz == nil {
		t.Fatal("no two-move Camelot puzzle")
	}
	start, err := pz.Decode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := GamePositions(start, pz.Solution)
	if err != nil || len(got) != len(pz.Solution) || got[0].Encode() != pz.Position {
		t.Fatalf("positions: %d, %v (want %d from the start)", len(got), err, len(pz.Solution))
	}
	if _, err := GamePositions(start, []string{pz.Solution[0], "Z99-Z98"}); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Fatalf("bad move: %v", err)
	}
	found, err := MineGame(context.Background(), append(got, got[0]), DefaultSettings("camelot"), "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range found {
		if f.ID == pz.ID {
			n++
			if strings.Join(f.Solution, " ") != strings.Join(pz.Solution, " ") || f.Source != "test:0" {
				t.Errorf("mined %+v, want the shipped line from ply 0", f)
			}
		}
	}
	if n != 1 {
		t.Fatalf("the shipped puzzle mined %d times from its game", n)
	}
	skipped, _ := MineGame(context.Background(), got[:1], DefaultSettings("camelot"), "test", func(id string) bool { return id == pz.ID })
	if len(skipped) != 0 {
		t.Errorf("a skipped id was mined: %+v", skipped)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MineGame(ctx, got, DefaultSettings("camelot"), "test", nil); err == nil {
		t.Error("a cancelled mining ran on")
	}
}

// BenchmarkMineGame is the cost of mining one finished game as the bot's
// scheduler does (MineGame on its positions, the shipped settings): one
// self-play game per game, reported per position (run with -benchtime 1x).
func BenchmarkMineGame(b *testing.B) {
	for _, r := range []engine.Rules{tank.Rules, camelot.Rules, gungi.Rules} {
		b.Run(r.Name(), func(b *testing.B) {
			ps, err := SelfPlay(r, 2026, 0, 300)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			found := 0
			for range b.N {
				pzs, err := MineGame(context.Background(), ps, DefaultSettings(r.Name()), "bench", nil)
				if err != nil {
					b.Fatal(err)
				}
				found = len(pzs)
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(ps)), "ms/position")
			b.ReportMetric(float64(len(ps)), "positions")
			b.ReportMetric(float64(found), "puzzles")
		})
	}
}
