package discord

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// checkMap is a valid 8×8 custom map (§8: point symmetric, one CLT and one
// LT a side) on which White has moves that announce CHECK
// (see game.checkMove).
const checkMap = ".......cs/.......ls/......../......../......../......../Ln......./Cn....... w 1"

const gameChannel = "400"

// e2e is the real bot and its SQLite file behind the adapter and the fake
// Discord. The adapter keeps its command hash and board message ids in the
// same store, as run does.
type e2e struct {
	*harness
	b  *bot.Bot
	st bot.Storage
	db *store.Store // the store under st, for the tests' own reads and writes
	// ch is the channel the shared helpers play in (default gameChannel).
	ch string
}

// where is the channel the shared helpers play in.
func (e *e2e) where() string {
	if e.ch != "" {
		return e.ch
	}
	return gameChannel
}

type world struct {
	f    *fakeDiscord
	db   string
	clk  *clock.Fake
	logs *syncBuffer
	// window is the adapter's direct-answer window (default 10 s: fake
	// and adapter give the first answer a minute here, so that a loaded
	// machine does not turn a direct answer into a deferred one; the slow
	// modes defer on purpose).
	window time.Duration
	// mode is the transport (gateway or HTTP) and whether handlers are
	// held past the window.
	mode mode
	// botClk, when set, is the bot's clock instead of clk; reviewNodes,
	// when set, the budget of game reviews (bot.Config.ReviewNodes).
	botClk      bot.Clock
	reviewNodes int64
}

func startBot(t *testing.T, w *world) *e2e {
	t.Helper()
	db, err := store.Open(context.Background(), w.db)
	if err != nil {
		t.Fatal(err)
	}
	st := bot.NewStorage(db)
	f, clk, logs := w.f, w.clk, w.logs
	window := 10 * time.Second
	if w.window > 0 {
		window = w.window
	}
	h := newHarnessIn(t, f, FromStore(db), logs, window, w.mode)
	h.a.opts.Now = clk.Now // the adapter stamps boards on the bot's clock
	log := slog.New(NewRedactingHandler(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}), testToken))
	var bc bot.Clock = clk
	if w.botClk != nil {
		bc = w.botClk
	}
	b := bot.New(bot.Config{ThreadPerGame: false, ReviewNodes: w.reviewNodes}, st, bc, h.a, log)
	h.start(b)
	e := &e2e{harness: h, b: b, st: st, db: db}
	t.Cleanup(func() { e.stop() })
	return e
}

// stop closes the adapter then the store, as run does.
func (e *e2e) stop() {
	_ = e.close()
	_ = e.st.Close()
}

// newWorld is a fake Discord, an empty database and a clock for one
// scenario in mode m.
func newWorld(t *testing.T, m mode) *world {
	t.Helper()
	w := &world{f: newFakeDiscord(t), db: filepath.Join(t.TempDir(), "tankbot.db"),
		clk: clock.NewFake(time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)), logs: &syncBuffer{}, mode: m}
	// Discord takes the first answer within 3 s (the fake's own rule
	// tests check it, and the black-box test of the binary runs with it);
	// here fake and adapter allow a minute so that a loaded machine does
	// not change what is sent. Deferral is tested on purpose by the slow
	// modes.
	w.f.ResponseWindow = time.Minute
	t.Cleanup(func() { assertNoSecrets(t, w.logs) })
	return w
}

// fresh is a new world in the same mode.
func (w *world) fresh(t *testing.T) *world { return newWorld(t, w.mode) }

var seenTokens struct {
	mu sync.Mutex
	t  []string
}

func assertNoSecrets(t *testing.T, logs *syncBuffer) {
	out := logs.String()
	if out == "" {
		t.Error("nothing was logged")
	}
	seenTokens.mu.Lock()
	defer seenTokens.mu.Unlock()
	for _, s := range append([]string{testToken}, seenTokens.t...) {
		if strings.Contains(out, s) {
			t.Errorf("the log holds the secret %q", s)
		}
	}
}

