package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// One test per interaction rule the fake follows (docs/discord.md).

// do sends a JSON request to the fake and returns the status and body.
func do(t *testing.T, f *Fake, method, path string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	if body == nil {
		b = nil
	}
	resp, out := request(t, f, method, "/api/v9"+path, "", string(b))
	return resp.StatusCode, out
}

// request sends body (JSON) to the fake with the Authorization header auth
// ("" for none) and returns the response, closed, and its body decoded when
// it is an object.
func request(t *testing.T, f *Fake, method, path, auth, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, f.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp, out
}

// gatewayInteraction registers an interaction as the gateway would
// deliver it (in channel "50", a component on message "") and returns its
// token and id.
func gatewayInteraction(f *Fake, n int, message string) (tok, id string) {
	tok, id = "tok"+string(rune('a'+n)), "90"+string(rune('0'+n))
	ev := map[string]any{"id": id, "token": tok, "channel_id": "50", "type": 2}
	if message != "" {
		ev["message"] = map[string]any{"id": message}
		ev["type"] = 3
	}
	f.register(ev)
	return tok, id
}

func pingPayload(users ...string) map[string]any {
	u := []any{}
	for _, x := range users {
		u = append(u, x)
	}
	return map[string]any{"content": "<@11> <@12> your move", "allowed_mentions": map[string]any{"parse": []any{}, "users": u}}
}

func lastCall(f *Fake) *Call { c := f.CallsFrom(0); return c[len(c)-1] }

func notified(f *Fake, id string) []string {
	m, ok := f.Message(id)
	if !ok {
		return nil
	}
	return m.Notified
}

// Rule 1: a type 4 answer is a new message; it pings the users its
// content mentions and allowed_mentions allows, and an ephemeral one
// pings nobody.
func TestRuleType4IsNewMessage(t *testing.T) {
	f := New(t, "1")
	tok, id := gatewayInteraction(f, 0, "")
	if st, _ := do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 4, "data": pingPayload("11")}); st != 204 {
		t.Fatalf("callback: %d", st)
	}
	c := lastCall(f)
	if !c.Created || c.Ephemeral || strings.Join(c.Notified, ",") != "11" {
		t.Errorf("type 4: created %v ephemeral %v notified %v, want a new public message pinging 11 only", c.Created, c.Ephemeral, c.Notified)
	}
	if f.Original(tok) != c.MsgID {
		t.Errorf("@original %s, want the new message %s", f.Original(tok), c.MsgID)
	}
	tok, id = gatewayInteraction(f, 1, "")
	d := pingPayload("11", "12")
	d["flags"] = 64
	do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 4, "data": d})
	if c := lastCall(f); !c.Created || !c.Ephemeral || len(c.Notified) != 0 {
		t.Errorf("ephemeral type 4: created %v ephemeral %v notified %v", c.Created, c.Ephemeral, c.Notified)
	}
	// Answering twice is refused.
	if st, out := do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 4, "data": d}); st != 400 || out["code"].(float64) != 40060 {
		t.Errorf("second answer: %d %v", st, out)
	}
}

