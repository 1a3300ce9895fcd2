package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The interaction rules below follow Discord's "Receiving and Responding"
// page (https://discord.com/developers/docs/interactions/receiving-and-responding)
// and the behaviour its maintainers describe in discord-api-docs #2742,
// #3466, #4140 and #5250; docs/discord.md lists them.

// interactionLocked returns the state of an interaction token, creating
// it (issued now) the first time it is seen.
func (f *Fake) interactionLocked(token, id, channel string) *interaction {
	ix := f.ixs[token]
	if ix == nil {
		ix = &interaction{issued: f.Now()}
		f.ixs[token] = ix
	}
	if ix.id == "" {
		ix.id = id
	}
	if ix.channel == "" {
		ix.channel = channel
	}
	if ix.channel == "" {
		ix.channel = "0"
	}
	return ix
}

// register notes an interaction Discord sends (over the gateway or to an
// Interactions Endpoint): its id, channel, the message a component is on,
// and when it was created, which starts its windows.
func (f *Fake) register(ev map[string]any) *interaction {
	tok, _ := ev["token"].(string)
	id, _ := ev["id"].(string)
	ch, _ := ev["channel_id"].(string)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dressLocked(ev)
	ix := f.interactionLocked(tok, id, ch)
	ix.issued = f.Now()
	if o, ok := ev["authorizing_integration_owners"].(map[string]any); ok {
		ix.owners = o
		if userOnlyOwners(o) {
			f.guildsInit()
			f.userOnly[tok] = true
		}
	}
	if ix.acked == 0 {
		// Delivered again (a load balancer's retry of a POST that
		// reached a dead instance): a new chance to answer.
		ix.failed = false
	}
	if m, ok := ev["message"].(map[string]any); ok {
		if mid, _ := m["id"].(string); mid != "" {
			ix.message = mid
		}
	}
	return ix
}

func flagsOf(payload map[string]any) int {
	fl, _ := payload["flags"].(float64)
	return int(fl)
}

func discordError(code int, msg string) map[string]any {
	return map[string]any{"message": msg, "code": code}
}

// respondLocked applies an interaction's first response (the callback
// endpoint's body, or the answer in the body of Discord's POST). It
// returns a non-zero status and an error body when Discord refuses it.
//
//   - type 4 creates a new message (ephemeral with flag 64), which pings
//     the users its content mentions and allowed_mentions allows;
//   - type 5 creates the "thinking…" placeholder (ephemeral with flag 64),
//     which pings nobody; the first follow-up fills it;
//   - type 6 makes the component's message @original, type 7 edits it.
func (f *Fake) respondLocked(c *Call, ix *interaction, token string, arrived time.Time) (int, map[string]any) {
	if ix.failed {
		return 404, discordError(10062, "Unknown interaction")
	}
	if ix.acked != 0 {
		return 400, discordError(40060, "Interaction has already been acknowledged.")
	}
	if arrived.Sub(ix.issued) > f.ResponseWindow {
		ix.failed = true
		return 404, discordError(10062, "Unknown interaction")
	}
	typ := int(flagsOfType(c.Payload))
	data, _ := c.Payload["data"].(map[string]any)
	if data == nil {
		data = map[string]any{}
	}
	eph := flagsOf(data)&64 != 0
	switch typ {
	case 1, 8, 9:
	case 4:
		m := f.createLocked(c, ix.channel, token, data, eph)
		ix.original = m.ID
	case 5:
		m := f.createLocked(c, ix.channel, token, map[string]any{}, eph)
		m.Loading, ix.loading = true, true
		ix.original = m.ID
	case 6:
		ix.original = ix.message
	case 7:
		ix.original = ix.message
		f.editLocked(c, ix.message, data)
	default:
		return 400, discordError(50035, fmt.Sprintf("Invalid Form Body: interaction response type %d", typ))
	}
	ix.acked, ix.ack = typ, c
	return 0, nil
}

// FirstResponse is the call that acknowledged interaction token (its
// callback, or the answer in the POST's body), nil before that.
func (f *Fake) FirstResponse(token string) *Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ix := f.ixs[token]; ix != nil {
		return ix.ack
	}
	return nil
}

func flagsOfType(p map[string]any) float64 { t, _ := p["type"].(float64); return t }

