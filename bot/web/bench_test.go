package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkLiveViewers holds 1,000 live viewers (Server-Sent Events over
// real HTTP, 100 on each of 10 games) on one viewer, makes moves in the
// store and measures, per viewer and move, the time from the move's commit
// to its update arriving. It reports the viewer count, the process's heap
// and stacks with the viewers connected (the clients live in the same
// process, so this bounds the server's share from above) and the update
// latency p50/p99. Run with -benchtime 1x (docs/web.md).
func BenchmarkLiveViewers(b *testing.B) {
	const gamesN, perGame, rounds = 10, 100, 5
	f := newFixture(b)
	f.v.opt.Poll = defaultPoll // as deployed (the fixture polls faster); the poller starts with the first viewer
	// Every viewer here is one client address (this process): no
	// per-client cap, and room for all of them.
	f.v.live.perClient, f.v.live.max = -1, gamesN*perGame
	gs := make([]*seeded, gamesN)
	for i := range gs {
		gs[i] = f.seed(b, 2, false)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: gamesN * perGame}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type arrival struct {
		game, ply int
		at        time.Time
	}
	arrivals := make(chan arrival, gamesN*perGame*(rounds+1))
	var ready, wg sync.WaitGroup
	for gi, g := range gs {
		for range perGame {
			ready.Add(1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/g/"+g.token+"/events", nil)
				res, err := client.Do(req)
				if err != nil {
					ready.Done()
					b.Error(err)
					return
				}
				defer res.Body.Close()
				if res.StatusCode != http.StatusOK {
					ready.Done() // a refused stream sends no first event
					b.Errorf("stream: %s", res.Status)
					return
				}
				r := bufio.NewReader(res.Body)
				first := true
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					data, ok := strings.CutPrefix(line, "data: ")
					if !ok {
						continue
					}
					var u liveUpdate
					if json.Unmarshal([]byte(data), &u) != nil {
						b.Errorf("bad event %q", data)
						return
					}
					if first {
						first = false
						ready.Done()
						continue
					}
					arrivals <- arrival{gi, len(u.Moves) - 1, time.Now()}
				}
			}()
		}
	}
	ready.Wait()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	viewers := f.v.hub.viewers()
	b.ResetTimer()
	var lat []time.Duration
	for range b.N {
		for range rounds {
			committed := make(map[[2]int]time.Time)
			for gi, g := range gs {
				f.move(b, g)
				committed[[2]int{gi, g.ply}] = time.Now()
			}
			for range gamesN * perGame {
				select {
				case a := <-arrivals:
					if at, ok := committed[[2]int{a.game, a.ply}]; ok {
						lat = append(lat, a.at.Sub(at))
					}
				case <-time.After(30 * time.Second):
					b.Fatalf("updates missing after 30 s (%d received)", len(lat))
				}
			}
		}
	}
	b.StopTimer()
	cancel()
	wg.Wait()
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	mem := float64(after.HeapInuse+after.StackInuse) - float64(before.HeapInuse+before.StackInuse)
	b.ReportMetric(float64(viewers), "viewers")
	b.ReportMetric(mem/(1<<20), "MiB-with-viewers")
	b.ReportMetric(mem/float64(viewers)/1024, "KiB/viewer")
	b.ReportMetric(float64(pct(0.5).Microseconds())/1000, "ms-p50")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "ms-p99")
	b.ReportMetric(float64(len(lat)), "updates")
}
