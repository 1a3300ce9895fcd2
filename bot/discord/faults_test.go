package discord

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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
	// A first-answer window shorter than the longest wait below, and long
	// enough that a slow machine still answers within it (the sleeps are
	// recorded, not slept).
	f.ResponseWindow = 8 * time.Second
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
	// answer after the window would be refused), and nothing else is sent
	// on the dead token.
	f.rateLimitNext("POST", "/callback", 9, 1)
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
	st := newMemStore()
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{boardReply(t, st, 5)} }}
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
		r := boardReply(t, nil, 6)
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
	st := newMemStore()
	r := boardReply(t, st, 7)
	r.FallbackText = "(image refused)"
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{r} }}
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
		if s, _ := d["content"].(string); len([]rune(s)) > MaxContent || !strings.HasSuffix(s, "…") {
			t.Errorf("%s %s: content of %d runes", c.Method, c.Path, len([]rune(s)))
		}
	}
	cb := one(t, calls, "POST", "/callback")
	if e := data(cb)["embeds"].([]any)[0].(map[string]any); len([]rune(e["description"].(string))) != MaxEmbedDescription {
		t.Errorf("description of %d runes", len([]rune(e["description"].(string))))
	}
}

// TestFaultsLoseNothing (issue 24): whole games through the fake Discord,
// in both transports, with direct and with deferred answers, while a fifth of all REST requests fail (half with a
// server error, half with a dropped connection). Every move's board reaches
// the channel (as the interaction's answer, or, when that cannot go, as
// the move's fallback post through the outbox, with its nonce) and pings
// whom it must, once: 0 lost answers, 0 lost pings, none doubled (the id
// of a delivered answer is read until known, so its fallback is
// cancelled).
func TestFaultsLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: plays whole games under injected faults")
	}
	var all []mode
	for _, m := range modes {
		// Slow: every handler outlasts the direct window, so each answer
		// is a deferral and a follow-up, both under the faults.
		all = append(all, m, mode{name: m.name + "-slow", http: m.http, slow: true})
	}
	// One after the other: four at once under -race on a small machine
	// make answers slower than the harness waits for.
	for k, m := range all {
		t.Run(m.name, func(t *testing.T) { testFaultsLoseNothing(t, m, uint64(24+k)) })
	}
}

func testFaultsLoseNothing(t *testing.T, m mode, seed uint64) {
	const games, quiet, maxMoves = 1, 20, 40
	w := newWorld(t, m)
	e := startBot(t, w)
	rng := rand.New(rand.NewPCG(seed, 1))
	var moves, lostAnswers, lostPings, doubled, fallbacks int
	for range games {
		// The game starts without faults (the helpers check each step);
		// every move after runs under them.
		w.f.InjectFaults(0, 0, nil)
		_, id := e.startGame(t, "untimed")
		g := newGame(t, checkMap)
		w.f.InjectFaults(0.2, seed, nil)
		for k := 0; k < maxMoves && !g.pos.Status().Over(); k++ {
			mover := g.toMove()
			// Quiet moves first, then any: the game ends on its own.
			mv := g.randomAny(rng)
			if k < quiet {
				mv = g.randomMove(rng)
			}
			from := w.f.Count()
			e.do(e.slash(mover, gameChannel, "move", "move", mv))
			g.play(mv)
			moves++
			// The fallback is due 30 s after the move; the outbox retries
			// with backoff: a few passes on the bot's clock.
			for range 8 {
				w.clk.Advance(31 * time.Second)
				_ = e.b.Tick(context.Background())
			}
			news := publicNew(w.f.CallsFrom(from))
			if len(news) == 0 {
				lostAnswers++
				t.Errorf("game %s, move %d (%s): no public message", id, k+1, mv)
				continue
			}
			for _, c := range news {
				if strings.HasPrefix(c.Path, "/api/v9/channels/") {
					fallbacks++
				}
			}
			var want []string
			switch next := g.toMove(); {
			case g.pos.Status().Over():
				want = []string{alice.id, bob.id}
			case next != mover:
				want = []string{next.id}
			}
			for _, u := range want {
				n := 0
				for _, c := range news {
					if slices.Contains(c.Notified, u) {
						n++
					}
				}
				switch {
				case n == 0:
					lostPings++
					t.Errorf("game %s, move %d (%s): %s not pinged", id, k+1, mv, u)
				case n > 1:
					doubled++
					t.Errorf("game %s, move %d (%s): %s pinged %d times", id, k+1, mv, u, n)
				}
			}
		}
	}
	server, drops := w.f.Injected()
	retries := strings.Count(w.logs.String(), "discord refused, retrying")
	later := strings.Count(w.logs.String(), "will retry") + strings.Count(w.logs.String(), `"msg":"post"`)
	t.Logf("%s: %d moves in %d games, %d requests, injected %d server errors and %d dropped connections; %d adapter retries, %d outbox reschedules; %d boards by fallback post; lost: %d answers, %d pings; %d pinged twice",
		m.name, moves, games, w.f.Count(), server, drops, retries, later, fallbacks, lostAnswers, lostPings, doubled)
	if server+drops == 0 {
		t.Fatal("no fault was injected")
	}
}

// randomAny is a random legal move, one that ends the game included.
func (g *game) randomAny(rng *rand.Rand) string {
	ms := g.pos.LegalMoves()
	if len(ms) == 0 {
		g.t.Fatal("no legal move")
	}
	return g.pos.FormatMove(ms[rng.IntN(len(ms))])
}
