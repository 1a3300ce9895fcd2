//go:build unix

package review

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
)

// BenchmarkReview100 reviews a 100-ply game of each game at the default
// budget (DefaultNodes) and reports the review's wall time ("s/review"),
// its CPU time ("cpu-s/review") and nodes. The game is played by the
// level-2 AI (seeded), so it is the same on every run. Run with
// -benchtime 1x.
func BenchmarkReview100(b *testing.B) {
	for _, name := range games.Names() {
		b.Run(name, func(b *testing.B) {
			r, _ := games.Lookup(name)
			variant := ""
			if name == "gungi" {
				variant = "quick" // 100 plies of play, not of draft
			}
			start, err := r.Start(variant)
			if err != nil {
				b.Fatal(err)
			}
			g := engine.NewGame(start)
			for ply := 0; ply < 100 && !g.Outcome().Over(); ply++ {
				res, err := ai.Think(context.Background(), g.Position(), ai.Limits{Level: 2, Seed: int64(ply), MoveTime: 1 << 62, History: ai.GameHistory(g)})
				if err != nil {
					b.Fatal(err)
				}
				if err := g.Play(res.Move); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			var nodes int64
			cpu0 := cpuTime()
			for b.Loop() {
				rv, err := Analyze(context.Background(), start, g.Moves(), Options{})
				if err != nil {
					b.Fatal(err)
				}
				nodes += rv.Nodes
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/review")
			// CPU time is what the target bounds: on a loaded machine the
			// wall time mostly measures the other processes.
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/review")
			b.ReportMetric(float64(g.Ply()), "plies")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/review")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
