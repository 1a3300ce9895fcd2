package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot"
)

// scriptCore answers commands with a function the test sets, optionally
// holding the answer until released (to exercise deferral).
type scriptCore struct {
	mu      sync.Mutex
	handle  func(bot.Command) []bot.Reply
	suggest func(bot.Command, string) []bot.Choice
	got     []bot.Command
	hold    chan struct{} // when set, Handle waits for it
	started chan struct{}
}

func (s *scriptCore) Handle(_ context.Context, c bot.Command) []bot.Reply {
	s.mu.Lock()
	s.got = append(s.got, c)
	h, hold, started := s.handle, s.hold, s.started
	s.mu.Unlock()
	if started != nil {
		started <- struct{}{}
	}
	if hold != nil {
		<-hold
	}
	return h(c)
}

func (s *scriptCore) Suggest(_ context.Context, c bot.Command, focused string) []bot.Choice {
	s.mu.Lock()
	s.got = append(s.got, c)
	s.mu.Unlock()
	return s.suggest(c, focused)
}

func (s *scriptCore) Commands() []bot.CommandSpec {
	return []bot.CommandSpec{{
		Name: "move", Description: "Play a move",
		DescriptionLocalizations: map[string]string{"th": "เดินหมาก", "pt-BR": "Jogar um lance"},
		Options: []bot.OptionSpec{
			{Name: "move", Description: "the move", Type: bot.String, Required: true, Autocomplete: true,
				DescriptionLocalizations: map[string]string{"th": "การเดิน", "pt-BR": "o lance"}},
			{Name: "color", Description: "colour", Type: bot.String, Choices: []bot.Choice{{Name: "White", Value: "white"}}},
		},
	}}
}

func (s *scriptCore) last() bot.Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[len(s.got)-1]
}

