package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/store/storetest"
)

// TestServeThroughput measures moves per second end to end (signed POST →
// board follow-up received by the fake Discord) against the real binary:
// one and three `serve` instances on one PostgreSQL, and one on SQLite. It
// prints figures and asserts nothing about speed; it runs only when
// TANKBOT_SERVE_BENCH=1 (see docs/deployment.md for the command).
// TANKBOT_BENCH_GAMES, TANKBOT_BENCH_PLIES and TANKBOT_BENCH_INFLIGHT size
// the load.
func TestServeThroughput(t *testing.T) {
	if os.Getenv("TANKBOT_SERVE_BENCH") != "1" {
		t.Skip("set TANKBOT_SERVE_BENCH=1 to measure (prints figures)")
	}
	games := envInt("TANKBOT_BENCH_GAMES", 60)
	plies := envInt("TANKBOT_BENCH_PLIES", 10)
	inFlight := envInt("TANKBOT_BENCH_INFLIGHT", 16)
	for _, c := range []struct {
		name      string
		db        func(testing.TB) string
		instances int
	}{
		{"postgres-1", storetest.Postgres, 1},
		{"postgres-3", storetest.Postgres, 3},
		{"sqlite-1", storetest.SQLite, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := c.db(t)
			w := newBBWorld(t, db)
			w.f.Configure(func(f *discordtest.Fake) { f.DiscardFiles = true })
			procs := make([]*serveProc, c.instances)
			for k := range procs {
				procs[k] = w.start()
			}
			d := newDriver(t, w, procs, db, inFlight)
			gs := make([]*mgame, games)
			var wg sync.WaitGroup
			for i := range gs {
				gs[i] = &mgame{rng: rand.New(rand.NewPCG(uint64(i), 5))}
				wg.Add(1)
				go func(g *mgame) {
					defer wg.Done()
					if err := d.create(g, "tank", "30m"); err != nil {
						t.Error(err)
					}
				}(gs[i])
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			start := time.Now()
			for _, g := range gs {
				wg.Add(1)
				go func(g *mgame) {
					defer wg.Done()
					for k := 0; k < plies; k++ {
						if err := d.move(g); err != nil {
							t.Error(err)
							return
						}
					}
				}(g)
			}
			wg.Wait()
			el := time.Since(start)
			lat := append([]time.Duration(nil), d.latencies...)
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			fmt.Printf("%-11s %d instance(s), %d games × %d plies, %d in flight: %d moves in %v = %.1f moves/s; per move p50 %v p99 %v\n",
				c.name, c.instances, games, plies, inFlight, len(lat), el.Round(time.Millisecond), float64(len(lat))/el.Seconds(),
				percentile(lat, 0.5).Round(time.Millisecond), percentile(lat, 0.99).Round(time.Millisecond))
		})
	}
}
