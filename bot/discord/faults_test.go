package discord

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
)

// sleeps records the waits the adapter asked for (instantly).
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) list() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func statuses(calls []*call, method, path string) []int {
	var out []int
	for _, c := range calls {
		if c.Method == method && strings.Contains(c.Path, path) {
			out = append(out, c.Status)
		}
	}
	return out
}

func TestRateLimitsAreBounded(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{{Content: "ok"}} }}
	h := newHarness(t, f, newMemStore(), nil, time.Second)
	sl := &sleeps{}
	h.a.opts.Sleep = sl.sleep
	h.start(core)

	// A short burst: waited out (as long as Discord asks) and answered.
	f.rateLimitNext("POST", "/callback", 0.25, 2)
	calls := h.interact(h.slash(alice, "300", "move", "move", "x"))
	if got := statuses(calls, "POST", "/callback"); len(got) != 3 || got[2] != 204 {
		t.Errorf("callback statuses %v, want two 429s then 204", got)
	}
	if got := sl.list(); len(got) != 2 || got[0] != 250*time.Millisecond {
		t.Errorf("waits %v", got)
	}

	// A storm: three tries at most, then the adapter gives up.
	f.rateLimitNext("POST", "/channels/301/messages", 0.1, 50)
	from := f.count()
	if _, err := h.a.Post(context.Background(), "301", bot.Reply{Content: "ping"}); err == nil {
		t.Error("post succeeded through a 429 storm")
	}
	if n := len(f.callsFrom(from)); n != 3 {
		t.Errorf("%d attempts in a 429 storm, want 3", n)
	}

	// A wait longer than the interaction's first window: no retry (an
	// answer after 3 s would be refused), and nothing else is sent on the
	// dead token.
	f.rateLimitNext("POST", "/callback", 5, 1)
	n := len(sl.list())
	calls = h.interact(h.slash(alice, "300", "move", "move", "x"))
	if got := statuses(calls, "POST", "/callback"); len(got) != 1 || got[0] != 429 {
		t.Errorf("callback statuses %v, want one 429", got)
	}
	if len(calls) != 1 {
		t.Errorf("%d calls after the window was lost, want only the refused callback", len(calls))
	}
	if len(sl.list()) != n {
		t.Error("waited although the window could not be met")
	}

	// Outside an interaction the same wait is fine.
	f.rateLimitNext("POST", "/channels/302/messages", 5, 1)
	if _, err := h.a.Post(context.Background(), "302", bot.Reply{Content: "ping"}); err != nil {
		t.Errorf("post after one 429: %v", err)
	}
	// But not a wait beyond maxRateWait.
	f.rateLimitNext("POST", "/channels/303/messages", 60, 1)
	from = f.count()
	if _, err := h.a.Post(context.Background(), "303", bot.Reply{Content: "ping"}); err == nil || len(f.callsFrom(from)) != 1 {
		t.Errorf("a 60 s rate limit was waited out: err %v", err)
	}
}

func TestServerErrorStormOnResponse(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{boardReply(t, 5)} }}
	st := newMemStore()
	h := startHarness(t, f, core, st, nil, time.Second)
	f.failNext("POST", "/callback", 500, 0, 2)
	calls := h.interact(h.slash(alice, "300", "move", "move", "x"))
	if got := statuses(calls, "POST", "/callback"); len(got) != 3 || got[2] != 204 {
		t.Fatalf("callback statuses %v", got)
	}
	checkPNG(t, calls[2])
	if st.board(5) == "" {
		t.Error("board not recorded")
	}
}

