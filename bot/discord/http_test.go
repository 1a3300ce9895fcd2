package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
)

// endpoint is an adapter serving the HTTP interactions endpoint, its REST
// calls going to the fake through the REST base URL setting.
type endpoint struct {
	t    *testing.T
	f    *fakeDiscord
	a    *Adapter
	srv  *httptest.Server
	priv ed25519.PrivateKey
	done chan string
	n    int
}

func startEndpoint(t *testing.T, f *fakeDiscord, core Core, st Store, window time.Duration) *endpoint {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{
		Token: testToken, AppID: testApp, Log: slog.New(slog.DiscardHandler),
		RESTBaseURL:  f.srv.URL,
		Sleep:        func(context.Context, time.Duration) error { return nil },
		DirectWindow: window,
	}, st)
	if err != nil {
		t.Fatal(err)
	}
	e := &endpoint{t: t, f: f, a: a, priv: priv, done: make(chan string, 64)}
	a.onDone = func(id string) { e.done <- id }
	if err := a.StartHTTP(context.Background(), core); err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(a.Handler(pub, nil))
	t.Cleanup(func() {
		e.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Close(ctx)
	})
	return e
}

// post sends body signed with key at ts and returns the status and the
// decoded JSON answer.
func (e *endpoint) post(body []byte, key ed25519.PrivateKey, ts time.Time) (int, map[string]any) {
	e.t.Helper()
	stamp := strconv.FormatInt(ts.Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(stamp), body...))
	req, _ := http.NewRequest("POST", e.srv.URL+"/interactions", bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

// interaction builds a payload like Discord's.
func (e *endpoint) interaction(typ int, data map[string]any) (map[string]any, []byte) {
	e.n++
	tok := fmt.Sprintf("htok-%d-%d-SECRET", tokenSeq.Add(1), e.n)
	ev := map[string]any{
		"id": fmt.Sprint(70000 + e.n), "application_id": testApp, "type": typ, "token": tok, "version": 1,
		"guild_id": testGuild, "channel_id": "300", "locale": "en-US",
		"channel": map[string]any{"id": "300", "type": 0},
		"member":  map[string]any{"user": map[string]any{"id": alice.id, "username": alice.name}},
		"data":    data,
	}
	if typ == 3 {
		ev["message"] = map[string]any{"id": "888", "channel_id": "300"}
	}
	b, _ := json.Marshal(ev)
	return ev, b
}

// do has the fake deliver a signed interaction of type typ, as Discord
// does, and waits until it is fully answered; it returns the first
// response (from the POST's body or the callback endpoint) and the REST
// calls made.
func (e *endpoint) do(typ int, data map[string]any) (map[string]any, []*call) {
	e.t.Helper()
	ev, _ := e.interaction(typ, data)
	from := e.f.count()
	if _, err := e.f.Interact(e.srv.URL+"/interactions", e.priv, ev); err != nil {
		e.t.Errorf("interaction %v: %v", ev["id"], err)
	}
	waitDone(e.t, e.done, ev["id"].(string))
	calls := e.f.callsFrom(from)
	var out map[string]any
	if cb := find(calls, "POST", "/callback"); len(cb) > 0 {
		out = cb[0].Payload
	}
	return out, calls
}

func TestHTTPEndpointSignatures(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	e := startEndpoint(t, f, &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{{Content: "ok"}} }}, newMemStore(), time.Second)
	ping := []byte(`{"id":"1","application_id":"555","type":1,"token":"t","version":1}`)
	if code, out := e.post(ping, e.priv, time.Now()); code != 200 || out["type"].(float64) != 1 {
		t.Errorf("PING: %d %v", code, out)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	if code, _ := e.post(ping, other, time.Now()); code != 401 {
		t.Errorf("wrong key: %d", code)
	}
	if code, _ := e.post(ping, e.priv, time.Now().Add(-10*time.Minute)); code != 401 {
		t.Errorf("stale timestamp: %d", code)
	}
	// A body changed after signing.
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(e.priv, append([]byte(stamp), ping...))
	req, _ := http.NewRequest("POST", e.srv.URL, strings.NewReader(strings.Replace(string(ping), `"type":1`, `"type":2`, 1)))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", stamp)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("tampered body accepted (err %v)", err)
	}
	// No headers at all; a GET; a huge body.
	if resp, err := http.Post(e.srv.URL, "application/json", bytes.NewReader(ping)); err != nil || resp.StatusCode != 401 {
		t.Errorf("unsigned: %v", err)
	}
	if resp, err := http.Get(e.srv.URL); err != nil || resp.StatusCode != 405 {
		t.Errorf("GET: %v", err)
	}
	big := bytes.Repeat([]byte("x"), maxInteractionBody+10)
	if code, _ := e.post(big, e.priv, time.Now()); code != 413 {
		t.Errorf("huge body: %d", code)
	}
	if len(find(f.callsFrom(0), "POST", "/callback")) != 0 {
		t.Error("the HTTP endpoint must not answer through the REST callback")
	}
}