// Rule 2: after type 5 the first follow-up fills the placeholder (an edit
// keeping the deferral's ephemeral flag, pinging nobody); later
// follow-ups, or any once @original was edited, are new messages. After
// type 6 @original is the component's message and follow-ups are new.
func TestRuleDeferralFilledByFirstFollowUp(t *testing.T) {
	f := New(t, "1")
	for _, eph := range []bool{false, true} {
		tok, id := gatewayInteraction(f, map[bool]int{false: 0, true: 1}[eph], "")
		d := map[string]any{}
		if eph {
			d["flags"] = 64
		}
		do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 5, "data": d})
		ph := lastCall(f)
		if !ph.Created || ph.Ephemeral != eph || len(ph.Notified) != 0 {
			t.Fatalf("placeholder: %+v", ph)
		}
		// The follow-up asks for a public message that pings: it fills
		// the placeholder instead.
		do(t, f, "POST", "/webhooks/1/"+tok, pingPayload("11"))
		fill := lastCall(f)
		if fill.Created || fill.Edited != ph.MsgID || fill.Ephemeral != eph || len(fill.Notified) != 0 {
			t.Errorf("ephemeral %v: first follow-up created %v edited %q (want %s) ephemeral %v notified %v", eph, fill.Created, fill.Edited, ph.MsgID, fill.Ephemeral, fill.Notified)
		}
		if m, _ := f.Message(ph.MsgID); m.Loading || m.Content() == "" || len(m.Notified) != 0 {
			t.Errorf("the filled placeholder: %+v", m)
		}
		do(t, f, "POST", "/webhooks/1/"+tok, pingPayload("11"))
		if c := lastCall(f); !c.Created || c.Ephemeral || strings.Join(c.Notified, ",") != "11" {
			t.Errorf("second follow-up: created %v ephemeral %v notified %v", c.Created, c.Ephemeral, c.Notified)
		}
	}
	// An edit of @original resolves the placeholder: the next follow-up
	// is a new message.
	tok, id := gatewayInteraction(f, 2, "")
	do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 5, "data": map[string]any{"flags": 64}})
	do(t, f, "PATCH", "/webhooks/1/"+tok+"/messages/@original", map[string]any{"content": "done"})
	do(t, f, "POST", "/webhooks/1/"+tok, pingPayload("12"))
	if c := lastCall(f); !c.Created || c.Ephemeral || strings.Join(c.Notified, ",") != "12" {
		t.Errorf("follow-up after the edit: created %v ephemeral %v notified %v", c.Created, c.Ephemeral, c.Notified)
	}
	// Type 6: @original is the component's message.
	tok, id = gatewayInteraction(f, 3, "777")
	do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 6})
	if f.Original(tok) != "777" {
		t.Errorf("@original after type 6: %q", f.Original(tok))
	}
	do(t, f, "POST", "/webhooks/1/"+tok, pingPayload("11"))
	if c := lastCall(f); !c.Created || strings.Join(c.Notified, ",") != "11" {
		t.Errorf("follow-up after type 6: created %v notified %v", c.Created, c.Notified)
	}
}

// Rule 3: edits never notify, whatever they mention.
func TestRuleEditsNeverNotify(t *testing.T) {
	f := New(t, "1")
	do(t, f, "POST", "/channels/50/messages", map[string]any{"content": "board"})
	id := lastCall(f).MsgID
	do(t, f, "PATCH", "/channels/50/messages/"+id, pingPayload("11"))
	if c := lastCall(f); c.Created || c.Edited != id || len(c.Notified) != 0 || len(notified(f, id)) != 0 {
		t.Errorf("edit: %+v, message notified %v", c, notified(f, id))
	}
	tok, cid := gatewayInteraction(f, 0, "")
	do(t, f, "POST", "/interactions/"+cid+"/"+tok+"/callback", map[string]any{"type": 4, "data": map[string]any{"content": "x"}})
	do(t, f, "PATCH", "/webhooks/1/"+tok+"/messages/@original", pingPayload("11"))
	if c := lastCall(f); c.Created || len(c.Notified) != 0 {
		t.Errorf("edit of @original notified %v", c.Notified)
	}
	// A new channel message does ping.
	do(t, f, "POST", "/channels/50/messages", pingPayload("12"))
	if c := lastCall(f); strings.Join(c.Notified, ",") != "12" {
		t.Errorf("new channel message notified %v", c.Notified)
	}
}

// endpointBot is an Interactions Endpoint answering with what answer
// writes.
func endpointBot(t *testing.T, answer func(w http.ResponseWriter, ev map[string]any)) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		_ = json.NewDecoder(r.Body).Decode(&ev)
		answer(w, ev)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func multipartAnswer(w http.ResponseWriter, size int) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	pj, _ := json.Marshal(map[string]any{"type": 4, "data": map[string]any{"content": "board", "attachments": []any{map[string]any{"id": 0, "filename": "b.png"}}}})
	_ = mw.WriteField("payload_json", string(pj))
	fw, _ := mw.CreateFormFile("files[0]", "b.png")
	_, _ = fw.Write(bytes.Repeat([]byte{1}, size))
	_ = mw.Close()
	w.Header().Set("Content-Type", mw.FormDataContentType())
	_, _ = w.Write(b.Bytes())
}

