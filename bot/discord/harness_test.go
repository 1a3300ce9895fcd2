package discord

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	testApp   = "555"
	testGuild = "777"
	testToken = "BOT-TOKEN-must-never-be-logged"
)

type who struct{ id, name string }

// tokenSeq numbers interaction tokens across the package's tests.
var tokenSeq atomic.Int64

// idSeq numbers interaction ids across the package's tests: ids are
// unique, as Discord's are, so that a restarted or second instance on the
// same database is not answered as a replay.
var idSeq atomic.Int64

// userRef is a user option's value.
type userRef who

var (
	alice = who{"201", "alice"}
	bob   = who{"202", "bob"}
	carol = who{"203", "carol"}
)

// memStore is the adapter's Store in memory.
type memStore struct {
	mu     sync.Mutex
	meta   map[string]string
	boards map[int64]string // game → channel/message
}

func newMemStore() *memStore { return &memStore{meta: map[string]string{}, boards: map[int64]string{}} }

func (m *memStore) GetMeta(_ context.Context, k string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.meta[k], nil
}

func (m *memStore) SetMeta(_ context.Context, k, v string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.meta[k] = v
	return nil
}

func (m *memStore) board(game int64) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.boards[game]
}

// harness is one adapter connected to the fake Discord, in one of the two
// modes: the gateway (`tankbot run`: interactions dispatched on the
// websocket, answered by callback) or the HTTP Interactions Endpoint
// (`tankbot serve`: the fake POSTs each signed interaction to the
// adapter's handler and reads its answer from the body).
type harness struct {
	t      *testing.T
	f      *fakeDiscord
	a      *Adapter
	logs   *syncBuffer
	done   chan string
	n      int
	tokens []string // every interaction token sent, to check the logs
	mode   mode
	srv    *httptest.Server   // HTTP mode: the Interactions Endpoint
	priv   ed25519.PrivateKey // HTTP mode: Discord's signing key
}

// mode is how the fake delivers interactions, and whether the core is
// held past the adapter's direct window (so every answer is deferred).
type mode struct {
	name string
	http bool
	slow bool
}

// eventWait bounds a wait for an event the test itself brings about (a
// deferral, a callback): far beyond any CPU starvation, so a hang fails at
// go test's -timeout, never a slow machine.
const eventWait = time.Hour

// modes are the two transports every e2e scenario runs in.
var modes = []mode{{name: "gateway"}, {name: "http", http: true}}

func startHarness(t *testing.T, f *fakeDiscord, core Core, st Store, logs *syncBuffer, window time.Duration) *harness {
	t.Helper()
	h := newHarness(t, f, st, logs, window)
	h.start(core)
	return h
}

// newHarness makes the adapter without connecting it: the core needs it as
// its Notifier before start.
func newHarness(t *testing.T, f *fakeDiscord, st Store, logs *syncBuffer, window time.Duration) *harness {
	t.Helper()
	return newHarnessIn(t, f, st, logs, window, mode{name: "gateway"})
}

// newHarnessIn is newHarness in mode m.
func newHarnessIn(t *testing.T, f *fakeDiscord, st Store, logs *syncBuffer, window time.Duration, m mode) *harness {
	t.Helper()
	if logs == nil {
		logs = &syncBuffer{}
	}
	h := &harness{t: t, f: f, logs: logs, done: make(chan string, 64), mode: m}
	l := slog.New(NewRedactingHandler(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}), testToken))
	opts := Options{
		Token: testToken, AppID: testApp, GuildID: testGuild, Log: l, Client: f.client(),
		Sleep:          func(context.Context, time.Duration) error { return nil },
		DirectWindow:   window,
		ResponseWindow: f.ResponseWindow,
	}
	if m.slow {
		// Hold the handler until its deferral reached Discord: slower
		// than the direct window, without sleeping.
		opts.DirectWindow = 20 * time.Millisecond
		opts.BeforeHandle = func(_ context.Context, id string) {
			f.Await(0, eventWait, func(c *call) bool {
				typ, _ := c.Payload["type"].(float64)
				return strings.Contains(c.Path, "/interactions/"+id+"/") && (typ == 5 || typ == 6)
			})
		}
	}
	a, err := New(opts, st)
	if err != nil {
		t.Fatal(err)
	}
	a.onDone = func(id string) { h.done <- id }
	h.a = a
	return h
}

func (h *harness) start(core Core) {
	h.t.Helper()
	if h.mode.http {
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			h.t.Fatal(err)
		}
		if err := h.a.StartHTTP(context.Background(), core); err != nil {
			h.t.Fatal(err)
		}
		// Signatures are checked on the fake's clock: Discord's and the bot's agree.
		h.priv, h.srv = priv, httptest.NewServer(h.a.Handler(pub, func() time.Time { return h.f.Now() }))
		h.t.Cleanup(func() { _ = h.close(); h.srv.Close() })
		return
	}
	if err := h.a.Start(context.Background(), core); err != nil {
		h.t.Fatal(err)
	}
	select {
	case <-h.f.ready:
	case <-time.After(eventWait):
		h.t.Fatal("no IDENTIFY reached the fake gateway")
	}
	h.t.Cleanup(func() { _ = h.close() })
}

