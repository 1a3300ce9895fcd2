package app

import (
	"bytes"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store"
)

// pingPosts are the posts that reached the notifier carrying a board of
// game id.
func pingPosts(h *harness, id int64) []post {
	var out []post
	for _, p := range h.n.all() {
		if isBoard(p.Reply) && gameOf(p.Reply) == id {
			out = append(out, p)
		}
	}
	return out
}

// tickAfter advances the fake clock by d and runs the scheduler.
func (h *harness) tickAfter(d time.Duration) {
	h.t.Helper()
	h.clk.Advance(d)
	if err := h.b.Tick(h.ctx); err != nil {
		h.t.Fatal(err)
	}
}

// noPingsLater runs the scheduler well past the fallback delay and fails
// (saying what) if a board of game id was posted.
func noPingsLater(h *harness, id int64, what string) {
	h.t.Helper()
	for range 3 {
		h.tickAfter(pingFallbackDelay)
	}
	if ps := pingPosts(h, id); len(ps) != 0 {
		h.t.Fatalf("%s: %+v", what, ps)
	}
}

// outboxPings counts the fallback pings of the outbox by state.
func outboxPings(t *testing.T, h *harness) map[string]int {
	t.Helper()
	out, err := h.b.St.(*storeRepo).st.Outbox(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, m := range out {
		if m.Kind == store.OutboxPing {
			n[m.State]++
		}
	}
	return n
}

// A move whose answer never reached Discord (the transport did not record
// it) still pings the opponent: its fallback, queued in the move's
// transaction, goes out once after pingFallbackDelay, as a new board
// message mentioning exactly the player to move, with its image re-drawn.
func TestLostAnswerPingsLater(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	h.lose = true
	rs := h.slash(alice, "move", "move="+h.legalMove(id, nil))
	mustNotRefuse(t, rs)
	h.lose = false
	if len(rs[0].Mentions) != 1 || moveSeq(rs[0]) == 0 {
		t.Fatalf("the answer pings %v at seq %d", rs[0].Mentions, moveSeq(rs[0]))
	}
	h.tickAfter(0)
	h.tickAfter(pingFallbackDelay - time.Second)
	if ps := pingPosts(h, id); len(ps) != 0 {
		t.Fatalf("the fallback went %v early: %+v", pingFallbackDelay-time.Second, ps)
	}
	h.tickAfter(2 * time.Second)
	h.tickAfter(time.Minute)
	ps := pingPosts(h, id)
	if len(ps) != 1 {
		t.Fatalf("%d fallback posts, want exactly 1", len(ps))
	}
	p := ps[0]
	if p.Channel != "chan" || !slices.Equal(p.Reply.Mentions, []string{bob.ID}) ||
		!strings.Contains(p.Reply.Content, "<@"+bob.ID+">") || strings.Contains(p.Reply.Content, "<@"+alice.ID+">") {
		t.Fatalf("fallback in %s pings %v: %q", p.Channel, p.Reply.Mentions, p.Reply.Content)
	}
	if p.Reply.Content != rs[0].Content || moveSeq(p.Reply) != h.game(id).Seq || p.Reply.Nonce == "" {
		t.Fatalf("fallback %q (seq %d, nonce %q) is not the lost answer %q", p.Reply.Content, moveSeq(p.Reply), p.Reply.Nonce, rs[0].Content)
	}
	if len(p.Reply.Files) != 1 {
		t.Fatalf("fallback board without its image: %d files", len(p.Reply.Files))
	}
	if _, err := png.Decode(bytes.NewReader(p.Reply.Files[0].Data)); err != nil {
		t.Fatalf("fallback image: %v", err)
	}
	if got := outboxPings(t, h); got[store.OutboxSent] != 1 || got[store.OutboxPending] != 0 {
		t.Fatalf("fallback rows %v", got)
	}
}

// A move whose answer was recorded never sends its fallback.
func TestDeliveredAnswerCancelsFallback(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	noPingsLater(h, id, "a delivered answer was pinged again")
	if got := outboxPings(t, h); got[store.OutboxCancelled] != 1 || len(got) != 1 {
		t.Fatalf("fallback rows %v, want one cancelled", got)
	}
}

// Two quick moves whose answers are both lost give at most one late ping,
// for the latest move (the newer fallback cancels the older one).
func TestQuickMovesOneLatePing(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	h.lose = true
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	h.tickAfter(5 * time.Second)
	mustNotRefuse(t, h.slash(bob, "move", "move="+h.legalMove(id, nil)))
	h.lose = false
	for range 4 {
		h.tickAfter(pingFallbackDelay)
	}
	ps := pingPosts(h, id)
	if len(ps) != 1 {
		t.Fatalf("%d late pings, want 1", len(ps))
	}
	if !slices.Equal(ps[0].Reply.Mentions, []string{alice.ID}) || moveSeq(ps[0].Reply) != h.game(id).Seq {
		t.Fatalf("the late ping is not the latest move's: mentions %v seq %d", ps[0].Reply.Mentions, moveSeq(ps[0].Reply))
	}
}

// A fallback whose turn is gone by delivery (taken back, or the game
// ended off the board) is dropped: it would tell someone to move when
// they cannot.
func TestStaleFallbackDropped(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	h.lose = true
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	h.lose = false
	rs := h.slash(alice, "takeback")
	mustNotRefuse(t, rs)
	mustNotRefuse(t, h.click(bob, findID(t, rs, "tbyes")))

	h.lose = true
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	h.lose = false
	mustNotRefuse(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))

	noPingsLater(h, id, "stale fallbacks were posted")
	if got := outboxPings(t, h); got[store.OutboxCancelled] != 2 || len(got) != 1 {
		t.Fatalf("fallback rows %v, want two cancelled", got)
	}
}
