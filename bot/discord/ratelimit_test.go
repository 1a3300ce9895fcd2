package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/store/clock"
)

// TestLimiterAvoids429: discordgo's rate limiter reads the fake's
// X-RateLimit headers, so the adapter posting and editing in bursts (from
// several goroutines) into one channel waits for its buckets instead of
// being answered 429.
//
// The fake counts its windows on a clock of its own that stands still, so
// a slow machine cannot end a window early or late: each answer says
// exactly how long the client must wait. The clock moves on an event: the
// client's next request on a spent bucket, once the client has waited what
// it was told (measured on the real clock, which a slow machine can only
// lengthen). A client that did not wait meets the same window: a 429.
func TestLimiterAvoids429(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	clk := clock.NewFake(time.Unix(5000, 0))
	f.Now = clk.Now
	const window = 300 * time.Millisecond
	f.SetRouteLimits([]discordtest.RouteLimit{
		{Method: "POST", Route: "channels/{channel}/messages", Limit: 3, Window: window},
		{Method: "PATCH", Route: "channels/{channel}/messages/{message}", Limit: 3, Window: window},
		{Limit: 50, Window: time.Second},
	})
	h := newHarness(t, f, newMemStore(), nil, time.Second)
	bw := &bucketWaits{next: h.a.s.Client.Transport, clk: clk, window: window, spent: map[string]spentBucket{}}
	h.a.s.Client.Transport = bw
	var wg sync.WaitGroup
	ids := make(chan string, 12)
	for k := range 12 {
		wg.Go(func() {
			id, err := h.a.Post(context.Background(), "320", bot.Reply{Content: fmt.Sprint("post ", k), Nonce: fmt.Sprint("n", k)})
			if err != nil {
				t.Errorf("post %d: %v", k, err)
				return
			}
			ids <- id
		})
	}
	wg.Wait()
	close(ids)
	for id := range ids {
		if err := h.a.Edit(context.Background(), "320", id, bot.Reply{}); err != nil {
			t.Errorf("edit %s: %v", id, err)
		}
	}
	if n := f.RouteRefused(); n != 0 {
		t.Errorf("%d requests answered 429 although every answer said how many were left", n)
	}
	if len(f.Messages("320")) != 12 {
		t.Errorf("%d messages, want 12", len(f.Messages("320")))
	}
	// 12 posts and 12 edits at 3 a window: each burst waited three times.
	if got := bw.waited.Load(); got != 6 {
		t.Errorf("the client waited out a spent bucket %d times, want 6", got)
	}
}

// bucketWaits is the client's transport in TestLimiterAvoids429: it moves
// the fake's clock past a spent bucket's window when the client comes back
// to that bucket after waiting the Reset-After it was given.
type bucketWaits struct {
	next   http.RoundTripper
	clk    *clock.Fake
	window time.Duration
	waited atomic.Int32

	mu    sync.Mutex
	spent map[string]spentBucket // method and route → when it was spent
}

type spentBucket struct {
	at    time.Time     // when the answer with Remaining 0 arrived
	after time.Duration // its Reset-After
}

// bucketOf is the bucket key of a request: its method and route, message
// ids left out (the fake's routes are per channel).
func bucketOf(r *http.Request) string {
	p := strings.Split(r.URL.Path, "/")
	for k := range p {
		if k > 0 && p[k-1] == "messages" {
			p[k] = "{message}"
		}
	}
	return r.Method + " " + strings.Join(p, "/")
}

func (b *bucketWaits) RoundTrip(r *http.Request) (*http.Response, error) {
	key := bucketOf(r)
	b.mu.Lock()
	if sp, ok := b.spent[key]; ok {
		delete(b.spent, key)
		// discordgo reads Reset-After to the millisecond, rounding down:
		// a millisecond's grace.
		if time.Since(sp.at) >= sp.after-time.Millisecond {
			b.clk.Advance(b.window)
			b.waited.Add(1)
		}
	}
	b.mu.Unlock()
	resp, err := b.next.RoundTrip(r)
	if err != nil || resp.Header.Get("X-RateLimit-Remaining") != "0" {
		return resp, err
	}
	after, perr := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset-After"), 64)
	if perr == nil {
		b.mu.Lock()
		b.spent[key] = spentBucket{at: time.Now(), after: time.Duration(after * float64(time.Second))}
		b.mu.Unlock()
	}
	return resp, err
}

// TestRateLimitReported: a post still refused after the adapter's tries
// reports bot.RateLimited with Discord's retry_after, Global when the 429
// said so (header and body), so that the outbox waits (and holds every
// post for a global limit).
func TestRateLimitReported(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	now := time.Unix(3000, 0)
	f.Now = func() time.Time { return now } // the windows never end
	h := newHarness(t, f, newMemStore(), nil, time.Second)
	f.SetGlobalLimit(1)
	if _, err := h.a.Post(context.Background(), "330", bot.Reply{Content: "one", Nonce: "g1"}); err != nil {
		t.Fatal(err)
	}
	_, err := h.a.Post(context.Background(), "330", bot.Reply{Content: "two", Nonce: "g2"})
	var rl *bot.RateLimited
	if !errors.As(err, &rl) || !rl.Global || rl.After != time.Second {
		t.Fatalf("under the global limit: %v (%+v)", err, rl)
	}
	f.SetGlobalLimit(0)
	f.SetRouteLimits([]discordtest.RouteLimit{{Method: "POST", Route: "channels/{channel}/messages", Limit: 1, Window: 500 * time.Millisecond}})
	if _, err := h.a.Post(context.Background(), "331", bot.Reply{Content: "one", Nonce: "r1"}); err != nil {
		t.Fatal(err)
	}
	// discordgo knows the bucket is spent and sleeps out the window
	// before each try: a fresh adapter (another instance) does not know
	// at first.
	h2 := newHarness(t, f, newMemStore(), nil, time.Second)
	_, err = h2.a.Post(context.Background(), "331", bot.Reply{Content: "two", Nonce: "r2"})
	rl = nil
	if !errors.As(err, &rl) || rl.Global || rl.After != 500*time.Millisecond {
		t.Fatalf("under a route limit: %v (%+v)", err, rl)
	}
}

// TestDroppedConnectionsRetried: a request whose connection drops is
// tried again when repeating it is harmless (a channel post with its
// nonce, an edit), not when Discord could create a second message (a post
// without a nonce).
func TestDroppedConnectionsRetried(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	h := newHarness(t, f, newMemStore(), nil, time.Second)
	f.FailNext("POST", "/channels/340/messages", -1, 0, 2)
	id, err := h.a.Post(context.Background(), "340", bot.Reply{Content: "with nonce", Nonce: "d1"})
	if err != nil {
		t.Fatalf("a post with a nonce after two dropped connections: %v", err)
	}
	f.FailNext("PATCH", "/channels/340/messages/", -1, 0, 2)
	if err := h.a.Edit(context.Background(), "340", id, bot.Reply{}); err != nil {
		t.Fatalf("an edit after two dropped connections: %v", err)
	}
	f.FailNext("POST", "/channels/341/messages", -1, 0, 1)
	from := f.Count()
	if _, err := h.a.Post(context.Background(), "341", bot.Reply{Content: "no nonce"}); err == nil || len(f.CallsFrom(from)) != 1 {
		t.Fatalf("a post without a nonce was repeated after a dropped connection: %v, %d calls", err, len(f.CallsFrom(from)))
	}
}
