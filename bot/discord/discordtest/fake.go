// Package discordtest is a fake Discord for tests: a REST server and a
// gateway websocket that record every call, answer like Discord as far as
// tankbot can tell (message ids, @original, follow-ups, threads, command
// registration, enforce_nonce) and inject faults on request. It is used by
// the adapter's tests and by black-box tests of the tankbot binary (point
// TANKBOT_DISCORD_REST_URL at Fake.URL()); nothing else imports it.
package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Fake is Discord as far as the adapter can tell: a REST server and a
// gateway websocket, recording every REST call. Safe for concurrent use.
type Fake struct {
	t TB
	// Server is the fake's HTTP server; Ready hears each gateway READY.
	Server *httptest.Server
	Ready  chan struct{}
	// AppID is the application id sent in READY.
	AppID string
	// Now is the fake's clock for nonce expiry (default time.Now).
	Now func() time.Time

	// ResponseWindow is how long after an interaction is created its
	// first response is taken (Discord: 3 s); TokenWindow how long its
	// token works for follow-ups and edits (15 min). Both on Now.
	ResponseWindow, TokenWindow time.Duration

	mu       sync.Mutex
	calls    []*Call
	fails    []*failRule
	nextID   int64
	ixs      map[string]*interaction // interaction token → its state
	messages map[string]*Message     // every message, by id
	order    []string                // message ids in creation order
	thread   string                  // the last thread created
	shards   int                     // GET /gateway/bot's recommended shards (0: 1)
	conn     *websocket.Conn
	wmu      sync.Mutex // serialises gateway writes
	seq      int
	sessions int                  // gateway connections accepted so far
	nonces   map[string]sentNonce // enforce_nonce: nonce → first message
	changed  *sync.Cond           // on f.mu: broadcast after each call
	global   *globalLimit         // SetGlobalLimit (limits.go); nil: none
	routes   *routeLimits         // SetRouteLimits (limits.go); nil: none
	faults   *faults              // InjectFaults (limits.go); nil: none
	// DiscardFiles keeps only the size of uploaded files (long runs).
	DiscardFiles bool
	// AllowMissingAlt lets an image go without alt text without failing
	// the test (tests of the fake itself; see alt.go).
	AllowMissingAlt bool
	// HidePlaces sends interactions in declared places without context,
	// authorizing_integration_owners and app_permissions, as Discord did
	// before user installs: a bot reading them cannot tell where it is
	// (to prove the fake's refusals real). Its rules still apply.
	HidePlaces bool

	// Installation (places.go): declared servers (bot a member or not),
	// channels, users who installed the app, the bot's DMs; follow-ups
	// counted per token of a user-installed interaction outside its
	// servers; the contexts of registered commands.
	guilds     map[string]bool
	places     map[string]*channelPlace
	userApps   map[string]bool
	memberOf   map[string][]string
	botDMs     map[string]string
	followups  map[string]int
	userOnly   map[string]bool
	registered map[string]registeredCommand
}

// Call is one REST request as the fake understood it.
type Call struct {
	Method, Path string
	Query        url.Values
	Status       int
	Payload      map[string]any // the JSON body, or the multipart payload_json
	RawJSON      []byte
	Files        []Upload
	// MsgID is the message this call created (a type 4 or 5 callback, a
	// follow-up, a channel post), so tests can follow later edits of it.
	MsgID string
	// Deduped marks a channel post answered with an earlier message because
	// its nonce was seen (enforce_nonce): Discord created nothing.
	Deduped bool
	// Created says the call made a new message (MsgID), Edited names the
	// message it changed instead (an edit, or the follow-up that fills a
	// deferred placeholder). Ephemeral is that message's flag, Notified
	// the users the call pinged (only a new public message pings).
	Created   bool
	Edited    string
	Ephemeral bool
	Notified  []string
	// ViaBody marks the answer an HTTP interaction got in the body of the
	// response to Discord's POST (recorded as a callback).
	ViaBody bool
	// Refused marks a call refused by an installation rule (places.go).
	Refused bool
}

