package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

func newDriver(t testing.TB, w *bbWorld, procs []*serveProc, db string, inFlight int) *driver {
	d, err := newFleetDriver(w.fleet, procs, db, inFlight, t.Errorf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.st.Close() })
	return d
}

// resign resigns for the side to move: Resign on the current board, then
// Confirm.
func (d *driver) resign(g *mgame) error {
	gm, err := d.st.Game(context.Background(), g.id)
	if err != nil {
		return err
	}
	u := g.player(g.pos.Turn())
	custom := fmt.Sprintf("g:%d:%d:resign", g.id, gm.Seq)
	msgID := gm.MessageID
	if msgID == "" {
		msgID = d.w.f.NewID()
	}
	_, resp, err := d.send(d.w.click(u, g.ch, msgID, custom))
	if err != nil {
		return fmt.Errorf("resign: %w", err)
	}
	data, _ := resp["data"].(map[string]any)
	yes := ""
	for _, id := range (msg{payload: data}).customIDs() {
		if strings.HasSuffix(id, ":resignyes") {
			yes = id
		}
	}
	if yes == "" {
		return fmt.Errorf("game %d: no resign confirmation: %v", g.id, resp)
	}
	from := d.w.f.Count()
	ev := d.w.click(u, g.ch, d.w.f.NewID(), yes)
	p, _, err := d.send(ev)
	if err != nil {
		return fmt.Errorf("resign confirm: %w", err)
	}
	if _, ok := d.awaitBoard(p, from, ev["token"].(string), g.ch); !ok {
		// Killed before answering: the store says whether it stands.
		if gm, err := d.st.Game(context.Background(), g.id); err == nil && gm.Status != store.StatusActive {
			g.resigned = true
			return nil
		}
		return fmt.Errorf("game %d: resignation not answered", g.id)
	}
	g.resigned = true
	return nil
}

// flagPosts counts the flag-fall announcements posted in each channel
// (nonce-deduplicated resends excluded) and the deduplicated resends.
func flagPosts(f *discordtest.Fake) (perChannel map[string]int, deduped int) {
	perChannel, _, deduped = flagPostsAndLast(f)
	return perChannel, deduped
}