// When the handler is slow the answer comes after a deferral; a mention
// in an edit of the placeholder (or in the first follow-up, which fills
// it) would not notify, so the deferral is private, a note fills it, and
// the reply that pings is a later follow-up: a new message.
func TestDeferredPingIsAFollowUp(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	hold := make(chan struct{})
	core := &scriptCore{hold: hold, handle: func(bot.Command) []bot.Reply {
		r := boardReply(t, 6)
		r.Content = "<@202> your turn"
		r.Mentions = []string{bob.id}
		return []bot.Reply{r}
	}}
	h := startHarness(t, f, core, newMemStore(), nil, 20*time.Millisecond)
	calls := h.interactHeld(h.slash(alice, "300", "move", "move", "x"), hold)
	if cb := one(t, calls, "POST", "/callback"); cb.Payload["type"].(float64) != 5 || flags(cb) != 64 {
		t.Errorf("defer %v", cb.Payload)
	}
	fu := one(t, calls, "POST", "/webhooks/"+testApp+"/")
	checkPNG(t, fu)
	if !fu.Created || len(fu.Notified) != 1 || fu.Notified[0] != bob.id {
		t.Errorf("the follow-up created %v and pinged %v, want a new message pinging bob", fu.Created, fu.Notified)
	}
	if len(find(calls, "DELETE", "")) != 0 {
		t.Error("a message was deleted")
	}
	for _, e := range find(calls, "PATCH", "/messages/@original") {
		if strings.Contains(fmt.Sprint(e.Payload["content"]), "<@") {
			t.Error("the ping was put in an edit, which never notifies")
		}
	}
}

func TestRefusedUploadFallsBackToText(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	r := boardReply(t, 7)
	r.FallbackText = "(image refused)"
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{r} }}
	st := newMemStore()
	h := startHarness(t, f, core, st, nil, time.Second)

	// A channel post refused with 413 is sent again, once, without files.
	f.failNext("POST", "/channels/301/messages", 413, 40005, 1)
	from := f.count()
	if _, err := h.a.Post(context.Background(), "301", r); err != nil {
		t.Fatal(err)
	}
	calls := f.callsFrom(from)
	if len(calls) != 2 || calls[0].Status != 413 {
		t.Fatalf("%d calls", len(calls))
	}
	checkFallback(t, calls[1])

	// The interaction's response refused with 400 likewise.
	f.failNext("POST", "/callback", 400, 50035, 1)
	calls = h.interact(h.slash(alice, "300", "move", "move", "x"))
	if got := statuses(calls, "POST", "/callback"); len(got) != 2 || got[0] != 400 || got[1] != 204 {
		t.Fatalf("callback statuses %v", got)
	}
	checkFallback(t, find(calls, "POST", "/callback")[0])
	if st.board(7) == "" {
		t.Error("the text board is still the board message")
	}

	// Refused twice: one resend only, then an error.
	f.failNext("POST", "/channels/302/messages", 413, 40005, 2)
	from = f.count()
	if _, err := h.a.Post(context.Background(), "302", r); err == nil || len(f.callsFrom(from)) != 2 {
		t.Errorf("err %v after %d calls", err, len(f.callsFrom(from)))
	}
}

func checkFallback(t *testing.T, c *call) {
	t.Helper()
	if len(c.Files) != 0 {
		t.Errorf("resent with %d files", len(c.Files))
	}
	d := data(c)
	if got, _ := d["content"].(string); got != "your move\n(image refused)" {
		t.Errorf("content %q", got)
	}
	embeds, _ := d["embeds"].([]any)
	if len(embeds) != 1 || embeds[0].(map[string]any)["image"] != nil {
		t.Errorf("embeds %v", embeds)
	}
}

// Everything sent is within Discord's limits, whichever way it goes.
func TestEverythingSentIsFitted(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	long := strings.Repeat("<@201> ", 1000)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply {
		return []bot.Reply{{Content: long, Embed: &bot.Embed{Description: strings.Repeat("d", 5000)}}, {ChannelID: "301", Content: long}}
	}}
	h := startHarness(t, f, core, newMemStore(), nil, time.Second)
	calls := h.interact(h.slash(alice, "300", "games"))
	for _, c := range calls {
		d := data(c)
		if s, _ := d["content"].(string); len([]rune(s)) > bot.MaxContent || !strings.HasSuffix(s, "…") {
			t.Errorf("%s %s: content of %d runes", c.Method, c.Path, len([]rune(s)))
		}
	}
	cb := one(t, calls, "POST", "/callback")
	if e := data(cb)["embeds"].([]any)[0].(map[string]any); len([]rune(e["description"].(string))) != bot.MaxEmbedDescription {
		t.Errorf("description of %d runes", len([]rune(e["description"].(string))))
	}
}