// Message is a message as Discord holds it.
type Message struct {
	ID, Channel string
	// Payload is the message's latest content (content, embeds,
	// components, allowed_mentions).
	Payload map[string]any
	// Versions is every content the message had, oldest first (the
	// creation's, then each edit's result): what it once offered.
	Versions []map[string]any
	Files    []Upload
	// Ephemeral: seen only by the interaction's user. Loading: a type 5
	// placeholder not yet filled. Deleted: gone.
	Ephemeral, Loading, Deleted bool
	// Notified are the users pinged when the message was created; edits
	// add nobody.
	Notified []string
	Edits    int
	// Token is the interaction that made it ("" for a channel post).
	Token string
	// owners are the authorizing_integration_owners of that interaction:
	// a click on the message carries them.
	owners map[string]any
}

// Content is the message's text.
func (m Message) Content() string { s, _ := m.Payload["content"].(string); return s }

// interaction is what the fake knows of one interaction token.
type interaction struct {
	id, channel string
	message     string // a component's message
	issued      time.Time
	acked       int    // the callback type that acknowledged it (0: none)
	original    string // @original
	loading     bool   // deferred (type 5) and not yet filled
	failed      bool   // Discord gave up on it ("This interaction failed")
	ack         *Call  // the first response
	pending     chan struct{}
	owners      map[string]any // authorizing_integration_owners, when known
}

// Discord's interaction limits.
const (
	ResponseWindow = 3 * time.Second
	TokenWindow    = 15 * time.Minute
	// MaxResponseBody is the largest answer Discord reads from the body of
	// its POST to an Interactions Endpoint: above roughly 150 KB the
	// interaction fails (discord-api-docs #5250).
	MaxResponseBody = 150 << 10
)

// sentNonce is the message a nonce created, and when.
type sentNonce struct {
	id, channel string
	at          time.Time
}

// NonceWindow is how long the fake remembers a nonce (Discord: "a few
// minutes").
const NonceWindow = 5 * time.Minute

// Upload is one file of a multipart request.
type Upload struct {
	Field, Name, ContentType string
	Data                     []byte
	Size                     int
	// Description is the file's alt text (its attachments entry).
	Description string
}

type failRule struct {
	method, pathContains string
	status, code         int
	left                 int
	retryAfter           float64 // seconds, in a 429's body
}

// TB is the part of testing.TB the fake reports to. A test passes its
// *testing.T; a load run outside a test passes its own collector, so the
// binary needs no nil testing.TB that would panic on a method the fake
// starts to call.
type TB interface {
	Helper()
	Cleanup(func())
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// New starts a fake for application appID, closed when the test ends.
func New(t TB, appID string) *Fake {
	f := &Fake{t: t, AppID: appID, Now: time.Now, ResponseWindow: ResponseWindow, TokenWindow: TokenWindow,
		ixs: map[string]*interaction{}, messages: map[string]*Message{}, nonces: map[string]sentNonce{}, nextID: 9000, Ready: make(chan struct{}, 8)}
	f.changed = sync.NewCond(&f.mu)
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Server.Close)
	return f
}

// Original is the @original message id of an interaction token ("" if
// none).
func (f *Fake) Original(token string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ix := f.ixs[token]; ix != nil {
		return ix.original
	}
	return ""
}

// URL is the REST base URL (for Options.RESTBaseURL or
// TANKBOT_DISCORD_REST_URL).
func (f *Fake) URL() string { return f.Server.URL }

// SetShards sets the shard count GET /gateway/bot recommends.
func (f *Fake) SetShards(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shards = n
}

// SetOriginal makes messageID the message a component interaction
// (token) was clicked on: its @original once acknowledged with type 6 or 7.
func (f *Fake) SetOriginal(token, messageID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.interactionLocked(token, "", "").message = messageID
}

// Client is an HTTP client whose requests to discord.com reach the fake:
// discordgo's endpoints are fixed at init, so the transport rewrites them.
func (f *Fake) Client() *http.Client {
	u, _ := url.Parse(f.Server.URL)
	// The timeout is a hang guard, not a budget: a starved CPU must not
	// turn a slow answer into a failed request.
	return &http.Client{Transport: rewrite{host: u.Host}, Timeout: hangGuard}
}

type rewrite struct{ host string }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme = "http"
	req.URL.Host = r.host
	req.Host = r.host
	return http.DefaultTransport.RoundTrip(req)
}

