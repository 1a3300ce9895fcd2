package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

// TestCrashRecovery: four `tankbot serve` processes (the real binary) on
// one PostgreSQL behind a fake Discord; games play random moves while
// three of the instances are SIGKILLed one after another, mid-move. Then,
// within a bounded wait (the outbox lease, 2 min, plus the fallback delay,
// 30 s, plus slack), checked: every committed move's board arrived exactly
// once (for a move whose answer the kill cut off, the fallback post with
// its ping; that game then waits for it, as its players would); no outbox
// row is left pending; and in every channel only the
// latest board has live buttons, in Discord and in the store.
func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: several real serve processes, SIGKILLs and a wait for the outbox lease")
	}
	db := storetest.Postgres(t)
	w := newBBWorld(t, db)
	w.f.Configure(func(f *discordtest.Fake) {
		f.DiscardFiles = true
		f.ResponseWindow = time.Minute // a shared machine: not about the 3 s window
	})
	nGames := envInt("TANKBOT_CRASH_GAMES", 24)
	plies := envInt("TANKBOT_CRASH_PLIES", 8)
	start := time.Now()
	procs := startFleet(t, w, 4)
	if procs == nil {
		return
	}
	d := newDriver(t, w, procs, db, 12)
	gs := make([]*mgame, nGames)
	for i := range gs {
		gs[i] = &mgame{rng: rand.New(rand.NewPCG(uint64(i), 39))}
	}
	var failed atomic.Int32
	run := func(fn func(*mgame) error) {
		var wg sync.WaitGroup
		for _, g := range gs {
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
	run(func(g *mgame) error { return d.create(g, "tank", "30m") })
	if failed.Load() > 0 {
		t.FailNow()
	}
	total := int64(nGames * plies)
	var done atomic.Int64
	killsDone := make(chan struct{})
	go func() {
		defer close(killsDone)
		order := rand.Perm(len(procs))[:len(procs)-1] // one survives
		for k, i := range order {
			for done.Load() < total*int64(k+1)/int64(len(order)+1) && failed.Load() == 0 {
				time.Sleep(5 * time.Millisecond)
			}
			procs[i].kill()
			t.Logf("SIGKILL instance %d after %d moves, at %v", i, done.Load(), time.Since(start).Round(time.Millisecond))
		}
	}()
	run(func(g *mgame) error {
		for k := 0; k < plies; k++ {
			if err := d.move(g); err != nil {
				return err
			}
			done.Add(1)
			if n := len(g.acked); n > 0 && !g.acked[n-1] {
				// The kill cut the answer off: as a player would, wait
				// for the board (the fallback post) rather than move on,
				// so that the check below sees it. Another move would
				// supersede the fallback, by design.
				return nil
			}
		}
		return nil
	})
	<-killsDone
	t.Logf("moves done at %v: %d acknowledged, %d committed unacknowledged, %d resent",
		time.Since(start).Round(time.Millisecond), len(d.latencies), d.unacked, d.retried)
	if d.unacked == 0 {
		t.Log("no move was cut off by a kill in this run: the fallback check is weaker")
	}

	ctx := context.Background()
	// Bounded wait for the survivors to drain what the dead left.
	deadline := time.Now().Add(claimLeaseForTest + 45*time.Second)
	var pending, superseded int
	var stale []string
	for {
		pending = outboxPending(d.st)
		superseded, _ = d.st.SupersededLive(ctx)
		stale = staleLiveBoards(w.f, gs)
		if pending == 0 && superseded == 0 && len(stale) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	time.Sleep(time.Second) // a late duplicate would show now
	if pending != 0 {
		for _, e := range mustOutbox(t, d.st) {
			if e.State == store.OutboxPending {
				t.Logf("pending: id %d kind %q game %d seq %d due %v attempts %d last error %q", e.ID, e.Kind, e.Game, e.Seq, e.Due, e.Attempts, e.LastError)
			}
		}
		t.Errorf("%d outbox rows still pending %v after the moves (lease 2 min)", pending, time.Until(deadline)+claimLeaseForTest+45*time.Second)
	}
	if superseded != 0 {
		t.Errorf("%d superseded boards still live in the store", superseded)
	}
	for _, s := range stale {
		t.Errorf("old board with live buttons in Discord: %s", s)
	}
	lost := checkDelivery(w.f, d.moves, 0)
	t.Logf("%d moves (%d cut off by a kill): %d without a board, %d boards doubled, %d pings missing",
		len(d.moves), d.unacked, lost.boards, lost.doubled, lost.pings)
	if lost.boards != 0 || lost.doubled != 0 || lost.pings != 0 {
		t.Errorf("delivery after crashes: %d moves without a board, %d with more than one, %d pings missing", lost.boards, lost.doubled, lost.pings)
	}
	for _, g := range gs {
		moves, err := d.st.Moves(ctx, g.id)
		if err != nil || len(moves) != len(g.played) {
			t.Errorf("game %d: store has %d moves (%v), driver committed %d", g.id, len(moves), err, len(g.played))
		}
	}
	t.Logf("whole test %v", time.Since(start).Round(time.Millisecond))
}

// claimLeaseForTest is the bot's outbox and event lease (bot/storage_store.go).
const claimLeaseForTest = 2 * time.Minute

func mustOutbox(t *testing.T, st *store.Store) []store.OutboxEntry {
	t.Helper()
	es, err := st.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// staleLiveBoards lists, per game channel, the boards (messages with an
// image) other than the latest that still offer buttons.
func staleLiveBoards(f *discordtest.Fake, gs []*mgame) []string {
	var out []string
	for _, g := range gs {
		var boards []discordtest.Message
		for _, m := range f.Messages(g.ch) {
			if m.Ephemeral || m.Deleted || m.Loading || len(m.Files) == 0 {
				continue
			}
			boards = append(boards, m)
		}
		for i, m := range boards {
			if i == len(boards)-1 {
				break
			}
			if len(discordtest.CustomIDs(m.Payload)) > 0 {
				out = append(out, fmt.Sprintf("game %d channel %s message %s (board %d of %d)", g.id, g.ch, m.ID, i+1, len(boards)))
			}
		}
	}
	return out
}