// webhookLocked serves the interaction token's webhook: follow-ups and
// @original (or a follow-up's) read, edit and delete.
func (f *Fake) webhookLocked(w http.ResponseWriter, r *http.Request, c *Call, p []string) {
	fail := func(status int, body map[string]any) {
		c.Status = status
		writeJSON(w, status, body)
	}
	ix := f.ixs[p[2]]
	if ix == nil || ix.acked == 0 || ix.failed {
		fail(404, discordError(10015, "Unknown Webhook"))
		return
	}
	if f.Now().Sub(ix.issued) > f.TokenWindow {
		fail(401, discordError(50027, "Invalid Webhook Token"))
		return
	}
	reply := func(id string) {
		m := f.messages[id]
		out := map[string]any{"id": id, "channel_id": ix.channel}
		if m != nil {
			out["channel_id"] = m.Channel
			if m.Ephemeral {
				out["flags"] = 64
			}
		}
		writeJSON(w, 200, out)
	}
	switch {
	case len(p) == 3 && r.Method == "POST":
		if f.limitFollowupLocked(w, c, p[2]) {
			return
		}
		if ix.loading {
			// The first follow-up after a type 5 fills the placeholder:
			// an edit, keeping the deferral's ephemeral flag, pinging no
			// one (discord-api-docs #2742, #3466, #4140).
			ix.loading = false
			f.editLocked(c, ix.original, c.Payload)
			c.MsgID = ix.original
			reply(ix.original)
			return
		}
		m := f.createLocked(c, ix.channel, p[2], c.Payload, flagsOf(c.Payload)&64 != 0)
		reply(m.ID)
	case len(p) == 5 && p[3] == "messages":
		id := p[4]
		if id == "@original" {
			id = ix.original
		}
		m := f.messages[id]
		if id == "" || m != nil && m.Deleted {
			fail(404, discordError(10008, "Unknown Message"))
			return
		}
		// By id, the webhook reaches only the messages its interaction
		// made (its response and follow-ups: "Edit Followup Message");
		// another message, such as the one a component was clicked on, is
		// reached as @original after a type 6 or 7 answer.
		if p[4] != "@original" && id != ix.original && (m == nil || m.Token != p[2]) {
			fail(404, discordError(10008, "Unknown Message"))
			return
		}
		switch r.Method {
		case "GET":
			reply(id)
		case "PATCH":
			if p[4] == "@original" {
				ix.loading = false
			}
			f.editLocked(c, id, c.Payload)
			reply(id)
		case "DELETE":
			if m != nil {
				m.Deleted = true
			}
			c.Status = 204
			w.WriteHeader(204)
		default:
			fail(405, discordError(0, "Method Not Allowed"))
		}
	default:
		fail(404, discordError(0, "fake: no route"))
	}
}

// createLocked stores a new message made by c and notes on c whom it
// pinged: a public new message notifies the users its content mentions
// and allowed_mentions allows (all mentioned users without
// allowed_mentions); an ephemeral one notifies nobody.
func (f *Fake) createLocked(c *Call, channel, token string, payload map[string]any, ephemeral bool) *Message {
	m := &Message{ID: f.id(), Channel: channel, Payload: copyMap(payload), Files: c.Files, Ephemeral: ephemeral, Token: token}
	if ix := f.ixs[token]; token != "" && ix != nil {
		m.owners = ix.owners
	}
	if !ephemeral {
		m.Notified = notifiedBy(payload)
	}
	m.Versions = []map[string]any{copyMap(m.Payload)}
	f.messages[m.ID] = m
	f.order = append(f.order, m.ID)
	c.MsgID, c.Created, c.Ephemeral, c.Notified = m.ID, true, ephemeral, m.Notified
	return m
}

// editLocked applies an edit to message id: the fields sent replace the
// old ones, new files replace the attachments. An edit notifies nobody.
func (f *Fake) editLocked(c *Call, id string, payload map[string]any) {
	c.Edited = id
	m := f.messages[id]
	if m == nil {
		return // a message the fake did not see created (set by a test)
	}
	for k, v := range payload {
		m.Payload[k] = v
	}
	if _, ok := payload["attachments"]; ok || len(c.Files) > 0 {
		m.Files = c.Files
	}
	m.Versions = append(m.Versions, copyMap(m.Payload))
	m.Loading = false
	m.Edits++
	c.Ephemeral = m.Ephemeral
}

var mentionRx = regexp.MustCompile(`<@!?(\d+)>`)

// notifiedBy is whom a new public message with payload pings.
func notifiedBy(payload map[string]any) []string {
	content, _ := payload["content"].(string)
	var users []string
	seen := map[string]bool{}
	for _, m := range mentionRx.FindAllStringSubmatch(content, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			users = append(users, m[1])
		}
	}
	am, ok := payload["allowed_mentions"].(map[string]any)
	if !ok {
		return users
	}
	parse, _ := am["parse"].([]any)
	for _, p := range parse {
		if p == "users" {
			return users
		}
	}
	allowed := map[string]bool{}
	list, _ := am["users"].([]any)
	for _, u := range list {
		if s, ok := u.(string); ok {
			allowed[s] = true
		}
	}
	var out []string
	for _, u := range users {
		if allowed[u] {
			out = append(out, u)
		}
	}
	return out
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Messages are copies of the messages in channel ("" for all), deleted
// ones included, in the order they were created.
func (f *Fake) Messages(channel string) []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Message
	for _, id := range f.order {
		if m := f.messages[id]; channel == "" || m.Channel == channel {
			out = append(out, *m)
		}
	}
	return out
}