func (e *e2e) do(ev map[string]any) []*call {
	seenTokens.mu.Lock()
	seenTokens.t = append(seenTokens.t, ev["token"].(string))
	seenTokens.mu.Unlock()
	return e.interact(ev)
}

// response is the interaction's answer: its callback or, when that was a
// deferral (type 5, or 6 for a component), the answer that completed it,
// shown as the callback a direct answer would have been (type 4 for a new
// message or a filled placeholder, 7 for the component's message edited).
func response(t *testing.T, calls []*call) *call {
	t.Helper()
	cb := one(t, calls, "POST", "/callback")
	typ, _ := cb.Payload["type"].(float64)
	if typ != 5 && typ != 6 {
		return cb
	}
	tok := strings.Split(cb.Path, "/")[5]
	var fill, follow *call
	for _, c := range calls {
		if c.Status >= 300 || !strings.Contains(c.Path, "/webhooks/"+testApp+"/"+tok) {
			continue
		}
		switch {
		case c.Method == "POST" && follow == nil:
			follow = c
		case c.Method == "PATCH" && strings.HasSuffix(c.Path, "/@original") && fill == nil:
			fill = c
		}
	}
	// After type 6 an edit of @original is the update of the component's
	// message; after type 5 it fills the private placeholder, and a public
	// answer is the follow-up after it.
	as, answer := 4.0, follow
	if typ == 6 && fill != nil || answer == nil {
		answer = fill
		if typ == 6 {
			as = 7
		}
	}
	if answer == nil {
		return cb
	}
	v := *answer
	v.Payload = map[string]any{"type": as, "data": answer.Payload}
	if v.MsgID == "" {
		v.MsgID = answer.Edited
	}
	return &v
}

// customIDs lists the component ids of a message payload.
func customIDs(c *call) []string { return customIDsOf(data(c)) }

func idWith(t *testing.T, c *call, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	for _, id := range customIDs(c) {
		if rx.MatchString(id) {
			return id
		}
	}
	t.Fatalf("no component matching %s in %v", re, customIDs(c))
	return ""
}

func text(c *call) string {
	d := data(c)
	s, _ := d["content"].(string)
	if es, ok := d["embeds"].([]any); ok {
		for _, e := range es {
			em := e.(map[string]any)
			for _, k := range []string{"title", "description"} {
				if v, ok := em[k].(string); ok {
					s += "\n" + v
				}
			}
		}
	}
	return s
}

func refused(t *testing.T, calls []*call, what string) {
	t.Helper()
	cb := response(t, calls)
	if typ, _ := cb.Payload["type"].(float64); typ != 4 || flags(cb) != 64 {
		t.Errorf("%s: not an ephemeral answer: %v", what, cb.Payload)
	}
	if posts := find(calls, "POST", "/channels/"); len(posts) != 0 {
		t.Errorf("%s: a refusal posted to a channel", what)
	}
	if len(cb.Files) != 0 {
		t.Errorf("%s: a refusal carried a board", what)
	}
}

// ping checks that the action made one new public message, the board,
// and that it pings user (content mention allowed by allowed_mentions).
func ping(t *testing.T, calls []*call, user string) {
	t.Helper()
	b := theBoard(t, calls, "ping")
	for _, id := range mentioned(t, b) {
		if id == user {
			return
		}
	}
	t.Errorf("the board does not ping %s: %v", user, b.Payload)
}

// game plays positions alongside the bot to pick legal moves.
type game struct {
	t   *testing.T
	pos engine.Position
}

func newGame(t *testing.T, start string) *game {
	r, err := games.Lookup("tank")
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Decode(start)
	if err != nil {
		t.Fatal(err)
	}
	return &game{t: t, pos: p}
}

func (g *game) play(move string) {
	g.t.Helper()
	m, err := g.pos.ParseMove(move)
	if err != nil {
		g.t.Fatalf("move %q: %v", move, err)
	}
	if g.pos, err = g.pos.Play(m); err != nil {
		g.t.Fatalf("move %q: %v", move, err)
	}
}