func testPNG(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(1, 1, color.RGBA{200, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// boardRecorder records game's board message in its memStore, as the
// core's recorder (bot.Reply.Sent) records it in the database.
type boardRecorder struct {
	m    *memStore
	game int64
}

func (boardRecorder) Pending(context.Context, bot.Reply, bot.Hook) {}

func (b boardRecorder) Sent(_ context.Context, _ bot.Reply, ch, msg string, _ bot.Hook) {
	b.m.mu.Lock()
	defer b.m.mu.Unlock()
	b.m.boards[b.game] = ch + "/" + msg
}

// boardReply is game's board, recorded in st when sent (nil: nowhere).
func boardReply(t testing.TB, st *memStore, game int64) bot.Reply {
	if st == nil {
		st = newMemStore()
	}
	return bot.Reply{
		Content: "your move", Sent: boardRecorder{st, game},
		Embed:      &bot.Embed{Title: "Game", Image: "board.png"},
		Files:      []bot.File{{Name: "board.png", ContentType: "image/png", Data: testPNG(t), Description: "Tank Chess, game #" + strconv.FormatInt(game, 10) + ", move 1. White to move."}},
		Components: [][]bot.Component{{{Kind: bot.Button, CustomID: "g:1:3:resign", Label: "Resign", Style: bot.Danger}}},
	}
}

func find(calls []*call, method, pathPart string) []*call {
	var out []*call
	for _, c := range calls {
		if (method == "" || c.Method == method) && strings.Contains(c.Path, pathPart) && c.Status < 300 {
			out = append(out, c)
		}
	}
	return out
}

func one(t *testing.T, calls []*call, method, pathPart string) *call {
	t.Helper()
	got := find(calls, method, pathPart)
	if len(got) != 1 {
		var all []string
		for _, c := range calls {
			all = append(all, c.Method+" "+c.Path)
		}
		t.Fatalf("want one %s %s, got %d among %v", method, pathPart, len(got), all)
	}
	return got[0]
}

func checkPNG(t *testing.T, c *call) {
	t.Helper()
	if len(c.Files) == 0 {
		t.Fatalf("%s %s: no file attached", c.Method, c.Path)
	}
	for _, f := range c.Files {
		if strings.HasSuffix(f.Name, ".txt") || strings.HasSuffix(f.Name, ".gif") {
			continue // a final board's record and replay (theBoard checks them)
		}
		if _, err := png.Decode(bytes.NewReader(f.Data)); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}

func data(c *call) map[string]any {
	if d, ok := c.Payload["data"].(map[string]any); ok {
		return d
	}
	return c.Payload
}

// flags are a message's flags; 64 (ephemeral) as the fake Discord judged
// it when the call made or changed a message.
func flags(c *call) int {
	f, _ := data(c)["flags"].(float64)
	if c.Ephemeral {
		return int(f) | 64
	}
	return int(f)
}

func TestRegistrationOnlyWhenChanged(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	st := newMemStore()
	core := &scriptCore{}
	h := startHarness(t, f, core, st, nil, time.Second)
	put := one(t, f.callsFrom(0), "PUT", "/applications/"+testApp+"/guilds/"+testGuild+"/commands")
	var cmds []map[string]any
	if err := json.Unmarshal(put.RawJSON, &cmds); err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 1 || cmds[0]["name"] != "move" {
		t.Fatalf("registered %s", put.RawJSON)
	}
	loc := cmds[0]["description_localizations"].(map[string]any)
	if loc["th"] != "เดินหมาก" || loc["pt-BR"] != "Jogar um lance" {
		t.Errorf("localisations: %v", loc)
	}
	opts := cmds[0]["options"].([]any)
	if o := opts[0].(map[string]any); o["autocomplete"] != true || o["required"] != true || o["type"].(float64) != 3 {
		t.Errorf("move option: %v", o)
	}
	if o := opts[1].(map[string]any); len(o["choices"].([]any)) != 1 {
		t.Errorf("choices: %v", o)
	}
	_ = h.close()

	from := f.count()
	startHarness(t, f, core, st, nil, time.Second)
	if got := find(f.callsFrom(from), "PUT", "/commands"); len(got) != 0 {
		t.Errorf("registered again with unchanged definitions")
	}
}

// A dropped gateway connection is reopened by the adapter (discordgo's own
// reconnect is off: see Start), and Close stops it for good.
func TestGatewayReconnectsAfterDrop(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	h := startHarness(t, f, &scriptCore{}, newMemStore(), nil, time.Second)
	if n := f.Sessions(); n != 1 {
		t.Fatalf("%d gateway sessions at start", n)
	}
	f.DropGateway()
	deadline := time.Now().Add(eventWait)
	for f.Sessions() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the adapter did not reconnect after the gateway dropped")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	n := f.Sessions()
	time.Sleep(1500 * time.Millisecond) // longer than the first reconnect wait
	if f.Sessions() != n {
		t.Errorf("a gateway session was opened after Close")
	}
}

func TestDirectReplyWithBoard(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	st := newMemStore()
	core := &scriptCore{handle: func(c bot.Command) []bot.Reply {
		r := boardReply(t, st, 7)
		r.Mentions = []string{bob.id}
		return []bot.Reply{r}
	}}
	h := startHarness(t, f, core, st, nil, 5*time.Second)
	calls := h.interact(h.slash(alice, "300", "move", "move", "e2 > e4", "flip", true))
	cb := one(t, calls, "POST", "/callback")
	if cb.Payload["type"].(float64) != 4 {
		t.Errorf("response type %v", cb.Payload["type"])
	}
	checkPNG(t, cb)
	d := data(cb)
	emb := d["embeds"].([]any)[0].(map[string]any)
	if emb["image"].(map[string]any)["url"] != "attachment://board.png" {
		t.Errorf("embed image %v", emb["image"])
	}
	am := d["allowed_mentions"].(map[string]any)
	if len(am["parse"].([]any)) != 0 || am["users"].([]any)[0] != bob.id {
		t.Errorf("allowed mentions %v", am)
	}
	one(t, calls, "GET", "/messages/@original")
	if got, want := st.board(7), "300/"+f.originalOf(cb); got != want {
		t.Errorf("board message recorded as %q, want %q", got, want)
	}
	c := core.last()
	if c.Kind != bot.KindSlash || c.Name != "move" || c.Options["move"] != "e2 > e4" || c.Options["flip"] != "true" ||
		c.User.ID != alice.id || c.GuildID != testGuild || c.ChannelID != "300" || c.Locale != "en-US" {
		t.Errorf("command %+v", c)
	}
}

func TestComponentUpdateReplacesAttachment(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	st := newMemStore()
	core := &scriptCore{handle: func(c bot.Command) []bot.Reply {
		r := boardReply(t, st, 9)
		r.Update = true
		return []bot.Reply{r}
	}}
	h := startHarness(t, f, core, st, nil, 5*time.Second)
	calls := h.interact(h.click(alice, "300", "888", "g:9:3:pick", "e2"))
	cb := one(t, calls, "POST", "/callback")
	if cb.Payload["type"].(float64) != 7 {
		t.Errorf("response type %v, want 7 (update)", cb.Payload["type"])
	}
	onlyNewAttachments(t, data(cb)["attachments"], len(cb.Files))
	checkPNG(t, cb)
	if st.board(9) != "300/888" {
		t.Errorf("board %q", st.board(9))
	}
	c := core.last()
	if c.Kind != bot.KindComponent || c.CustomID != "g:9:3:pick" || c.MessageID != "888" || len(c.Values) != 1 || c.Values[0] != "e2" {
		t.Errorf("command %+v", c)
	}
}

func TestSlowHandlersAreDeferred(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	st := newMemStore()
	var reply bot.Reply
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{reply} }}
	h := startHarness(t, f, core, st, nil, 20*time.Millisecond)
	slow := func(ev map[string]any) []*call {
		core.mu.Lock()
		core.hold, core.started = make(chan struct{}), make(chan struct{}, 1)
		hold := core.hold
		core.mu.Unlock()
		calls := h.interactHeld(ev, hold)
		core.mu.Lock()
		core.hold, core.started = nil, nil
		core.mu.Unlock()
		return calls
	}

	// A public answer: the deferral is private ("thinking…" only for the
	// user), a private note fills it, and the answer is a follow-up: a
	// new public message.
	reply = boardReply(t, st, 3)
	calls := slow(h.slash(alice, "300", "move", "move", "x"))
	if cb := one(t, calls, "POST", "/callback"); cb.Payload["type"].(float64) != 5 || flags(cb) != 64 {
		t.Errorf("defer %v, want type 5 with the ephemeral flag", cb.Payload)
	}
	if note := one(t, calls, "PATCH", "/messages/@original"); len(note.Files) != 0 || !note.Ephemeral {
		t.Errorf("the placeholder was filled with the answer (%d files, ephemeral %v)", len(note.Files), note.Ephemeral)
	}
	fu := one(t, calls, "POST", "/webhooks/"+testApp+"/")
	checkPNG(t, fu)
	if !fu.Created || fu.Ephemeral {
		t.Errorf("the answer is not a new public message: created %v ephemeral %v", fu.Created, fu.Ephemeral)
	}
	if st.board(3) == "" || !strings.HasSuffix(st.board(3), "/"+fu.MsgID) {
		t.Errorf("board of a deferred answer recorded as %q, want the follow-up %s", st.board(3), fu.MsgID)
	}

	// An ephemeral answer fills the private placeholder.
	reply = bot.Reply{Ephemeral: true, Content: "not your turn"}
	calls = slow(h.slash(alice, "300", "move", "move", "x"))
	if fill := one(t, calls, "PATCH", "/messages/@original"); !fill.Ephemeral || fill.Payload["content"] != "not your turn" {
		t.Errorf("private answer: %+v", fill)
	}
	if n := len(find(calls, "POST", "/webhooks/")) + len(find(calls, "DELETE", "")); n != 0 {
		t.Errorf("%d follow-ups or deletions for a private answer", n)
	}

	// A slow component is deferred as an update and edits its message.
	reply = boardReply(t, st, 4)
	reply.Update = true
	calls = slow(h.click(alice, "300", "999", "g:4:1:x"))
	if cb := one(t, calls, "POST", "/callback"); cb.Payload["type"].(float64) != 6 {
		t.Errorf("component defer type %v", cb.Payload["type"])
	}
	edit := one(t, calls, "PATCH", "/messages/@original")
	checkPNG(t, edit)
	onlyNewAttachments(t, edit.Payload["attachments"], len(edit.Files))
}

// onlyNewAttachments checks an update's attachments array: it names the
// files sent now (ids 0…n-1, each with its alt text) and no earlier
// attachment, so the old image goes.
func onlyNewAttachments(t *testing.T, v any, files int) {
	t.Helper()
	att, ok := v.([]any)
	if !ok || len(att) != files {
		t.Fatalf("attachments %v, want the %d files sent now only, so the old image goes", v, files)
	}
	for k, a := range att {
		am, _ := a.(map[string]any)
		if id, _ := am["id"].(float64); int(id) != k {
			t.Errorf("attachment %d has id %v, want %d (its files[n])", k, am["id"], k)
		}
		if d, _ := am["description"].(string); d == "" {
			t.Errorf("attachment %d without description", k)
		}
	}
}

func TestChannelRepliesPingOnlyMentions(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply {
		return []bot.Reply{
			{Ephemeral: true, Content: "done"},
			{ChannelID: "301", Content: "<@202> your move @everyone", Mentions: []string{bob.id}},
		}
	}}
	h := startHarness(t, f, core, newMemStore(), nil, 5*time.Second)
	calls := h.interact(h.slash(alice, "300", "move", "move", "x"))
	if cb := one(t, calls, "POST", "/callback"); flags(cb) != 64 {
		t.Errorf("ephemeral flag missing: %v", cb.Payload)
	}
	post := one(t, calls, "POST", "/channels/301/messages")
	am := post.Payload["allowed_mentions"].(map[string]any)
	if len(am["parse"].([]any)) != 0 || len(am["users"].([]any)) != 1 || am["users"].([]any)[0] != bob.id {
		t.Errorf("allowed mentions %v", am)
	}
}

func TestOnlyChannelRepliesStillAcknowledge(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply {
		return []bot.Reply{{ChannelID: "301", Content: "board in the thread"}}
	}}
	h := startHarness(t, f, core, newMemStore(), nil, 5*time.Second)
	calls := h.interact(h.slash(alice, "300", "challenge"))
	cb := one(t, calls, "POST", "/callback")
	if cb.Payload["type"].(float64) != 5 || flags(cb) != 64 {
		t.Errorf("ack %v", cb.Payload)
	}
	one(t, calls, "POST", "/channels/301/messages")
	if e := one(t, calls, "PATCH", "/messages/@original"); !strings.Contains(e.Payload["content"].(string), "<#301>") {
		t.Errorf("pointer %v", e.Payload)
	}
	calls = h.interact(h.click(alice, "300", "5", "c:1:accept"))
	if cb := one(t, calls, "POST", "/callback"); cb.Payload["type"].(float64) != 6 {
		t.Errorf("component ack %v", cb.Payload)
	}
}

