package app

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store/clock"
)

// panicNotifier panics on every post, as a transport bug would.
type panicNotifier struct {
	*fakeNotifier
	mu     sync.Mutex
	panics int
}

func (n *panicNotifier) Post(context.Context, string, view.Reply) (string, error) {
	n.mu.Lock()
	n.panics++
	n.mu.Unlock()
	panic("notifier bug")
}

// TestOutboxGivesUpPanickingPost: a queued post whose delivery panics is
// retried with backoff and given up after maxAttempts, logged with its id,
// like a post Discord refuses; not retried forever.
func TestOutboxGivesUpPanickingPost(t *testing.T) {
	var logs syncBuf
	clk := clock.NewFake(t0)
	n := &panicNotifier{fakeNotifier: &fakeNotifier{}}
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	h := &harness{t: t, b: newBot(Config{}, newTestRepo(t), clk, n.fakeNotifier, log), clk: clk, n: n.fakeNotifier, ctx: context.Background()}
	h.StartGame("clock=3d")
	h.b.n = n                                 // from now on every post panics
	h.clk.Advance(48*time.Hour + time.Second) // the first reminder
	for range 3 * maxAttempts {
		_ = h.b.Tick(h.ctx)
		h.clk.Advance(backoff(maxAttempts) + time.Minute)
	}
	out, err := h.b.St.(*storeRepo).st.Outbox(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var failed []int64
	for _, m := range out {
		if m.State == "failed" {
			failed = append(failed, m.ID)
			if m.Attempts != maxAttempts || !strings.Contains(m.LastError, "panic") {
				t.Errorf("post %d given up after %d attempts (%q), want %d and the panic", m.ID, m.Attempts, m.LastError, maxAttempts)
			}
		}
	}
	if len(failed) != 1 {
		t.Fatalf("%d posts given up, want the reminder: %+v", len(failed), out)
	}
	if n.panics != maxAttempts {
		t.Errorf("the post was tried %d times, want %d", n.panics, maxAttempts)
	}
	if !strings.Contains(logs.String(), "giving up a post") || !strings.Contains(logs.String(), `"post":`+strconv.FormatInt(failed[0], 10)) {
		t.Errorf("the give-up is not logged with the post's id:\n%s", logs.String())
	}
}