// checkMove is a legal move that announces CHECK without ending the game.
func (g *game) checkMove() string {
	for _, m := range g.pos.LegalMoves() {
		q, err := g.pos.Play(m)
		if err != nil || q.Status().Over() {
			continue
		}
		for _, a := range q.Announcements() {
			if a.Kind == engine.AnnounceCheck {
				return g.pos.FormatMove(m)
			}
		}
	}
	g.t.Fatal("no checking move")
	return ""
}

// anyMove is a legal move that does not end the game.
func (g *game) anyMove() string {
	for _, m := range g.pos.LegalMoves() {
		if q, err := g.pos.Play(m); err == nil && !q.Status().Over() {
			return g.pos.FormatMove(m)
		}
	}
	g.t.Fatal("no quiet legal move")
	return ""
}

// startGame challenges bob on the check map and has him accept; alice is
// White. It returns the board response and the game's button ids.
func (e *e2e) startGame(t *testing.T, clock string) (board *call, gameID string) {
	t.Helper()
	calls := e.do(e.slash(alice, gameChannel, "challenge", "opponent", userRef(bob), "map", checkMap, "clock", clock, "color", "white", "thread", false))
	ch := response(t, calls)
	if flags(ch) == 64 {
		t.Fatalf("challenge refused: %s", text(ch))
	}
	accept := idWith(t, ch, `^c:\d+:accept$`)
	msg := e.f.originalOf(ch)
	calls = e.do(e.click(bob, gameChannel, msg, accept))
	board = theBoard(t, calls, "accept")
	checkPNG(t, board)
	ping(t, calls, alice.id)
	resign := idWith(t, board, `^g:\d+:0:resign$`)
	return board, strings.Split(resign, ":")[1]
}

func e2eGame(t *testing.T, w *world) {
	f := w.f
	e := startBot(t, w)
	g := newGame(t, checkMap)
	board, id := e.startGame(t, "30m")
	if !strings.Contains(board.Path, "/webhooks/") {
		t.Errorf("the first board should be a new message after the challenge's edit, got %s %s", board.Method, board.Path)
	}

	// Alice picks her move from autocomplete and plays it with /move.
	calls := e.do(e.autocomplete(alice, gameChannel, "move", "move", "move", ""))
	choices := data(response(t, calls))["choices"].([]any)
	if len(choices) == 0 || len(choices) > 25 {
		t.Fatalf("%d autocomplete choices", len(choices))
	}
	// She types most of a checking move and takes the matching choice.
	want := g.checkMove()
	calls = e.do(e.autocomplete(alice, gameChannel, "move", "move", "move", want[:len(want)-1]))
	first := ""
	for _, c := range data(response(t, calls))["choices"].([]any) {
		if v := c.(map[string]any)["value"].(string); v == want {
			first = v
		}
	}
	if first == "" {
		t.Fatalf("autocomplete for %q does not offer %q", want[:len(want)-1], want)
	}
	calls = e.do(e.slash(alice, gameChannel, "move", "move", first))
	r := response(t, calls)
	checkPNG(t, r)
	if !strings.Contains(text(r), "CHECK") {
		t.Errorf("no CHECK announced: %s", text(r))
	}
	ping(t, calls, bob.id)
	g.play(first)

	// Bob types his move in the modal opened by the board's button.
	typeID := idWith(t, r, `^g:`+id+`:1:type$`)
	calls = e.do(e.click(bob, gameChannel, f.originalOf(r), typeID))
	modal := response(t, calls)
	if modal.Payload["type"].(float64) != 9 {
		t.Fatalf("type button did not open a modal: %v", modal.Payload)
	}
	mv := g.anyMove()
	calls = e.do(e.modalSubmit(bob, gameChannel, data(modal)["custom_id"].(string), mv))
	r = response(t, calls)
	checkPNG(t, r)
	ping(t, calls, alice.id)
	g.play(mv)

	// Alice uses the move picker (a select menu carries the move).
	mv = g.anyMove()
	calls = e.do(e.click(alice, gameChannel, f.originalOf(r), "g:"+id+":2:move", mv))
	r = response(t, calls)
	checkPNG(t, r)
	ping(t, calls, bob.id)
	g.play(mv)

	// Bob resigns with the board's button, and confirms.
	calls = e.do(e.click(bob, gameChannel, f.originalOf(r), idWith(t, r, `^g:`+id+`:3:resign$`)))
	ask := response(t, calls)
	calls = e.do(e.click(bob, gameChannel, f.originalOf(ask), idWith(t, ask, `^g:`+id+`:3:resignyes$`)))
	r = theBoard(t, calls, "resign")
	if !strings.Contains(text(r), "resignation") {
		t.Errorf("resignation not announced: %s", text(r))
	}
	for _, c := range find(calls, "", "") {
		if len(c.Files) > 0 {
			checkPNG(t, c)
		}
	}
}