func TestAutocompleteModalAndModalSubmit(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{
		suggest: func(_ bot.Command, focused string) []bot.Choice {
			var cs []bot.Choice
			for k := 0; k < 40; k++ {
				cs = append(cs, bot.Choice{Name: strings.Repeat("n", 150), Value: focused + string(rune('a'+k%26))})
			}
			return cs
		},
		handle: func(c bot.Command) []bot.Reply {
			if c.Kind == bot.KindModal {
				return []bot.Reply{{Content: "played " + strings.Join(c.Values, ",")}}
			}
			return []bot.Reply{{Modal: &bot.Modal{CustomID: "g:1:2:typed", Title: "Move", Inputs: []bot.Input{{CustomID: "move", Label: "Move", Required: true}}}}}
		},
	}
	h := startHarness(t, f, core, newMemStore(), nil, 5*time.Second)
	calls := h.interact(h.autocomplete(alice, "300", "move", "move", "move", "e2", "game", "1"))
	cb := one(t, calls, "POST", "/callback")
	choices := data(cb)["choices"].([]any)
	if cb.Payload["type"].(float64) != 8 || len(choices) != 25 {
		t.Fatalf("autocomplete: type %v, %d choices", cb.Payload["type"], len(choices))
	}
	if n := choices[0].(map[string]any)["name"].(string); utf8.RuneCountInString(n) != 100 || !strings.HasSuffix(n, "…") {
		t.Errorf("choice name not clipped: %d runes", utf8.RuneCountInString(n))
	}
	if c := core.last(); c.Options["move"] != "e2" || c.Options["game"] != "1" {
		t.Errorf("autocomplete command %+v", c)
	}

	calls = h.interact(h.click(alice, "300", "5", "g:1:2:type"))
	cb = one(t, calls, "POST", "/callback")
	if cb.Payload["type"].(float64) != 9 || data(cb)["custom_id"] != "g:1:2:typed" {
		t.Errorf("modal %v", cb.Payload)
	}
	calls = h.interact(h.modalSubmit(alice, "300", "g:1:2:typed", "h3 > h5n"))
	if c := core.last(); c.Kind != bot.KindModal || c.CustomID != "g:1:2:typed" || len(c.Values) != 1 || c.Values[0] != "h3 > h5n" {
		t.Errorf("modal command %+v", c)
	}
	if cb := one(t, calls, "POST", "/callback"); data(cb)["content"] != "played h3 > h5n" {
		t.Errorf("modal answer %v", cb.Payload)
	}
}