// FailNext makes the next n requests whose method and path match answer
// status (with Discord error code, when not 0).
func (f *Fake) FailNext(method, pathContains string, status, code, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fails = append(f.fails, &failRule{method: method, pathContains: pathContains, status: status, code: code, left: n})
}

// RateLimitNext makes the next n matching requests answer 429 asking to
// wait retryAfter seconds.
func (f *Fake) RateLimitNext(method, pathContains string, retryAfter float64, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fails = append(f.fails, &failRule{method: method, pathContains: pathContains, status: 429, left: n, retryAfter: retryAfter})
}

// NewID is a fresh snowflake-like id.
func (f *Fake) NewID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.id()
}

func (f *Fake) id() string {
	f.nextID++
	return fmt.Sprint(f.nextID)
}

// CallsFrom returns the calls recorded from index from on.
func (f *Fake) CallsFrom(from int) []*Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*Call(nil), f.calls[from:]...)
}

// Await waits until a call recorded at index from or later satisfies
// match (called with the fake locked: it must not call the fake) and
// returns it, or nil after timeout.
func (f *Fake) Await(from int, timeout time.Duration, match func(*Call) bool) *Call {
	expired := false
	timer := time.AfterFunc(timeout, func() {
		f.mu.Lock()
		expired = true
		f.changed.Broadcast()
		f.mu.Unlock()
	})
	defer timer.Stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for next := from; ; {
		for ; next < len(f.calls); next++ {
			if match(f.calls[next]) {
				return f.calls[next]
			}
		}
		if expired {
			return nil
		}
		f.changed.Wait()
	}
}

// Configure changes the fake's settings (DiscardFiles, ResponseWindow, …)
// under its lock: once a bot in another process talks to the fake, a plain
// assignment races with the handlers that read them.
func (f *Fake) Configure(set func(f *Fake)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	set(f)
}