// Rule 4: an HTTP interaction's first answer is the POST's body (JSON, or
// multipart with files below ~150 KB) or a callback followed by 202.
func TestRuleHTTPAnswers(t *testing.T) {
	f := New(t, "1")
	_, key, _ := ed25519.GenerateKey(nil)
	ev := func(n int) map[string]any {
		return map[string]any{"id": "5" + string(rune('0'+n)), "token": "http" + string(rune('a'+n)), "channel_id": "60", "type": 2}
	}
	// JSON body.
	url := endpointBot(t, func(w http.ResponseWriter, _ map[string]any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"type": 4, "data": pingPayload("11")})
	})
	c, err := f.Interact(url, key, ev(0))
	if err != nil || c == nil || !c.ViaBody || !c.Created || strings.Join(c.Notified, ",") != "11" {
		t.Fatalf("JSON body: %v %+v", err, c)
	}
	// Multipart with a small file.
	url = endpointBot(t, func(w http.ResponseWriter, _ map[string]any) { multipartAnswer(w, 10<<10) })
	if c, err := f.Interact(url, key, ev(1)); err != nil || len(c.Files) != 1 || !c.Created {
		t.Fatalf("multipart body: %v %+v", err, c)
	}
	// Multipart above the limit: the interaction fails, nothing is made.
	before := len(f.Messages(""))
	url = endpointBot(t, func(w http.ResponseWriter, _ map[string]any) { multipartAnswer(w, 200<<10) })
	if _, err := f.Interact(url, key, ev(2)); !errors.Is(err, ErrInteractionFailed) {
		t.Errorf("a 200 KB body: %v, want the interaction failed", err)
	}
	if len(f.Messages("")) != before {
		t.Error("a refused body made a message")
	}
	// The callback endpoint, then 202.
	url = endpointBot(t, func(w http.ResponseWriter, ev map[string]any) {
		body, _ := json.Marshal(map[string]any{"type": 4, "data": pingPayload("12")})
		resp, err := http.Post(f.URL()+"/api/v9/interactions/"+ev["id"].(string)+"/"+ev["token"].(string)+"/callback", "application/json", bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
		}
		w.WriteHeader(http.StatusAccepted)
	})
	if c, err := f.Interact(url, key, ev(3)); err != nil || c == nil || c.ViaBody || !c.Created || strings.Join(c.Notified, ",") != "12" {
		t.Fatalf("callback then 202: %v %+v", err, c)
	}
	// Follow-ups wait for the body to be read: a follow-up sent right
	// after writing a type 5 body fills that placeholder.
	var wg sync.WaitGroup
	url = endpointBot(t, func(w http.ResponseWriter, ev map[string]any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"type": 5, "data": map[string]any{"flags": 64}})
		w.(http.Flusher).Flush()
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{"content": "note"})
			if resp, err := http.Post(f.URL()+"/api/v9/webhooks/1/"+ev["token"].(string), "application/json", bytes.NewReader(body)); err == nil {
				resp.Body.Close()
			}
		}()
	})
	ph, err := f.Interact(url, key, ev(4))
	wg.Wait()
	if err != nil || ph == nil || !ph.Ephemeral {
		t.Fatalf("deferral in the body: %v %+v", err, ph)
	}
	if c := lastCall(f); c.Created || c.Edited != ph.MsgID {
		t.Errorf("the follow-up after a body deferral: %+v", c)
	}
}