// Message is a copy of message id.
func (f *Fake) Message(id string) (Message, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.messages[id]
	if m == nil {
		return Message{}, false
	}
	return *m, true
}

// awaitBody holds a call on an HTTP interaction's webhook until Discord
// has read the POST's answer: Discord takes that answer before a REST
// call the bot makes after writing it.
func (f *Fake) awaitBody(path string) {
	p := strings.Split(strings.TrimPrefix(path, "/api/v9/"), "/")
	if len(p) < 3 || p[0] != "webhooks" {
		return
	}
	f.mu.Lock()
	var ch chan struct{}
	if ix := f.ixs[p[2]]; ix != nil {
		ch = ix.pending
	}
	f.mu.Unlock()
	if ch != nil {
		select {
		case <-ch:
		case <-time.After(hangGuard):
		}
	}
}

// hangGuard bounds the fake's waits on the bot: far beyond what a starved
// CPU takes, so only a hang reaches it.
const hangGuard = 2 * time.Minute

// interactClient delivers interactions; many may be in flight at once.
var interactClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// ErrInteractionFailed is Interact's error when Discord would show "This
// interaction failed": no answer within the window, or one it refuses.
var ErrInteractionFailed = errors.New("this interaction failed")

// Interact delivers interaction ev to an Interactions Endpoint at url as
// Discord does: signed with key, POSTed, the answer awaited for
// ResponseWindow. An answer in the body (JSON, or multipart with files up
// to MaxResponseBody) is the interaction's first response and is returned
// as a recorded callback Call (ViaBody); a 202 (or 204) with an empty body
// means the bot answered through the callback endpoint, whose Call is
// returned (nil if it never came).
func (f *Fake) Interact(url string, key ed25519.PrivateKey, ev map[string]any) (*Call, error) {
	tok, _ := ev["token"].(string)
	id, _ := ev["id"].(string)
	ix := f.register(ev)
	pending := make(chan struct{})
	f.mu.Lock()
	ix.pending = pending
	f.mu.Unlock()
	defer close(pending)

	body, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	stamp := strconv.FormatInt(f.Now().Unix(), 10)
	ctx, cancel := context.WithTimeout(context.Background(), f.ResponseWindow)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(stamp), body...))))
	req.Header.Set("X-Signature-Timestamp", stamp)
	resp, err := interactClient.Do(req)
	arrived := f.Now()
	var out []byte
	if err == nil {
		out, err = io.ReadAll(io.LimitReader(resp.Body, MaxResponseBody+1))
		resp.Body.Close()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.changed.Broadcast()
	failed := func(why string) (*Call, error) {
		if ix.acked == 0 {
			ix.failed = true
		}
		return nil, fmt.Errorf("%w: %s", ErrInteractionFailed, why)
	}
	if err != nil {
		return failed(err.Error())
	}
	if resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent {
		if len(bytes.TrimSpace(out)) != 0 {
			return failed("a body with status " + resp.Status)
		}
		for _, c := range f.calls {
			if c.Method == "POST" && c.Status < 300 && c.Path == "/api/v9/interactions/"+id+"/"+tok+"/callback" {
				return c, nil
			}
		}
		return nil, nil
	}
	if resp.StatusCode != 200 {
		return failed(fmt.Sprintf("status %d: %s", resp.StatusCode, out))
	}
	c := &Call{Method: "POST", Path: "/api/v9/interactions/" + id + "/" + tok + "/callback", ViaBody: true}
	f.calls = append(f.calls, c)
	if len(out) > MaxResponseBody {
		c.Status = 413
		return failed(fmt.Sprintf("answer of more than %d bytes in the body", MaxResponseBody))
	}
	if err := parseBody(resp.Header.Get("Content-Type"), out, c); err != nil {
		c.Status = 400
		return failed(err.Error())
	}
	if status, body := f.checkAltText(c); status != 0 {
		c.Status = status
		return failed(fmt.Sprint(body["errors"]))
	}
	if f.DiscardFiles {
		for k := range c.Files {
			c.Files[k].Data = nil
		}
	}
	if status, _ := f.respondLocked(c, ix, tok, arrived); status != 0 {
		c.Status = status
		return c, fmt.Errorf("%w: answer refused with %d", ErrInteractionFailed, status)
	}
	c.Status = 200
	return c, nil
}