func e2eRefusals(t *testing.T, w *world) {
	f := w.f
	e := startBot(t, w)
	g := newGame(t, checkMap)
	board, id := e.startGame(t, "30m")
	msg := f.originalOf(board)
	resign0 := "g:" + id + ":0:resign"

	refused(t, e.do(e.click(carol, gameChannel, msg, resign0)), "non-player clicks resign")
	refused(t, e.do(e.slash(bob, gameChannel, "move", "move", g.anyMove())), "move out of turn")
	refused(t, e.do(e.click(alice, gameChannel, msg, "g:"+id+":zz:resign")), "malformed custom id")
	refused(t, e.do(e.click(alice, gameChannel, msg, "nonsense")), "custom id without a kind")
	refused(t, e.do(e.slash(alice, gameChannel, "nosuchcommand")), "unknown command")

	// Nothing changed: Alice's move at ply 0 still plays.
	mv := g.anyMove()
	calls := e.do(e.slash(alice, gameChannel, "move", "move", mv))
	checkPNG(t, response(t, calls))
	g.play(mv)
	// Now the ply-0 button is stale.
	refused(t, e.do(e.click(alice, gameChannel, msg, resign0)), "stale button")
}

func e2eFlagFallBySchedulerAndRetriedPost(t *testing.T, w *world) {
	f := w.f
	e := startBot(t, w)
	_, id := e.startGame(t, "10m")
	w.clk.Advance(11 * time.Minute)
	// Discord fails the announcement once: it is retried, not lost or doubled.
	f.failNext("POST", "/channels/"+gameChannel+"/messages", 500, 0, 1)
	from := f.count()
	if err := e.b.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	calls := f.callsFrom(from)
	posts := find(calls, "POST", "/channels/"+gameChannel+"/messages")
	var flag int
	for _, p := range posts {
		if strings.Contains(text(p), "ran out of time") && strings.Contains(text(p), "#"+id) {
			flag++
		}
	}
	if flag != 1 {
		t.Errorf("%d flag-fall announcements, want 1 (calls: %d)", flag, len(calls))
	}
	// The first post in the game's channel is the one Discord failed.
	for _, c := range calls {
		if c.Method == "POST" && strings.Contains(c.Path, "/channels/"+gameChannel+"/messages") {
			if c.Status != 500 {
				t.Errorf("the injected failure did not hit the announcement")
			}
			break
		}
	}
	// The game is over: a move is refused.
	refused(t, e.do(e.slash(alice, gameChannel, "move", "move", "H1 > H1N", "game", id)), "move after flag-fall")
}