// Rule 5: the first answer within 3 s, the token for 15 minutes.
func TestRuleWindows(t *testing.T) {
	f := New(t, "1")
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	f.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	tok, id := gatewayInteraction(f, 0, "")
	advance(4 * time.Second)
	if st, out := do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 4, "data": map[string]any{"content": "late"}}); st != 404 || out["code"].(float64) != 10062 {
		t.Errorf("answer after 4 s: %d %v", st, out)
	}
	tok, id = gatewayInteraction(f, 1, "")
	do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 5})
	advance(14 * time.Minute)
	if st, _ := do(t, f, "PATCH", "/webhooks/1/"+tok+"/messages/@original", map[string]any{"content": "x"}); st != 200 {
		t.Errorf("edit at 14 min: %d", st)
	}
	advance(2 * time.Minute)
	if st, out := do(t, f, "POST", "/webhooks/1/"+tok, map[string]any{"content": "x"}); st != 401 || out["code"].(float64) != 50027 {
		t.Errorf("follow-up at 16 min: %d %v", st, out)
	}
}

// Kept from before: a message whose components share a custom id is
// refused.
func TestRuleDuplicateCustomID(t *testing.T) {
	f := New(&quietT{t}, "1")
	row := map[string]any{"type": 1, "components": []any{
		map[string]any{"type": 2, "custom_id": "a"}, map[string]any{"type": 2, "custom_id": "a"}}}
	if st, _ := do(t, f, "POST", "/channels/50/messages", map[string]any{"content": "x", "components": []any{row}}); st != 400 {
		t.Errorf("duplicate custom id: %d", st)
	}
}

// quietT swallows the fake's own error report of a refused message.
type quietT struct{ *testing.T }

func (q *quietT) Errorf(string, ...any) {}

// Rule: an interaction's webhook edits, by id, only the messages that
// interaction made (its response, its follow-ups); another message is
// Unknown Message, and the token stops working after TokenWindow.
func TestRuleWebhookEditsItsOwnMessages(t *testing.T) {
	f := New(t, "1")
	now := time.Unix(5000, 0)
	f.Now = func() time.Time { return now }
	tokA, idA := gatewayInteraction(f, 0, "")
	if st, _ := do(t, f, "POST", "/interactions/"+idA+"/"+tokA+"/callback", map[string]any{"type": 4, "data": map[string]any{"content": "a"}}); st != 204 {
		t.Fatalf("callback A: %d", st)
	}
	a := f.Original(tokA)
	st, fu := do(t, f, "POST", "/webhooks/1/"+tokA, map[string]any{"content": "follow-up"})
	if st != 200 {
		t.Fatalf("follow-up: %d", st)
	}
	tokB, idB := gatewayInteraction(f, 1, "")
	if st, _ := do(t, f, "POST", "/interactions/"+idB+"/"+tokB+"/callback", map[string]any{"type": 4, "data": map[string]any{"content": "b"}}); st != 204 {
		t.Fatalf("callback B: %d", st)
	}
	for _, c := range []struct {
		tok, msg string
		want     int
	}{
		{tokA, a, 200}, {tokA, fu["id"].(string), 200}, {tokA, "@original", 200},
		{tokB, a, 404}, {tokB, fu["id"].(string), 404}, {tokB, "@original", 200},
	} {
		if st, _ := do(t, f, "PATCH", "/webhooks/1/"+c.tok+"/messages/"+c.msg, map[string]any{"components": []any{}}); st != c.want {
			t.Errorf("%s edits %s: %d, want %d", c.tok, c.msg, st, c.want)
		}
	}
	now = now.Add(TokenWindow + time.Second)
	if st, body := do(t, f, "PATCH", "/webhooks/1/"+tokA+"/messages/@original", map[string]any{"components": []any{}}); st != 401 || body["code"] != float64(50027) {
		t.Errorf("an expired token: %d %v", st, body)
	}
}