// flagPostsAndLast is flagPosts with the last announcement of each channel.
func flagPostsAndLast(f *discordtest.Fake) (perChannel map[string]int, last map[string]msg, deduped int) {
	perChannel, last = map[string]int{}, map[string]msg{}
	for _, c := range f.CallsFrom(0) {
		if c.Method != "POST" || !strings.HasPrefix(c.Path, "/api/v9/channels/") || !strings.HasSuffix(c.Path, "/messages") || c.Status >= 300 {
			continue
		}
		if s, _ := c.Payload["content"].(string); !strings.Contains(s, "ran out of time") {
			continue
		}
		if c.Deduped {
			deduped++
			continue
		}
		ch := strings.Split(c.Path, "/")[4]
		perChannel[ch]++
		last[ch] = msg{id: c.MsgID, payload: c.Payload, call: c}
	}
	return perChannel, last, deduped
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// TestMultiInstance: three `tankbot serve` processes (the real binary) on
// one PostgreSQL, 200 games at once (TANKBOT_MULTI_GAMES), every
// interaction to a random instance, one instance SIGKILLed mid-run. A
// quarter of the games have 1-minute clocks and are abandoned after the
// accept, so their flags fall (handled by whichever instance is alive);
// the others play random moves on a 30-minute clock, half of them end by
// resignation. Checked: every acknowledged move is in the store exactly
// once at its ply, every flag-fall announced exactly once, every active
// timed game has one pending flag event for its ply, every game finished
// or at its expected ply.
func TestMultiInstance(t *testing.T) {
	db := storetest.Postgres(t)
	w := newBBWorld(t, db)
	w.f.Configure(func(f *discordtest.Fake) {
		f.DiscardFiles = true // hundreds of boards: keep sizes only
		// This test is about the store under several instances and a
		// crash, run with -race on a shared machine: the fake does not
		// hold the instances to Discord's 3 s here
		// (TestBlackBoxServeTankChess does).
		f.ResponseWindow = time.Minute
	})
	nGames := envInt("TANKBOT_MULTI_GAMES", 200)
	plies := envInt("TANKBOT_MULTI_PLIES", 3)
	start := time.Now()
	procs := startFleet(t, w, 3)
	if procs == nil {
		return
	}
	d := newDriver(t, w, procs, db, 16)
	nFlag := nGames / 4
	gs := make([]*mgame, nGames)
	for i := range gs {
		gs[i] = &mgame{rng: rand.New(rand.NewPCG(uint64(i), 17))}
	}
	// The flagged games first: their minute starts at the accept.
	var failed atomic.Int32
	run := func(from, to int, fn func(*mgame) error) {
		var wg sync.WaitGroup
		for _, g := range gs[from:to] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := fn(g); err != nil {
					failed.Add(1)
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	run(0, nFlag, func(g *mgame) error { return d.create(g, "tank", "1m") })
	flagsFrom := time.Now()
	t.Logf("%d timed games created in %v", nFlag, time.Since(start).Round(time.Millisecond))
	run(nFlag, nGames, func(g *mgame) error { return d.create(g, "tank", "30m") })
	t.Logf("%d games created at %v", nGames, time.Since(start).Round(time.Millisecond))
	if failed.Load() > 0 {
		t.FailNow()
	}

	// Moves; the kill comes once a third of them are acknowledged.
	total := (nGames - nFlag) * plies
	var done atomic.Int64
	killed := make(chan struct{})
	victim := procs[rand.IntN(len(procs))]
	go func() {
		for done.Load() < int64(total/3) && failed.Load() == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		victim.kill()
		t.Logf("SIGKILL one instance after %d moves, at %v", done.Load(), time.Since(start).Round(time.Millisecond))
		close(killed)
	}()
	run(nFlag, nGames, func(g *mgame) error {
		for k := 0; k < plies; k++ {
			if err := d.move(g); err != nil {
				return err
			}
			done.Add(1)
		}
		if g.rng.IntN(2) == 0 {
			return d.resign(g)
		}
		return nil
	})
	<-killed
	t.Logf("moves done at %v: %d acknowledged, %d committed unacknowledged, %d resent", time.Since(start).Round(time.Millisecond), len(d.latencies), d.unacked, d.retried)

	// The flags fall a minute after their accept; the survivors announce
	// them, however long a busy CPU makes them take (a hang ends at the
	// bound, an hour).
	deadline := flagsFrom.Add(time.Minute + eventWait)
	for {
		per, _ := flagPosts(w.f)
		if len(per) >= nFlag || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(time.Second) // a late duplicate would show now
	per, last, deduped := flagPostsAndLast(w.f)
	t.Logf("flag-falls announced in %d channels at %v (%d nonce-deduplicated resends)", len(per), time.Since(start).Round(time.Millisecond), deduped)

	ctx := context.Background()
	for i, g := range gs {
		gm, moves, err := d.st.LoadGame(ctx, g.id)
		if err != nil {
			t.Errorf("game %d: %v", g.id, err)
			continue
		}
		// Every committed move once, at its ply, in order.
		if len(moves) != len(g.played) || gm.Ply != len(g.played) {
			t.Errorf("game %d: store has %d moves (ply %d), driver committed %d", g.id, len(moves), gm.Ply, len(g.played))
		}
		for k := 0; k < min(len(moves), len(g.played)); k++ {
			if moves[k].Ply != k+1 || moves[k].Notation != g.played[k] {
				t.Errorf("game %d: move %d is %q at ply %d, want %q", g.id, k+1, moves[k].Notation, moves[k].Ply, g.played[k])
			}
		}
		switch {
		case i < nFlag:
			if gm.Status == store.StatusActive || per[g.ch] != 1 {
				t.Errorf("game %d (1-minute clock, abandoned): status %s, %q; flag-fall announced %d times", g.id, gm.Status, gm.Reason, per[g.ch])
				continue
			}
			// The ending pings both players, and no one else.
			wantPings(t, last[g.ch], fmt.Sprintf("game %d's flag-fall", g.id), g.white.id, g.black.id)
		case g.resigned:
			if gm.Status == store.StatusActive || per[g.ch] != 0 {
				t.Errorf("game %d resigned: status %s, %d flag posts", g.id, gm.Status, per[g.ch])
			}
		default:
			if gm.Status != store.StatusActive || per[g.ch] != 0 {
				t.Errorf("game %d: status %s, %d flag posts; want active", g.id, gm.Status, per[g.ch])
				continue
			}
			evs, err := d.st.PendingEvents(ctx, g.id, "flag")
			if err != nil || len(evs) != 1 || evs[0].Ply != gm.Ply {
				t.Errorf("game %d at ply %d: pending flag events %+v (%v); want one for its ply", g.id, gm.Ply, evs, err)
			}
		}
	}
	lat := append([]time.Duration(nil), d.latencies...)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("%d games, %d acknowledged moves, p50 %v p99 %v, whole test %v", nGames, len(lat), percentile(lat, 0.5).Round(time.Millisecond), percentile(lat, 0.99).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	for _, p := range procs {
		if p == victim {
			continue
		}
		if s := p.logs.String(); strings.Contains(s, "level=ERROR") {
			t.Logf("errors logged by a survivor:\n%s", s)
		}
	}
}

// startFleet starts n `tankbot serve` processes on w at once (each waits
// for its /healthz); nil when one failed to start.
func startFleet(t *testing.T, w *bbWorld, n int) []*serveProc {
	t.Helper()
	procs := make([]*serveProc, n)
	var wg sync.WaitGroup
	for k := range procs {
		wg.Go(func() { procs[k] = w.start() })
	}
	wg.Wait()
	if t.Failed() {
		return nil
	}
	return procs
}
