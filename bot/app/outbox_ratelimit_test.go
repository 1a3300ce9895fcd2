package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// limitNotifier answers posts from a script of errors (nil: delivered).
type limitNotifier struct {
	fakeNotifier
	mu     sync.Mutex
	script map[string][]error // channel → its next answers
	tries  map[string]int
}

func (n *limitNotifier) Post(ctx context.Context, ch string, r view.Reply) (string, error) {
	n.mu.Lock()
	n.tries[ch]++
	var err error
	if s := n.script[ch]; len(s) > 0 {
		err, n.script[ch] = s[0], s[1:]
	}
	n.mu.Unlock()
	if err != nil {
		return "", err
	}
	return n.fakeNotifier.Post(ctx, ch, r)
}

// TestOutboxHonoursRateLimits: a post refused with a route 429 comes back
// after Discord's retry_after, not the outbox's backoff; a global 429
// holds every pending post (other channels too) until it ends; and
// neither counts towards giving the post up: a post rate limited more
// often than maxAttempts is still delivered, and still has its attempts
// for real failures, as has a post that waited behind it.
func TestOutboxHonoursRateLimits(t *testing.T) {
	ctx := context.Background()
	clk := clock.NewFake(t0)
	n := &limitNotifier{script: map[string][]error{}, tries: map[string]int{}}
	b := newBot(Config{}, newTestRepo(t), clk, n, slog.New(slog.DiscardHandler))
	st := b.St.(*storeRepo).st
	enqueue := func(ch string, due time.Time) int64 {
		id, err := st.Enqueue(ctx, store.Message{Channel: ch, Payload: `{"Content":"hello"}`, Due: due})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	due := func(id int64) time.Time {
		out, err := st.Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range out {
			if m.ID == id {
				return m.Due
			}
		}
		t.Fatalf("post %d gone", id)
		return time.Time{}
	}
	state := func(id int64) string {
		out, _ := st.Outbox(ctx)
		for _, m := range out {
			if m.ID == id {
				return m.State
			}
		}
		return ""
	}

	// A route limit: back after retry_after (700 ms), not backoff's 2 s.
	a := enqueue("a", time.Time{})
	n.script["a"] = []error{fmt.Errorf("post message: 3 attempts: %w", &RateLimited{After: 700 * time.Millisecond})}
	_ = b.Tick(ctx)
	if got := due(a); !got.Equal(t0.Add(700 * time.Millisecond)) {
		t.Fatalf("route-limited post due %v, want retry_after later (%v)", got.Sub(t0), 700*time.Millisecond)
	}
	clk.Advance(700 * time.Millisecond)
	_ = b.Tick(ctx)
	if state(a) != store.OutboxSent {
		t.Fatalf("post a is %s after its retry_after", state(a))
	}

	// A global limit: the refused post and one pending in another channel
	// wait until it ends.
	now := clk.Now()
	g := enqueue("g", time.Time{})
	// Due in a second: pending, not yet claimed when g is refused.
	other := enqueue("other", now.Add(time.Second))
	n.script["g"] = []error{&RateLimited{After: 3 * time.Second, Global: true}}
	_ = b.Tick(ctx)
	clk.Advance(time.Second)
	_ = b.Tick(ctx)
	if n.tries["other"] != 0 || due(other).Before(now.Add(3*time.Second)) || due(g).Before(now.Add(3*time.Second)) {
		t.Fatalf("during a global limit: other tried %d times, due %v; g due %v (limit ends %v)",
			n.tries["other"], due(other).Sub(now), due(g).Sub(now), 3*time.Second)
	}
	clk.Advance(2 * time.Second)
	_ = b.Tick(ctx)
	if state(g) != store.OutboxSent || state(other) != store.OutboxSent {
		t.Fatalf("after the global limit: g %s, other %s", state(g), state(other))
	}

	// Rate limited more than maxAttempts times: still delivered.
	r := enqueue("r", time.Time{})
	for range maxAttempts + 2 {
		n.script["r"] = append(n.script["r"], &RateLimited{After: time.Second})
	}
	for range maxAttempts + 3 {
		_ = b.Tick(ctx)
		clk.Advance(time.Second)
	}
	if state(r) != store.OutboxSent {
		t.Fatalf("a post rate limited %d times is %s, want sent", maxAttempts+2, state(r))
	}

	// The rate limits did not use up its attempts: after maxAttempts+2 of
	// them, maxAttempts-1 real failures still leave it one more try. The
	// post queued behind it (claimed with it on every pass, never tried)
	// keeps its attempts too: maxAttempts-1 failures of its own once its
	// turn comes, then delivered.
	f := enqueue("f", time.Time{})
	w := enqueue("f", time.Time{})
	n.script["f"] = slices.Concat(
		slices.Repeat([]error{&RateLimited{After: time.Second}}, maxAttempts+2),
		slices.Repeat([]error{errors.New("503 Service Unavailable")}, maxAttempts-1),
		[]error{nil}, // f delivered
		slices.Repeat([]error{errors.New("502 Bad Gateway")}, maxAttempts-1))
	for i := 0; i < 40 && state(w) == store.OutboxPending; i++ {
		_ = b.Tick(ctx)
		clk.Advance(time.Minute)
	}
	if state(f) != store.OutboxSent || state(w) != store.OutboxSent || n.tries["f"] != 3*maxAttempts+2 {
		t.Fatalf("after rate limits and failures below maxAttempts: f %s, w %s (%d tries in their channel, want %d)", state(f), state(w), n.tries["f"], 3*maxAttempts+2)
	}
}
