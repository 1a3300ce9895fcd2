package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

// Fallback pings: a newer one supersedes the older pending ones of its
// game, RecordBoard cancels those at or below the recorded sequence (and
// no other game's), a cancelled one is never claimed, and a ping waiting
// for its first try does not hold back its channel.
func TestFallbackPings(t *testing.T) { storetest.Run(t, testFallbackPings) }

func testFallbackPings(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, b.New(t), fc)
	g, err := s.CreateGame(ctx, newGame("c1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	later := t0.Add(30 * time.Second)
	ping := func(game int64, seq int) int64 {
		t.Helper()
		id, err := s.Enqueue(ctx, Message{Channel: "c1", Payload: "p", Due: later, Kind: OutboxPing, Game: game, Seq: seq})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	states := func() map[int64]string {
		t.Helper()
		out, err := s.Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := map[int64]string{}
		for _, e := range out {
			m[e.ID] = e.State
		}
		return m
	}
	p1 := ping(g.ID, 1)
	other := ping(g.ID+1000, 1)
	p2 := ping(g.ID, 2)
	if st := states(); st[p1] != OutboxCancelled || st[p2] != OutboxPending || st[other] != OutboxPending {
		t.Fatalf("after a newer ping: %v", st)
	}
	// An ordinary post queued after the pings is not held back by them.
	post, err := s.Enqueue(ctx, Message{Channel: "c1", Payload: "flag"})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := s.ClaimOutbox(ctx, t0, time.Minute, 10)
	if err != nil || len(ms) != 1 || ms[0].ID != post {
		t.Fatalf("claim at once: %v %+v", err, ms)
	}
	// An older board recorded cancels nothing newer.
	if err := s.RecordBoard(ctx, g.ID, 1, "m1"); err != nil {
		t.Fatal(err)
	}
	if st := states(); st[p2] != OutboxPending {
		t.Fatalf("an older board cancelled a newer ping: %v", st)
	}
	if err := s.RecordBoard(ctx, g.ID, 2, "m2"); err != nil {
		t.Fatal(err)
	}
	if st := states(); st[p2] != OutboxCancelled || st[other] != OutboxPending {
		t.Fatalf("after recording seq 2: %v", st)
	}
	if got, _ := s.Game(ctx, g.ID); got.MessageID != "m2" {
		t.Fatalf("board message %q", got.MessageID)
	}
	// Without an id (the console) only the ping goes; the id stays.
	p3 := ping(g.ID, 3)
	if err := s.RecordBoard(ctx, g.ID, 3, ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Game(ctx, g.ID); got.MessageID != "m2" || states()[p3] != OutboxCancelled {
		t.Fatalf("record without id: message %q, ping %s", got.MessageID, states()[p3])
	}
	ms, err = s.ClaimOutbox(ctx, later, time.Minute, 10)
	// m2 superseded m1: one strip post, in a lane of its own.
	if err == nil && len(ms) == 2 && ms[0].Kind == OutboxStrip && ms[0].Game == g.ID && strings.HasPrefix(ms[0].Channel, fmt.Sprintf("%s%d:", StripChannelPrefix, g.ID)) {
		ms = ms[1:]
	}
	if err != nil || len(ms) != 1 || ms[0].ID != other || ms[0].Kind != OutboxPing || ms[0].Game != g.ID+1000 || ms[0].Seq != 1 {
		t.Fatalf("claim when due: %v %+v", err, ms)
	}
	// A ping cancelled while it is being delivered is recorded as sent
	// if it went, and a retry does not revive it.
	if err := s.RecordBoard(ctx, g.ID+1000, 1, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Retry(ctx, other, later.Add(time.Second), "503"); err != nil {
		t.Fatal(err)
	}
	if st := states(); st[other] != OutboxCancelled {
		t.Fatalf("a retry revived a cancelled ping: %v", st)
	}
}