// Rule: a bulk overwrite of application commands that breaks one of
// Discord's documented rules is refused whole (400, code 50035); one that
// keeps them is taken. One case per rule (commands.go lists them).
func TestRuleCommandRegistration(t *testing.T) {
	opt := func(kv ...any) map[string]any {
		o := map[string]any{"type": 3, "name": "move", "description": "a move"}
		for i := 0; i+1 < len(kv); i += 2 {
			o[kv[i].(string)] = kv[i+1]
		}
		return o
	}
	cmd := func(name string, opts ...map[string]any) map[string]any {
		os := []any{}
		for _, o := range opts {
			os = append(os, o)
		}
		return map[string]any{"type": 1, "name": name, "description": "plays", "options": os}
	}
	choices := func(n int) []any {
		cs := []any{}
		for i := range n {
			cs = append(cs, map[string]any{"name": fmt.Sprint("c", i), "value": fmt.Sprint(i)})
		}
		return cs
	}
	many := func(n int) []any {
		out := []any{}
		for i := range n {
			out = append(out, cmd(fmt.Sprint("c", i)))
		}
		return out
	}
	manyOpts := func(n int) []map[string]any {
		out := []map[string]any{}
		for i := range n {
			out = append(out, opt("name", fmt.Sprint("o", i)))
		}
		return out
	}
	long := strings.Repeat("x", 101)
	thai := "ตาเดิน" // Thai letters are allowed in names
	for _, tc := range []struct {
		name string
		body []any
		ok   bool
	}{
		{"valid", []any{cmd("challenge", opt("required", true), opt("name", "level", "type", 4, "min_value", 1, "max_value", 5), opt("name", "game", "choices", choices(3)), opt("name", "where", "type", 7, "channel_types", []any{0}))}, true},
		{"thai name", []any{cmd(thai)}, true},
		{"101 commands", many(101), false},
		{"100 commands", many(100), true},
		{"same name twice", []any{cmd("board"), cmd("board")}, false},
		{"upper case name", []any{cmd("Board")}, false},
		{"space in name", []any{cmd("my board")}, false},
		{"33-character name", []any{cmd(strings.Repeat("b", 33))}, false},
		{"upper case option", []any{cmd("board", opt("name", "Flip"))}, false},
		{"localized name upper case", []any{cmd("board", opt("name_localizations", map[string]any{"pt-BR": "Lance"}))}, false},
		{"101-character description", []any{cmd("board", opt("description", long))}, false},
		{"empty description", []any{map[string]any{"type": 1, "name": "board", "description": ""}}, false},
		{"101-character localized description", []any{map[string]any{"type": 1, "name": "board", "description": "x", "description_localizations": map[string]any{"th": long}}}, false},
		{"unknown locale", []any{map[string]any{"type": 1, "name": "board", "description": "x", "description_localizations": map[string]any{"pt": "tabuleiro"}}}, false},
		{"26 options", []any{cmd("board", manyOpts(26)...)}, false},
		{"25 options", []any{cmd("board", manyOpts(25)...)}, true},
		{"option twice", []any{cmd("board", opt(), opt())}, false},
		{"required after optional", []any{cmd("board", opt(), opt("name", "game", "required", true))}, false},
		{"26 choices", []any{cmd("board", opt("choices", choices(26)))}, false},
		{"choices on a boolean", []any{cmd("board", opt("type", 5, "choices", choices(2)))}, false},
		{"choices with autocomplete", []any{cmd("board", opt("choices", choices(2), "autocomplete", true))}, false},
		{"min_value on a string", []any{cmd("board", opt("min_value", 1))}, false},
		{"min_value above max_value", []any{cmd("board", opt("type", 4, "min_value", 5, "max_value", 1))}, false},
		{"fractional integer bound", []any{cmd("board", opt("type", 4, "max_value", 2.5))}, false},
		{"fractional number bound", []any{cmd("board", opt("type", 10, "max_value", 2.5))}, true},
		{"channel_types on a string", []any{cmd("board", opt("channel_types", []any{0}))}, false},
		{"over 4000 characters", []any{cmd("board", opt("choices", []any{map[string]any{"name": "a", "value": strings.Repeat("v", 4000)}}))}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := New(&quietT{t}, "1")
			st, out := do(t, f, "PUT", "/applications/1/commands", tc.body)
			if tc.ok && st != 200 || !tc.ok && (st != 400 || out["code"] != float64(50035)) {
				t.Errorf("status %d %v, want ok=%v", st, out, tc.ok)
			}
		})
	}
}