func (h *harness) close() error {
	// A hang guard: Close waits for the handlers in flight, however long a
	// busy CPU makes them.
	ctx, cancel := context.WithTimeout(context.Background(), eventWait)
	defer cancel()
	return h.a.Close(ctx)
}

// interact dispatches an interaction and returns the REST calls made while
// answering it.
func (h *harness) interact(ev map[string]any) []*call {
	h.t.Helper()
	from := h.f.count()
	h.deliver(ev)
	h.wait(ev["id"].(string))
	return h.f.callsFrom(from)
}

// deliver hands ev to the adapter as Discord does in the harness's mode.
func (h *harness) deliver(ev map[string]any) {
	if !h.mode.http {
		h.f.dispatch("INTERACTION_CREATE", ev)
		return
	}
	if _, err := h.f.Interact(h.srv.URL+"/interactions", h.priv, ev); err != nil {
		// A fault test may make the answer fail; the calls tell.
		h.t.Logf("interaction %v: %v", ev["id"], err)
	}
}

func (h *harness) wait(id string) {
	h.t.Helper()
	waitDone(h.t, h.done, id)
}

// waitDone waits until done reports that the handler of interaction id
// finished. It sets no wall-clock budget: on a starved CPU a handler may
// take long, and once it has deferred, Discord waits for its follow-up (15
// minutes); Discord's own 3 s window is checked by the fake on its clock.
// A hang ends at go test's -timeout, which names the test and dumps the
// goroutines; until then a line every 30 s says what is awaited.
func waitDone(t *testing.T, done chan string, id string) {
	t.Helper()
	tick := time.NewTicker(30 * time.Second)
	defer tick.Stop()
	for waited := 0; ; {
		select {
		case got := <-done:
			if got == id {
				return
			}
		case <-tick.C:
			waited += 30
			t.Logf("interaction %s: handler still running after %d s", id, waited)
		}
	}
}

// interactHeld dispatches ev to a core held by release: once the adapter's
// deferral has reached the fake, release lets the handler finish. It
// returns the REST calls made while answering.
func (h *harness) interactHeld(ev map[string]any, release chan struct{}) []*call {
	h.t.Helper()
	from := h.f.count()
	h.f.dispatch("INTERACTION_CREATE", ev)
	h.f.Await(from, eventWait, func(c *call) bool {
		return c.Method == "POST" && strings.Contains(c.Path, "/callback") && c.Status < 300
	})
	close(release)
	h.wait(ev["id"].(string))
	return h.f.callsFrom(from)
}

func (h *harness) base(typ int, u who, channel string, data map[string]any) map[string]any {
	h.n++
	id := fmt.Sprint(50000 + idSeq.Add(1))
	// Tokens are unique, as Discord's are, across restarts of a test's bot.
	tok := fmt.Sprintf("itok-%d-%d-SECRET", tokenSeq.Add(1), h.n)
	h.tokens = append(h.tokens, tok)
	return map[string]any{
		"id": id, "application_id": testApp, "type": typ, "token": tok, "version": 1,
		"guild_id": testGuild, "channel_id": channel, "locale": "en-US",
		"channel": map[string]any{"id": channel, "type": 0},
		"member":  map[string]any{"user": map[string]any{"id": u.id, "username": u.name, "global_name": u.name}},
		"data":    data,
	}
}

// options builds slash options from name, value pairs (string, bool or
// userRef values); focused names the option being typed, if any.
func options(focused string, kv ...any) ([]any, map[string]any) {
	var opts []any
	users := map[string]any{}
	for k := 0; k+1 < len(kv); k += 2 {
		name := kv[k].(string)
		o := map[string]any{"name": name}
		switch v := kv[k+1].(type) {
		case string:
			o["type"], o["value"] = 3, v
		case bool:
			o["type"], o["value"] = 5, v
		case userRef:
			o["type"], o["value"] = 6, v.id
			users[v.id] = map[string]any{"id": v.id, "username": v.name}
		}
		if name == focused {
			o["focused"] = true
		}
		opts = append(opts, o)
	}
	return opts, users
}

func (h *harness) slash(u who, channel, name string, kv ...any) map[string]any {
	opts, users := options("", kv...)
	return h.base(2, u, channel, map[string]any{"id": "1", "name": name, "type": 1, "options": opts, "resolved": map[string]any{"users": users}})
}

func (h *harness) autocomplete(u who, channel, name, focused string, kv ...any) map[string]any {
	opts, _ := options(focused, kv...)
	return h.base(4, u, channel, map[string]any{"id": "1", "name": name, "type": 1, "options": opts})
}

func (h *harness) click(u who, channel, messageID, customID string, values ...string) map[string]any {
	d := map[string]any{"custom_id": customID, "component_type": 2}
	if len(values) > 0 {
		d["component_type"], d["values"] = 3, values
	}
	ev := h.base(3, u, channel, d)
	ev["message"] = map[string]any{"id": messageID, "channel_id": channel}
	return ev
}

func (h *harness) modalSubmit(u who, channel, customID string, values ...string) map[string]any {
	var rows []any
	for k, v := range values {
		rows = append(rows, map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": fmt.Sprint("f", k), "value": v}}})
	}
	return h.base(5, u, channel, map[string]any{"custom_id": customID, "components": rows})
}
