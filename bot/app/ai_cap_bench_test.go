package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/store/clock"
)

// BenchmarkComputerMoveCap measures the time cap as the bot keeps it: the
// whole computer move, from its turn (the scheduler's event, after the wait
// for a search slot) to the move stored in SQLite (a real file) with its
// board queued — the "took" of the "computer moved" log line and the
// tankbot_ai_move_seconds metric. Two games against level 5 run at once
// (two search slots, on the real clock); the human side answers at once
// with a level-2 move, so that both computers start thinking in the same
// scheduler pass. It reports, per game, the largest whole move, its 99th
// percentile, the moves over the 1.5 s cap and, for comparison, the largest
// search alone (Think). 500 computer moves per game, as BenchmarkThinkCap
// (AI_CAP_MOVES for another count, -short: 10).
//
//	go test ./bot -run '^$' -bench ComputerMoveCap -benchtime 1x
func BenchmarkComputerMoveCap(b *testing.B) {
	moves := 500
	if testing.Short() {
		moves = 10
	}
	if v, err := strconv.Atoi(os.Getenv("AI_CAP_MOVES")); err == nil && v > 0 {
		moves = v
	}
	limit := ai.LevelLimits(5).MoveTime
	for _, tc := range []struct{ game, variant string }{{"tank", ""}, {"camelot", ""}, {"gungi", "quick"}} {
		b.Run(tc.game, func(b *testing.B) {
			for b.Loop() {
				log := &tookLog{}
				st, err := OpenSQLite(filepath.Join(b.TempDir(), "cap.db"))
				if err != nil {
					b.Fatal(err)
				}
				bt := New(Config{SelfID: tankbot.ID, AIWorkers: 2}, st, clock.Real{}, &fakeNotifier{}, slog.New(log))
				ctx := context.Background()
				tables := make([]int64, 2)
				started := 0
				newGame := func(i int) {
					started++
					human := User{ID: fmt.Sprintf("h%d", started), Name: "h"}
					opts := map[string]string{"level": "5", "game": tc.game, "clock": "untimed", "color": "white"}
					if tc.variant != "" {
						opts["map"] = tc.variant
					}
					rs := bt.Handle(ctx, Command{Name: "challenge", User: human, GuildID: "g", ChannelID: fmt.Sprintf("c%d", started),
						Options: opts, Users: map[string]User{tankbot.ID: tankbot}})
					for _, r := range rs {
						if isBoard(r) {
							tables[i] = gameOf(r)
							return
						}
					}
					b.Fatalf("no game against the computer: %+v", rs)
				}
				for i := range tables {
					newGame(i)
				}
				for passes := 0; log.count() < moves; passes++ {
					if passes > 4*moves {
						b.Fatalf("%d computer moves after %d passes", log.count(), passes)
					}
					for i, id := range tables {
						g, err := bt.St.game(ctx, id)
						if err != nil {
							b.Fatal(err)
						}
						pos, err := g.Position()
						if err != nil {
							b.Fatal(err)
						}
						if g.Status != GmActive || g.Ply >= 300 {
							newGame(i)
							continue
						}
						if g.AIMoves(int(pos.Turn())) {
							continue // its move is still to come
						}
						res, err := ai.Think(ctx, pos, ai.Limits{Level: 2, Seed: int64(started*1000 + g.Ply)})
						if err != nil {
							b.Fatal(err)
						}
						rs := bt.Handle(ctx, Command{Name: "move", User: g.User(int(pos.Turn())), GuildID: "g", ChannelID: g.ChannelID,
							Options: map[string]string{"move": res.Notation}})
						if len(rs) == 0 || rs[0].Ephemeral {
							b.Fatalf("move %s refused: %+v", res.Notation, rs)
						}
					}
					if err := bt.Tick(ctx); err != nil {
						b.Fatal(err)
					}
					bt.WaitAI()
				}
				took, think := log.times()
				slices.Sort(took)
				over := 0
				for _, d := range took {
					if d > limit {
						over++
					}
				}
				b.ReportMetric(float64(took[len(took)-1].Milliseconds()), "max-ms")
				b.ReportMetric(float64(took[len(took)*99/100].Milliseconds()), "p99-ms")
				b.ReportMetric(float64(over), "over-cap")
				b.ReportMetric(float64(len(took)), "moves")
				b.ReportMetric(float64(slices.Max(think).Milliseconds()), "max-think-ms")
				b.ReportMetric(float64(started), "games")
				st.Close()
			}
		})
	}
}

// tookLog collects the "took" and "elapsed" of the bot's "computer moved"
// debug lines.
type tookLog struct {
	mu          sync.Mutex
	took, think []time.Duration
}

func (l *tookLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *tookLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *tookLog) WithGroup(string) slog.Handler            { return l }

func (l *tookLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "computer moved" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "took":
			l.took = append(l.took, a.Value.Duration())
		case "elapsed":
			l.think = append(l.think, a.Value.Duration())
		}
		return true
	})
	return nil
}

func (l *tookLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.took)
}

func (l *tookLog) times() (took, think []time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.took), slices.Clone(l.think)
}