func TestHTTPEndpointAnswers(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	var mu sync.Mutex
	var reply bot.Reply
	var hold chan struct{}
	core := &scriptCore{
		handle: func(c bot.Command) []bot.Reply {
			mu.Lock()
			r, h := reply, hold
			mu.Unlock()
			if h != nil {
				<-h
			}
			return []bot.Reply{r}
		},
		suggest: func(bot.Command, string) []bot.Choice { return []bot.Choice{{Name: "e2 > e5", Value: "e2>e5"}} },
	}
	st := newMemStore()
	e := startEndpoint(t, f, core, st, 300*time.Millisecond)
	if len(find(f.callsFrom(0), "PUT", "/commands")) != 1 {
		t.Error("commands not registered through the REST base URL")
	}
	set := func(r bot.Reply, h chan struct{}) {
		mu.Lock()
		reply, hold = r, h
		mu.Unlock()
	}

	// A plain answer is the body of the POST.
	set(bot.Reply{Content: "<@202> your turn", Mentions: []string{bob.id}}, nil)
	slash := map[string]any{"id": "1", "name": "move", "type": 1}
	out, calls := e.do(2, slash)
	d, _ := out["data"].(map[string]any)
	if out["type"].(float64) != 4 || d["content"] != "<@202> your turn" {
		t.Errorf("answer %v", out)
	}
	if cb := one(t, calls, "POST", "/callback"); !cb.ViaBody || len(calls) != 1 {
		t.Errorf("a direct answer: in the body %v, %d calls", cb.ViaBody, len(calls))
	}

	// A board (with its PNG) goes through the callback endpoint, the
	// POST answered 202: a body with files fails above ~150 KB.
	set(boardReply(t, st, 9), nil)
	out, calls = e.do(2, slash)
	cb := one(t, calls, "POST", "/callback")
	if out["type"].(float64) != 4 || cb.ViaBody || !cb.Created {
		t.Errorf("board answer type %v via body %v", out["type"], cb.ViaBody)
	}
	checkPNG(t, cb)
	if st.board(9) != "300/"+cb.MsgID {
		t.Errorf("board message recorded as %q, want %s", st.board(9), cb.MsgID)
	}

	// A component updating its message with the board: type 7 through
	// the callback.
	r := boardReply(t, st, 10)
	r.Update = true
	set(r, nil)
	out, calls = e.do(3, map[string]any{"custom_id": "g:10:1:x", "component_type": 2})
	if out["type"].(float64) != 7 {
		t.Errorf("component answer type %v", out["type"])
	}
	checkPNG(t, one(t, calls, "POST", "/callback"))

	// A slow handler: the body is a private deferral sent in time, a note
	// fills it, and the answer is a follow-up (it pings) that stays.
	h := make(chan struct{})
	set(bot.Reply{Content: "<@202> your turn", Mentions: []string{bob.id}}, h)
	ev, _ := e.interaction(2, slash)
	from := f.count()
	go func() {
		f.Await(from, eventWait, func(c *call) bool { return c.ViaBody })
		close(h)
	}()
	if _, err := f.Interact(e.srv.URL, e.priv, ev); err != nil {
		t.Fatal(err)
	}
	waitDone(t, e.done, ev["id"].(string))
	calls = f.callsFrom(from)
	if cb := one(t, calls, "POST", "/callback"); cb.Payload["type"].(float64) != 5 || !cb.Ephemeral {
		t.Errorf("slow answer %v", cb.Payload)
	}
	fu := one(t, calls, "POST", "/webhooks/"+testApp+"/htok")
	if !fu.Created || len(fu.Notified) != 1 {
		t.Errorf("the slow answer created %v, pinged %v", fu.Created, fu.Notified)
	}
	if len(find(calls, "DELETE", "")) != 0 {
		t.Error("a message was deleted")
	}

	// Autocomplete answers in the body.
	out, _ = e.do(4, map[string]any{"id": "1", "name": "move", "type": 1, "options": []any{map[string]any{"name": "move", "type": 3, "value": "e", "focused": true}}})
	d, _ = out["data"].(map[string]any)
	if out["type"].(float64) != 8 || len(d["choices"].([]any)) != 1 {
		t.Errorf("autocomplete %v", out)
	}

	// A modal opens from the body.
	set(bot.Reply{Modal: &bot.Modal{CustomID: "g:1:2:typed", Title: strings.Repeat("T", 60), Inputs: []bot.Input{{CustomID: "move", Label: "Move"}}}}, nil)
	out, _ = e.do(3, map[string]any{"custom_id": "g:1:2:type", "component_type": 2})
	d, _ = out["data"].(map[string]any)
	if out["type"].(float64) != 9 || len([]rune(d["title"].(string))) != MaxModalTitle {
		t.Errorf("modal %v", out)
	}
}

