package discord

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
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeDiscord is Discord as far as the adapter can tell: a REST server and
// a gateway websocket, recording every REST call.
type fakeDiscord struct {
	t   testing.TB
	srv *httptest.Server

	mu        sync.Mutex
	calls     []*call
	fails     []*failRule
	nextID    int64
	originals map[string]string // interaction token → @original message id
	thread    string            // the last thread created
	shards    int               // GET /gateway/bot's recommended shards (0: 1)
	conn      *websocket.Conn
	wmu       sync.Mutex // serialises gateway writes
	seq       int
	ready     chan struct{}
}

// call is one REST request as the fake understood it.
type call struct {
	Method, Path string
	Query        url.Values
	Status       int
	Payload      map[string]any // the JSON body, or the multipart payload_json
	RawJSON      []byte
	Files        []upload
	// MsgID is the message this call created (a type 4 or 5 callback, a
	// follow-up, a channel post), so tests can follow later edits of it.
	MsgID string
}

type upload struct {
	Field, Name, ContentType string
	Data                     []byte
}

type failRule struct {
	method, pathContains string
	status, code         int
	left                 int
	retryAfter           float64 // seconds, in a 429's body
}

func newFakeDiscord(t testing.TB) *fakeDiscord {
	f := &fakeDiscord{t: t, originals: map[string]string{}, nextID: 9000, ready: make(chan struct{}, 8)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// client is an HTTP client whose requests to discord.com reach the fake:
// discordgo's endpoints are fixed at init, so the transport rewrites them.
func (f *fakeDiscord) client() *http.Client {
	u, _ := url.Parse(f.srv.URL)
	return &http.Client{Transport: rewrite{host: u.Host}, Timeout: 10 * time.Second}
}

type rewrite struct{ host string }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme = "http"
	req.URL.Host = r.host
	req.Host = r.host
	return http.DefaultTransport.RoundTrip(req)
}

// failNext makes the next n requests whose method and path match answer
// status (with Discord error code, when not 0).
func (f *fakeDiscord) failNext(method, pathContains string, status, code, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fails = append(f.fails, &failRule{method: method, pathContains: pathContains, status: status, code: code, left: n})
}

// rateLimitNext makes the next n matching requests answer 429 asking to
// wait retryAfter seconds.
func (f *fakeDiscord) rateLimitNext(method, pathContains string, retryAfter float64, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fails = append(f.fails, &failRule{method: method, pathContains: pathContains, status: 429, left: n, retryAfter: retryAfter})
}

func (f *fakeDiscord) id() string {
	f.nextID++
	return fmt.Sprint(f.nextID)
}

// Calls returns the calls recorded from index from on.
func (f *fakeDiscord) callsFrom(from int) []*call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*call(nil), f.calls[from:]...)
}