func e2eRestartMidGame(t *testing.T, w *world) {
	f := w.f
	e := startBot(t, w)
	checkRegistration(t, f)
	g := newGame(t, checkMap)
	_, id := e.startGame(t, "30m")
	mv := g.anyMove()
	r := response(t, e.do(e.slash(alice, gameChannel, "move", "move", mv)))
	g.play(mv)
	typeID := idWith(t, r, `^g:`+id+`:1:type$`)
	msg := f.originalOf(r)
	e.stop()

	from := f.count()
	e = startBot(t, w)
	if n := len(find(f.callsFrom(from), "PUT", "/commands")); n != 0 {
		t.Errorf("the restart registered the unchanged commands again (%d calls)", n)
	}
	// The button drawn before the restart still opens the modal, and the
	// move typed there plays.
	modal := response(t, e.do(e.click(bob, gameChannel, msg, typeID)))
	if modal.Payload["type"].(float64) != 9 {
		t.Fatalf("old button after restart: %v", modal.Payload)
	}
	mv = g.anyMove()
	calls := e.do(e.modalSubmit(bob, gameChannel, data(modal)["custom_id"].(string), mv))
	checkPNG(t, response(t, calls))
	ping(t, calls, alice.id)
	g.play(mv)
	// And so does /move.
	mv = g.anyMove()
	checkPNG(t, response(t, e.do(e.slash(alice, gameChannel, "move", "move", mv))))
}

// checkRegistration looks at the core's commands as registered at start-up.
func checkRegistration(t *testing.T, f *fakeDiscord) {
	t.Helper()
	put := one(t, f.callsFrom(0), "PUT", "/applications/"+testApp+"/guilds/"+testGuild+"/commands")
	var cmds []map[string]any
	if err := json.Unmarshal(put.RawJSON, &cmds); err != nil {
		t.Fatal(err)
	}
	byName := map[string]map[string]any{}
	for _, c := range cmds {
		byName[c["name"].(string)] = c
		loc, _ := c["description_localizations"].(map[string]any)
		if loc["th"] == nil || loc["pt-BR"] == nil {
			t.Errorf("/%s lacks th or pt-BR descriptions: %v", c["name"], loc)
		}
	}
	for _, n := range []string{"challenge", "move", "board", "resign"} {
		if byName[n] == nil {
			t.Errorf("/%s not registered", n)
		}
	}
	var auto, choices bool
	for _, o := range byName["challenge"]["options"].([]any) {
		om := o.(map[string]any)
		auto = auto || om["autocomplete"] == true
		cs, _ := om["choices"].([]any)
		choices = choices || len(cs) > 0
	}
	if !auto || !choices {
		t.Errorf("/challenge options lack autocomplete or choices")
	}
}

func e2eThreadPerGame(t *testing.T, w *world) {
	f := w.f
	e := startBot(t, w)
	challenge := func() (string, string) {
		cb := response(t, e.do(e.slash(alice, gameChannel, "challenge", "opponent", userRef(bob), "map", checkMap, "color", "white", "thread", true)))
		return idWith(t, cb, `^c:\d+:accept$`), f.originalOf(cb)
	}

	accept, msg := challenge()
	calls := e.do(e.click(bob, gameChannel, msg, accept))
	th := one(t, calls, "POST", "/channels/"+gameChannel+"/messages/"+msg+"/threads")
	thread := f.lastThreadID()
	if th.Payload["name"] == "" || thread == "" {
		t.Fatalf("thread %v", th.Payload)
	}
	// The board, which pings, goes to the thread; the challenge message
	// says so.
	posts := find(calls, "POST", "/channels/"+thread+"/messages")
	if len(posts) != 1 {
		t.Fatalf("%d posts in the thread", len(posts))
	}
	checkPNG(t, posts[0])
	if cb := response(t, calls); cb.Payload["type"].(float64) != 7 {
		t.Errorf("challenge message not updated: %v", cb.Payload)
	}

	// Without the permission, the game is played in the channel.
	accept, msg = challenge()
	f.failNext("POST", "/threads", 403, 50013, 1)
	calls = e.do(e.click(bob, gameChannel, msg, accept))
	var board bool
	for _, c := range calls {
		if strings.Contains(c.Path, "/channels/"+gameChannel+"/") || strings.HasSuffix(c.Path, "/callback") || strings.Contains(c.Path, "/webhooks/") {
			board = board || len(c.Files) > 0
		}
	}
	if !board {
		t.Error("no board in the channel after the thread was refused")
	}
}