func TestServerErrorIsRetriedOnce(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	st := newMemStore()
	core := &scriptCore{}
	h := startHarness(t, f, core, st, nil, time.Second)
	f.failNext("POST", "/channels/301/messages", 500, 0, 1)
	from := f.count()
	r := boardReply(t, st, 11)
	id, err := h.a.Post(context.Background(), "301", r)
	if err != nil {
		t.Fatal(err)
	}
	calls := f.callsFrom(from)
	if len(calls) != 2 || calls[0].Status != 500 {
		t.Fatalf("want a failed and a retried post, got %d calls", len(calls))
	}
	ok := one(t, calls, "POST", "/channels/301/messages")
	checkPNG(t, ok)
	if st.board(11) != "301/"+id {
		t.Errorf("board %q, message %s", st.board(11), id)
	}

	// A post that keeps failing gives up with an error after 3 tries.
	f.failNext("POST", "/channels/302/messages", 503, 0, 5)
	from = f.count()
	if _, err := h.a.Post(context.Background(), "302", r); err == nil {
		t.Error("post succeeded against a failing Discord")
	}
	if n := len(f.callsFrom(from)); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

func TestThreadsWithoutPermission(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	h := startHarness(t, f, &scriptCore{}, newMemStore(), nil, time.Second)
	id, err := h.a.CreateThread(context.Background(), "300", "42", "alice vs bob")
	if err != nil || id == "" {
		t.Fatalf("thread: %q %v", id, err)
	}
	f.failNext("POST", "/threads", 403, 50013, 1)
	if _, err := h.a.CreateThread(context.Background(), "300", "", "x"); !errors.Is(err, bot.ErrNoThreads) {
		t.Errorf("got %v, want ErrNoThreads", err)
	}
}

func TestCloseWaitsForInFlight(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	hold := make(chan struct{})
	core := &scriptCore{hold: hold, started: make(chan struct{}, 1), handle: func(bot.Command) []bot.Reply {
		return []bot.Reply{{Content: "finished"}}
	}}
	h := startHarness(t, f, core, newMemStore(), nil, 5*time.Second)
	ev := h.slash(alice, "300", "help")
	f.dispatch("INTERACTION_CREATE", ev)
	<-core.started
	closed := make(chan error, 1)
	go func() { closed <- h.close() }()
	select {
	case <-closed:
		t.Fatal("Close returned with an interaction in flight")
	case <-time.After(50 * time.Millisecond):
	}
	close(hold)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if cb := one(t, f.callsFrom(0), "POST", "/callback"); data(cb)["content"] != "finished" {
		t.Errorf("in-flight answer %v", cb.Payload)
	}
}

func TestRedactingHandler(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	l := slog.New(NewRedactingHandler(slog.NewTextHandler(&b, nil), "s3cret"))
	l.With("k", "s3cret").Error("boom s3cret", "err", errors.New(`Post "https://discord.com/api/v9/interactions/123/abcDEF/callback": EOF`),
		"url", "/api/v9/webhooks/555/tok-xyz/messages/@original", slog.Group("g", "v", "s3cret"))
	out := b.String()
	for _, bad := range []string{"s3cret", "abcDEF", "tok-xyz"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q leaked: %s", bad, out)
		}
	}
	if !strings.Contains(out, "/interactions/123/[redacted]/callback") {
		t.Errorf("redaction lost the shape of the URL: %s", out)
	}
}