func (f *fakeDiscord) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func (f *fakeDiscord) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/gw/" {
		f.gateway(w, r)
		return
	}
	c := &call{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()}
	if err := readBody(r, c); err != nil {
		f.t.Errorf("fake discord: %s %s: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), 400)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	for _, fr := range f.fails {
		if fr.left > 0 && fr.method == r.Method && strings.Contains(r.URL.Path, fr.pathContains) {
			fr.left--
			c.Status = fr.status
			if fr.status < 0 {
				// Drop the connection: the client sees a transport error,
				// whose text quotes the URL (and so the token in it).
				if hj, ok := w.(http.Hijacker); ok {
					if conn, _, err := hj.Hijack(); err == nil {
						conn.Close()
					}
				}
				return
			}
			writeJSON(w, fr.status, map[string]any{"message": "injected failure", "code": fr.code, "retry_after": fr.retryAfter, "global": false})
			return
		}
	}
	// Discord refuses a message whose components share a custom id.
	if dup := duplicateCustomID(c.Payload); dup != "" {
		c.Status = 400
		writeJSON(w, 400, map[string]any{"message": "Invalid Form Body", "code": 50035, "errors": "duplicate custom_id " + dup})
		f.t.Errorf("fake discord: %s: custom id %q used twice in one message", r.Method, dup)
		return
	}
	c.Status = 200
	p := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v9/"), "/")
	switch {
	case r.Method == "GET" && (r.URL.Path == "/api/v9/gateway" || r.URL.Path == "/api/v9/gateway/bot"):
		writeJSON(w, 200, map[string]any{"url": "ws://" + r.Host + "/gw", "shards": max(f.shards, 1),
			"session_start_limit": map[string]any{"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})
	case r.Method == "PUT" && p[0] == "applications" && p[len(p)-1] == "commands":
		var arr []any
		_ = json.Unmarshal(c.RawJSON, &arr)
		writeJSON(w, 200, arr)
	case r.Method == "POST" && p[0] == "interactions" && len(p) == 4 && p[3] == "callback":
		typ, _ := c.Payload["type"].(float64)
		if typ == 4 || typ == 5 {
			f.originals[p[2]] = f.id()
			c.MsgID = f.originals[p[2]]
		}
		c.Status = 204
		w.WriteHeader(204)
	case p[0] == "webhooks" && len(p) == 5 && p[4] == "@original":
		id := f.originals[p[2]]
		if id == "" {
			c.Status = 404
			writeJSON(w, 404, map[string]any{"message": "Unknown Message", "code": 10008})
			return
		}
		if r.Method == "DELETE" {
			c.Status = 204
			w.WriteHeader(204)
			return
		}
		writeJSON(w, 200, map[string]any{"id": id, "channel_id": "0"})
	case r.Method == "POST" && p[0] == "webhooks" && len(p) == 3:
		c.MsgID = f.id()
		writeJSON(w, 200, map[string]any{"id": c.MsgID, "channel_id": "0"})
	case r.Method == "POST" && p[0] == "channels" && len(p) == 3 && p[2] == "messages":
		c.MsgID = f.id()
		writeJSON(w, 200, map[string]any{"id": c.MsgID, "channel_id": p[1]})
	case r.Method == "PATCH" && p[0] == "channels" && len(p) == 4 && p[2] == "messages":
		writeJSON(w, 200, map[string]any{"id": p[3], "channel_id": p[1]})
	case r.Method == "POST" && p[0] == "channels" && p[len(p)-1] == "threads":
		f.thread = f.id()
		writeJSON(w, 200, map[string]any{"id": f.thread, "type": 11, "parent_id": p[1], "name": c.Payload["name"]})
	default:
		c.Status = 404
		writeJSON(w, 404, map[string]any{"message": "fake: no route", "code": 0})
	}
}

// duplicateCustomID returns a custom id used twice among the components of
// a message payload (a callback's "data" or a message body), or "".
func duplicateCustomID(payload map[string]any) string {
	msg := payload
	if d, ok := payload["data"].(map[string]any); ok {
		msg = d
	}
	rows, _ := msg["components"].([]any)
	seen := map[string]bool{}
	for _, row := range rows {
		rm, _ := row.(map[string]any)
		comps, _ := rm["components"].([]any)
		for _, c := range comps {
			cm, _ := c.(map[string]any)
			id, _ := cm["custom_id"].(string)
			if id == "" {
				continue
			}
			if seen[id] {
				return id
			}
			seen[id] = true
		}
	}
	return ""
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func readBody(r *http.Request, c *call) error {
	body, err := io.ReadAll(r.Body)
	if err != nil || len(body) == 0 {
		return err
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
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
		c.Files = append(c.Files, upload{Field: part.FormName(), Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data})
	}
}

// gateway speaks just enough of the Discord gateway: HELLO, IDENTIFY →
// READY, heartbeats, and the dispatches the test sends.
func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
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
	f.wmu.Unlock()
	// Handshake replies go to this connection, not to f.conn: a test may
	// run two sessions against one fake (a restart), and a reply sent to
	// the other session's socket would leave this one waiting forever.
	f.sendOn(conn, map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})
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
			f.sendOn(conn, map[string]any{"op": 11})
		case 2:
			f.dispatchOn(conn, "READY", map[string]any{
				"v": 9, "session_id": "fake-session",
				"user":        map[string]any{"id": "100", "username": "tankbot", "bot": true},
				"application": map[string]any{"id": testApp},
				"guilds":      []any{},
			})
			select {
			case f.ready <- struct{}{}:
			default:
			}
		case 6:
			// discordgo resumes after a failed heartbeat (e.g. one racing
			// Close); answering keeps its Open from holding the session
			// lock forever.
			f.dispatchOn(conn, "RESUMED", map[string]any{})
		}
	}
}

// sendOn writes one gateway payload to conn (nil: the newest connection).
func (f *fakeDiscord) sendOn(conn *websocket.Conn, v any) {
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

// dispatch sends an event to the newest connection: the live session.
func (f *fakeDiscord) dispatch(event string, d any) { f.dispatchOn(nil, event, d) }

func (f *fakeDiscord) dispatchOn(conn *websocket.Conn, event string, d any) {
	f.wmu.Lock()
	f.seq++
	s := f.seq
	f.wmu.Unlock()
	f.sendOn(conn, map[string]any{"op": 0, "t": event, "s": s, "d": d})
}

// originalOf is the message an interaction's callback produced (or, for a
// component, the message it was on).
func (f *fakeDiscord) originalOf(cb *call) string {
	if cb.MsgID != "" {
		return cb.MsgID
	}
	p := strings.Split(cb.Path, "/")
	if len(p) < 6 {
		f.t.Fatalf("not a callback: %s", cb.Path)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.originals[p[5]]
	if id == "" {
		f.t.Fatalf("no original message for %s", cb.Path)
	}
	return id
}

func (f *fakeDiscord) lastThreadID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.thread
}