// Count is the number of calls recorded.
func (f *Fake) Count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/gw/" {
		f.gateway(w, r)
		return
	}
	// Discord's windows count to when a request arrives, not to when a
	// busy fake gets to it.
	arrived := f.Now()
	c := &Call{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()}
	f.awaitBody(r.URL.Path)
	if err := readBody(r, c); err != nil {
		f.t.Errorf("fake discord: %s %s: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), 400)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.changed.Broadcast() // the call is complete once routed
	if f.DiscardFiles {
		for k := range c.Files {
			c.Files[k].Data = nil
		}
	}
	f.calls = append(f.calls, c)
	if f.injectFault(w, r, c) || f.refuseGlobal(w, r, c) || f.limitRoute(w, r, c) {
		return
	}
	for _, fr := range f.fails {
		if fr.left > 0 && fr.method == r.Method && strings.Contains(r.URL.Path, fr.pathContains) {
			fr.left--
			c.Status = fr.status
			if fr.status < 0 {
				dropConnection(w)
				return
			}
			writeJSON(w, fr.status, map[string]any{"message": "injected failure", "code": fr.code, "retry_after": fr.retryAfter, "global": false})
			return
		}
	}
	if status, body := f.checkAltText(c); status != 0 {
		c.Status = status
		writeJSON(w, status, body)
		return
	}
	// Discord refuses a message whose components share a custom id.
	if dup := DuplicateCustomID(c.Payload); dup != "" {
		c.Status = 400
		writeJSON(w, 400, map[string]any{"message": "Invalid Form Body", "code": 50035, "errors": "duplicate custom_id " + dup})
		f.t.Errorf("fake discord: %s: custom id %q used twice in one message", r.Method, dup)
		return
	}
	c.Status = 200
	p := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v9/"), "/")
	if f.refuseBotTokenLocked(w, c, p) {
		return
	}
	switch {
	case r.Method == "POST" && isBotDMPath(p):
		f.createDMLocked(w, c)
	case r.Method == "GET" && (r.URL.Path == "/api/v9/gateway" || r.URL.Path == "/api/v9/gateway/bot"):
		writeJSON(w, 200, map[string]any{"url": "ws://" + r.Host + "/gw", "shards": max(f.shards, 1),
			"session_start_limit": map[string]any{"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})
	case r.Method == "PUT" && p[0] == "applications" && p[len(p)-1] == "commands":
		if why := CommandsProblem(c.RawJSON); why != "" {
			c.Status = 400
			writeJSON(w, 400, map[string]any{"message": "Invalid Form Body", "code": 50035, "errors": why})
			f.t.Errorf("fake discord: application commands refused: %s", why)
			return
		}
		var arr []any
		_ = json.Unmarshal(c.RawJSON, &arr)
		var cmds []map[string]any
		_ = json.Unmarshal(c.RawJSON, &cmds)
		f.noteCommandsLocked(cmds)
		writeJSON(w, 200, arr)
	case r.Method == "POST" && p[0] == "interactions" && len(p) == 4 && p[3] == "callback":
		ix := f.interactionLocked(p[2], p[1], "")
		if status, body := f.respondLocked(c, ix, p[2], arrived); status != 0 {
			c.Status = status
			writeJSON(w, status, body)
			return
		}
		c.Status = 204
		w.WriteHeader(204)
	case p[0] == "webhooks" && len(p) >= 3:
		f.webhookLocked(w, r, c, p)
	case r.Method == "POST" && p[0] == "channels" && len(p) == 3 && p[2] == "messages":
		// enforce_nonce: a nonce seen within the window returns the message
		// it created then; nothing new is posted.
		nonce, _ := c.Payload["nonce"].(string)
		enforce, _ := c.Payload["enforce_nonce"].(bool)
		if enforce && nonce != "" {
			if len(nonce) > 25 {
				c.Status = 400
				writeJSON(w, 400, map[string]any{"message": "Invalid Form Body", "code": 50035, "errors": "nonce longer than 25"})
				return
			}
			if prev, ok := f.nonces[nonce]; ok && prev.channel == p[1] && f.Now().Sub(prev.at) < NonceWindow {
				c.MsgID, c.Deduped = prev.id, true
				writeJSON(w, 200, map[string]any{"id": prev.id, "channel_id": p[1], "nonce": nonce})
				return
			}
		}
		m := f.createLocked(c, p[1], "", c.Payload, false)
		if enforce && nonce != "" {
			f.nonces[nonce] = sentNonce{id: m.ID, channel: p[1], at: f.Now()}
		}
		writeJSON(w, 200, map[string]any{"id": m.ID, "channel_id": p[1], "nonce": nonce})
	case r.Method == "PATCH" && p[0] == "channels" && len(p) == 4 && p[2] == "messages":
		f.editLocked(c, p[3], c.Payload)
		writeJSON(w, 200, map[string]any{"id": p[3], "channel_id": p[1]})
	case r.Method == "POST" && p[0] == "channels" && p[len(p)-1] == "threads":
		f.thread = f.id()
		writeJSON(w, 200, map[string]any{"id": f.thread, "type": 11, "parent_id": p[1], "name": c.Payload["name"]})
	default:
		c.Status = 404
		writeJSON(w, 404, map[string]any{"message": "fake: no route", "code": 0})
	}
}

// DuplicateCustomID returns a custom id used twice among the components of
// a message payload (a callback's "data" or a message body), or "".
func DuplicateCustomID(payload map[string]any) string {
	msg := payload
	if d, ok := payload["data"].(map[string]any); ok {
		msg = d
	}
	seen := map[string]bool{}
	for _, id := range CustomIDs(msg) {
		if seen[id] {
			return id
		}
		seen[id] = true
	}
	return ""
}

// CustomIDs lists the custom ids of a message's components, row by row.
func CustomIDs(msg map[string]any) []string {
	var out []string
	rows, _ := msg["components"].([]any)
	for _, row := range rows {
		rm, _ := row.(map[string]any)
		comps, _ := rm["components"].([]any)
		for _, c := range comps {
			cm, _ := c.(map[string]any)
			if id, _ := cm["custom_id"].(string); id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

// LogBuffer collects the log output of the bot under test from several
// goroutines (or a child process's stdout and stderr).
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *LogBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *LogBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func readBody(r *http.Request, c *Call) error {
	body, err := io.ReadAll(r.Body)
	if err != nil || len(body) == 0 {
		return err
	}
	return parseBody(r.Header.Get("Content-Type"), body, c)
}

// parseBody reads a JSON or multipart (payload_json and files) body.
func parseBody(contentType string, body []byte, c *Call) error {
	mt, params, _ := mime.ParseMediaType(contentType)
	if mt != "multipart/form-data" {
		c.RawJSON = body
		if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
			return nil // a list (command registration): read RawJSON
		}
		return json.Unmarshal(body, &c.Payload)
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return err
		}
		if part.FormName() == "payload_json" {
			c.RawJSON = data
			if err := json.Unmarshal(data, &c.Payload); err != nil {
				return err
			}
			continue
		}
		c.Files = append(c.Files, Upload{Field: part.FormName(), Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data, Size: len(data)})
	}
}

// gateway speaks just enough of the Discord gateway: HELLO, IDENTIFY →
// READY, heartbeats, and the dispatches the test sends.
func (f *Fake) gateway(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		f.t.Errorf("gateway upgrade: %v", err)
		return
	}
	defer conn.Close()
	f.wmu.Lock()
	f.conn = conn
	f.seq = 0
	f.sessions++
	f.wmu.Unlock()
	// Handshake replies go to this connection, not to f.conn: a test may
	// run two sessions against one fake (a restart), and a reply sent to
	// the other session's socket would leave this one waiting forever.
	f.SendOn(conn, map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		var m struct {
			Op int `json:"op"`
		}
		if json.Unmarshal(msg, &m) != nil {
			continue
		}
		switch m.Op {
		case 1:
			f.SendOn(conn, map[string]any{"op": 11})
		case 2:
			f.DispatchOn(conn, "READY", map[string]any{
				"v": 9, "session_id": "fake-session",
				"user":        map[string]any{"id": "100", "username": "tankbot", "bot": true},
				"application": map[string]any{"id": f.AppID},
				"guilds":      []any{},
			})
			select {
			case f.Ready <- struct{}{}:
			default:
			}
		case 6:
			// discordgo resumes after a failed heartbeat (e.g. one racing
			// Close); answering keeps its Open from holding the session
			// lock forever.
			f.DispatchOn(conn, "RESUMED", map[string]any{})
		}
	}
}

// Sessions counts the gateway connections the fake has accepted.
func (f *Fake) Sessions() int {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	return f.sessions
}

// DropGateway closes the newest gateway connection, as a network failure
// or a Discord restart would.
func (f *Fake) DropGateway() {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	if f.conn != nil {
		f.conn.Close()
	}
}

// SendOn writes one gateway payload to conn (nil: the newest connection).
func (f *Fake) SendOn(conn *websocket.Conn, v any) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	if conn == nil {
		conn = f.conn
	}
	if conn == nil {
		f.t.Errorf("gateway: no connection")
		return
	}
	if err := conn.WriteJSON(v); err != nil {
		f.t.Logf("gateway write: %v", err)
	}
}

// Dispatch sends an event to the newest connection: the live session.
func (f *Fake) Dispatch(event string, d any) { f.DispatchOn(nil, event, d) }

// DispatchOn sends an event to conn (nil: the newest connection).
func (f *Fake) DispatchOn(conn *websocket.Conn, event string, d any) {
	if ev, ok := d.(map[string]any); ok && event == "INTERACTION_CREATE" {
		f.register(ev)
	}
	f.wmu.Lock()
	f.seq++
	s := f.seq
	f.wmu.Unlock()
	f.SendOn(conn, map[string]any{"op": 0, "t": event, "s": s, "d": d})
}

// OriginalOf is the message an interaction's callback produced (or, for a
// component, the message it was on).
func (f *Fake) OriginalOf(cb *Call) string {
	if cb.MsgID != "" {
		return cb.MsgID
	}
	p := strings.Split(cb.Path, "/")
	if len(p) < 6 {
		f.t.Fatalf("not a callback: %s", cb.Path)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var id string
	if ix := f.ixs[p[5]]; ix != nil {
		id = ix.original
	}
	if id == "" {
		f.t.Fatalf("no original message for %s", cb.Path)
	}
	return id
}

// LastThreadID is the last thread created.
func (f *Fake) LastThreadID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.thread
}