func TestLogsHoldNoTokens(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	logs := &syncBuffer{}
	core := &scriptCore{handle: func(c bot.Command) []bot.Reply {
		return []bot.Reply{boardReply(t, nil, 5), {ChannelID: "301", Content: "ping", Mentions: []string{bob.id}}}
	}}
	h := startHarness(t, f, core, newMemStore(), logs, 5*time.Second)
	h.interact(h.slash(alice, "300", "move", "move", "x"))
	// A dropped connection and a server error on the interaction's own
	// URLs make the adapter log errors that quote those URLs.
	f.failNext("POST", "/callback", -1, 0, 1)
	h.interact(h.slash(alice, "300", "move", "move", "y"))
	f.failNext("POST", "/callback", 500, 0, respondAttempts)
	h.interact(h.slash(alice, "300", "move", "move", "z"))
	_ = h.close()
	out := logs.String()
	if !strings.Contains(out, "reply failed") {
		t.Fatalf("the failures were not logged; log:\n%s", out)
	}
	if !strings.Contains(out, "[redacted]") {
		t.Errorf("no URL was redacted, the test does not exercise redaction; log:\n%s", out)
	}
	for _, secret := range append([]string{testToken}, h.tokens...) {
		if strings.Contains(out, secret) {
			t.Errorf("log holds %q:\n%s", secret, out)
		}
	}
}