// swapStore is a memStore shared by instances: SwapMeta is atomic.
type swapStore struct{ *memStore }

func (s swapStore) SwapMeta(_ context.Context, k, old, new string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.meta[k] != old {
		return false, nil
	}
	s.meta[k] = new
	return true, nil
}

func TestRegistrationOnceAcrossInstances(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	st := swapStore{newMemStore()}
	core := &scriptCore{}
	var wg sync.WaitGroup
	registered := make(chan bool, 5)
	for k := 0; k < 5; k++ {
		a, err := New(Options{Token: testToken, AppID: testApp, RESTBaseURL: f.srv.URL}, st)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			did, err := a.registerCommands(context.Background(), core.Commands())
			if err != nil {
				t.Error(err)
			}
			registered <- did
		}()
	}
	wg.Wait()
	close(registered)
	n := 0
	for did := range registered {
		if did {
			n++
		}
	}
	if n != 1 || len(find(f.callsFrom(0), "PUT", "/commands")) != 1 {
		t.Errorf("%d instances registered, %d PUTs", n, len(find(f.callsFrom(0), "PUT", "/commands")))
	}
	h, _ := st.GetMeta(context.Background(), metaKey(testApp, ""))
	if len(h) != 64 {
		t.Errorf("meta after registration %q, want the hash", h)
	}

	// A failed registration releases its claim.
	st.meta[metaKey(testApp, "")] = ""
	f.failNext("PUT", "/commands", 400, 50035, 1)
	a, _ := New(Options{Token: testToken, AppID: testApp, RESTBaseURL: f.srv.URL}, st)
	if _, err := a.registerCommands(context.Background(), core.Commands()); err == nil {
		t.Error("refused registration reported success")
	}
	if v, _ := st.GetMeta(context.Background(), metaKey(testApp, "")); v != "" {
		t.Errorf("claim left behind: %q", v)
	}
	// A claim that ran out does not block.
	st.meta[metaKey(testApp, "")] = claim("old", time.Now().Add(-time.Second))
	if did, err := a.registerCommands(context.Background(), core.Commands()); !did || err != nil {
		t.Errorf("stale claim blocked registration: %v %v", did, err)
	}
}

func TestShards(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	f.SetShards(4)
	a, err := New(Options{Token: testToken, AppID: testApp, RESTBaseURL: f.srv.URL, ShardID: 2, ShardCount: -1}, newMemStore())
	if err != nil {
		t.Fatal(err)
	}
	if err := a.shards(); err != nil || a.s.ShardID != 2 || a.s.ShardCount != 4 {
		t.Errorf("auto shards: %v, shard %d of %d", err, a.s.ShardID, a.s.ShardCount)
	}
	a, _ = New(Options{Token: testToken, AppID: testApp, RESTBaseURL: f.srv.URL, ShardID: 5, ShardCount: -1}, newMemStore())
	if err := a.shards(); err == nil {
		t.Error("shard 5 of a recommended 4 accepted")
	}
	if _, err := New(Options{Token: testToken, AppID: testApp, ShardID: 2, ShardCount: 2}, newMemStore()); err == nil {
		t.Error("shard 2 of 2 accepted")
	}

	// Shard 1 connects but leaves registration to shard 0.
	h := newHarness(t, f, newMemStore(), nil, time.Second)
	h.a.opts.ShardID, h.a.opts.ShardCount = 1, 2
	from := f.count()
	h.start(&scriptCore{})
	if len(find(f.callsFrom(from), "PUT", "/commands")) != 0 {
		t.Error("shard 1 registered the commands")
	}
	if h.a.s.ShardCount != 2 || h.a.s.ShardID != 1 {
		t.Errorf("session shard %d of %d", h.a.s.ShardID, h.a.s.ShardCount)
	}
}