func TestInteractionInThreadKnowsItsParent(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{{Content: "ok"}} }}
	h := startHarness(t, f, core, newMemStore(), nil, 5*time.Second)
	// The GUILDS intent's GUILD_CREATE fills the state with channels and
	// active threads.
	f.dispatch("GUILD_CREATE", map[string]any{
		"id": testGuild, "name": "g",
		"channels": []any{map[string]any{"id": "300", "type": 0, "guild_id": testGuild}},
		"threads":  []any{map[string]any{"id": "310", "type": 11, "guild_id": testGuild, "parent_id": "300"}},
	})
	deadline := time.Now().Add(eventWait)
	for {
		if ch, err := h.a.s.State.Channel("310"); err == nil && ch.ParentID == "300" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("GUILD_CREATE never reached the state")
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.interact(h.slash(carol, "310", "board"))
	if c := core.last(); c.ChannelID != "310" || c.ThreadID != "310" || c.ParentID != "300" || c.User.Name != "carol" {
		t.Errorf("command in a thread: %+v", c)
	}
	h.interact(h.slash(carol, "300", "board"))
	if c := core.last(); c.ThreadID != "" || c.ParentID != "" {
		t.Errorf("command in a channel: %+v", c)
	}
}

func TestResponseRetriedWithItsImage(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{boardReply(t, nil, 2)} }}
	h := startHarness(t, f, core, newMemStore(), nil, 5*time.Second)
	f.failNext("POST", "/callback", 500, 0, 1)
	calls := h.interact(h.slash(alice, "300", "board"))
	var tries []*call
	for _, c := range calls {
		if strings.HasSuffix(c.Path, "/callback") {
			tries = append(tries, c)
		}
	}
	if len(tries) != 2 || tries[0].Status != 500 {
		t.Fatalf("%d callback attempts", len(tries))
	}
	// The retry carries the whole image again (a spent reader would send 0 bytes).
	checkPNG(t, one(t, calls, "POST", "/callback"))
}
