package discord

import (
	"bytes"
	"context"
	"fmt"
	"image/gif"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
)

// End-to-end tests of the message flow (docs/flow.md) against the fake
// Discord: who each new message pings (content mention and
// allowed_mentions), one new public message per move, old boards losing
// their buttons, endings pinging both players, pings in each reader's
// language.

// created is a new message, as the fake Discord judged it: a type 4 or 5
// callback, a follow-up that did not fill a placeholder, a channel post.
// Edits, type 7 updates and placeholder fills create nothing and notify
// nobody.
func created(c *call) bool { return c.Created }

// publicNew are the successful new public messages among calls.
func publicNew(calls []*call) []*call {
	var out []*call
	for _, c := range calls {
		if c.Status < 300 && created(c) && !c.Ephemeral {
			out = append(out, c)
		}
	}
	return out
}

// mentioned are the users a new message pings, as the fake Discord
// judged it; the payload must mention them in its content and allow them
// by allowed_mentions, which must not parse anything else.
func mentioned(t *testing.T, c *call) []string {
	t.Helper()
	d := data(c)
	am, _ := d["allowed_mentions"].(map[string]any)
	if am == nil {
		t.Fatalf("%s %s: no allowed_mentions", c.Method, c.Path)
	}
	if parse, _ := am["parse"].([]any); len(parse) != 0 {
		t.Errorf("%s: allowed_mentions parses %v", c.Path, parse)
	}
	allowed := map[string]bool{}
	users, _ := am["users"].([]any)
	for _, u := range users {
		allowed[u.(string)] = true
	}
	content, _ := d["content"].(string)
	var out []string
	for _, m := range regexp.MustCompile(`<@(\d+)>`).FindAllStringSubmatch(content, -1) {
		if !allowed[m[1]] {
			t.Errorf("%s: content mentions %s, whom allowed_mentions does not allow: %q", c.Path, m[1], content)
			continue
		}
		out = append(out, m[1])
	}
	if len(out) != len(allowed) {
		t.Errorf("%s: allowed_mentions %v but content pings %v: %q", c.Path, users, out, content)
	}
	if !c.Created && len(out) > 0 {
		t.Errorf("%s %s mentions %v in an edit, which notifies nobody", c.Method, c.Path, out)
	}
	return c.Notified
}

// pinged checks that a message pings exactly the users ids.
func pinged(t *testing.T, c *call, what string, ids ...string) {
	t.Helper()
	got := mentioned(t, c)
	if strings.Join(sortedCopy(got), ",") != strings.Join(sortedCopy(ids), ",") {
		t.Errorf("%s pings %v, want %v: %q", what, got, ids, data(c)["content"])
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// theBoard is the one new public message of an action, which carries the
// board image.
func theBoard(t *testing.T, calls []*call, what string) *call {
	t.Helper()
	news := publicNew(calls)
	if len(news) != 1 {
		var all []string
		for _, c := range calls {
			all = append(all, c.Method+" "+c.Path)
		}
		t.Fatalf("%s: %d new public messages, want exactly one (the board): %v", what, len(news), all)
	}
	fs := news[0].Files
	// A board, or a final board: the board, then the game's record and
	// animated replay (docs/flow.md).
	final := len(fs) == 3 && strings.HasSuffix(fs[1].Name, ".txt") && fs[2].ContentType == "image/gif"
	if len(fs) != 1 && !final || !strings.HasSuffix(fs[0].Name, ".png") {
		t.Fatalf("%s: the new message carries %d files, want the board (and, at the end, the record and replay)", what, len(fs))
	}
	if final {
		if _, err := gif.DecodeAll(bytes.NewReader(fs[2].Data)); err != nil {
			t.Fatalf("%s: replay: %v", what, err)
		}
		embeds, _ := data(news[0])["embeds"].([]any)
		if len(embeds) != 1 || !strings.Contains(fmt.Sprint(embeds[0]), "attachment://"+fs[0].Name) {
			t.Fatalf("%s: the final board's embed image is not the board %s: %v", what, fs[0].Name, embeds)
		}
	}
	return news[0]
}

// retired checks that the message id lost its components by an edit:
// among calls, or (the strip post the new board queued, off the answer
// path) in the scheduler pass run next.
func (e *e2e) retired(t *testing.T, calls []*call, id, what string) {
	t.Helper()
	stripped := func(calls []*call) bool {
		for _, c := range calls {
			if c.Method == "PATCH" && c.Status < 300 && c.Edited == id {
				comps, ok := c.Payload["components"].([]any)
				if ok && len(comps) == 0 {
					return true
				}
			}
		}
		return false
	}
	if stripped(calls) {
		return
	}
	from := e.f.count()
	if err := e.b.Tick(context.Background()); err != nil {
		t.Errorf("%s: scheduler pass: %v", what, err)
	}
	if !stripped(e.f.callsFrom(from)) {
		t.Errorf("%s: the previous board %s kept its buttons (no edit removing them)", what, id)
	}
}

// editedBare checks that the interaction's message was edited without
// buttons: an update callback (type 7), or after a deferral an edit of the
// original.
func editedBare(t *testing.T, calls []*call, what string) {
	t.Helper()
	for _, c := range calls {
		typ, _ := c.Payload["type"].(float64)
		upd := strings.HasSuffix(c.Path, "/callback") && typ == 7 || c.Method == "PATCH" && strings.HasSuffix(c.Path, "/@original")
		if upd && c.Status < 300 && len(customIDs(c)) == 0 {
			return
		}
	}
	t.Errorf("%s should be edited without buttons", what)
}

// flow plays a game through the adapter and checks every message.
type flow struct {
	*e2e
	t     *testing.T
	g     *game
	id    string // game id
	board *call  // the current board
}

// startFlow has alice challenge bob (alice White) to name with more
// options, checks the challenge pings bob alone, bob accepts, and checks
// the first board pings both players.
func (e *e2e) startFlow(t *testing.T, g *game, name string, more ...any) *flow {
	t.Helper()
	kv := append([]any{"opponent", userRef(bob), "game", name, "color", "white", "thread", false}, more...)
	calls := e.do(e.slash(alice, gameChannel, "challenge", kv...))
	news := publicNew(calls)
	if len(news) != 1 {
		t.Fatalf("challenge to %s: %d new public messages (refused? %s)", name, len(news), text(response(t, calls)))
	}
	ch := news[0]
	if !strings.Contains(strings.ToLower(text(ch)), name) {
		t.Errorf("the challenge does not name the game %s: %s", name, text(ch))
	}
	pinged(t, ch, "the challenge", bob.id)
	accept := idWith(t, ch, `^c:\d+:accept$`)
	calls = e.do(e.click(bob, gameChannel, e.f.originalOf(ch), accept))
	editedBare(t, calls, "the accepted challenge")
	board := theBoard(t, calls, "accept")
	pinged(t, board, "the first board", alice.id, bob.id)
	resign := idWith(t, board, `^g:\d+:0:resign$`)
	return &flow{e2e: e, t: t, g: g, id: strings.Split(resign, ":")[1], board: board}
}

// move plays mv with /move as the player to move and checks: one new
// public message, the board, pinging the next player (or nobody when the
// mover moves again) with what was played; the previous board retired.
// At the end of the game it must ping both.
func (fl *flow) move(mv string) *call {
	t := fl.t
	t.Helper()
	u := fl.g.toMove()
	calls := fl.do(fl.slash(u, gameChannel, "move", "move", mv))
	if r := response(t, calls); flags(r) == 64 {
		t.Fatalf("%s's move %q refused: %s", u.name, mv, text(r))
	}
	board := theBoard(t, calls, "move "+mv)
	fl.retired(t, calls, fl.f.originalOf(fl.board), "move "+mv)
	fl.g.play(mv)
	content, _ := data(board)["content"].(string)
	if !strings.Contains(content, u.name+" played "+mv) && !strings.Contains(content, u.name+" เดิน "+mv) && !strings.Contains(content, u.name+" jogou "+mv) {
		t.Errorf("the board's content does not say %s played %s: %q", u.name, mv, content)
	}
	switch next := fl.g.toMove(); {
	case fl.g.pos.Status().Over():
		pinged(t, board, "the final board", alice.id, bob.id)
		if ids := customIDs(board); len(ids) != 3 || !strings.HasSuffix(ids[0], ":rematch") || !strings.HasSuffix(ids[1], ":record") || !strings.HasSuffix(ids[2], ":review") {
			t.Errorf("the final board offers %v, want Rematch, the record and the review", ids)
		}
	case next == u:
		pinged(t, board, "a board after which the mover moves again")
	default:
		pinged(t, board, "a board", next.id)
		if !strings.Contains(content, "<t:") {
			t.Errorf("the ping has no deadline: %q", content)
		}
	}
	fl.board = board
	return board
}

// resign has u resign through the confirmation and checks the final board
// pings both and states the result.
func (fl *flow) resign(u who, result string) {
	t := fl.t
	t.Helper()
	calls := fl.do(fl.click(u, gameChannel, fl.f.originalOf(fl.board), idWith(t, fl.board, `^g:`+fl.id+`:\d+:resign$`)))
	ask := response(t, calls)
	if flags(ask) != 64 || len(publicNew(calls)) != 0 {
		t.Fatalf("Resign should ask privately first: %v", ask.Payload)
	}
	calls = fl.do(fl.click(u, gameChannel, fl.f.originalOf(ask), idWith(t, ask, `^g:`+fl.id+`:\d+:resignyes$`)))
	if cb := response(t, calls); cb.Payload["type"].(float64) != 7 || len(customIDs(cb)) != 0 {
		t.Errorf("the confirmation should be edited without buttons: %v", cb.Payload)
	}
	board := theBoard(t, calls, "resign")
	fl.retired(t, calls, fl.f.originalOf(fl.board), "resign")
	pinged(t, board, "the resignation", alice.id, bob.id)
	if !strings.Contains(text(board), result) {
		t.Errorf("the resignation does not say %q: %s", result, text(board))
	}
	fl.board = board
}

// tankFlow starts a bot and a Tank Chess game on the check map.
func tankFlow(t *testing.T, w *world, clock string) (*world, *e2e, *game, *flow) {
	t.Helper()
	e := startBot(t, w)
	g := newGame(t, checkMap)
	return w, e, g, e.startFlow(t, g, "tank", "map", checkMap, "clock", clock)
}

func e2eFlowTankChess(t *testing.T, w *world) {
	_, e, g, fl := tankFlow(t, w, "30m")
	// A checking move: the ping explains it, naming the CLT's square.
	b := fl.move(g.checkMove())
	if c, _ := data(b)["content"].(string); !strings.Contains(c, "**CHECK**: bob's CLT on") {
		t.Errorf("CHECK not explained in the ping: %q", c)
	}
	if col, _ := data(b)["embeds"].([]any)[0].(map[string]any)["color"].(float64); int(col) != 0xE03131 {
		t.Errorf("the embed of a board in check is not red: %v", col)
	}
	for i := 0; i < 3; i++ {
		fl.move(g.anyMove())
	}
	fl.resign(bob, "White (alice) wins — by resignation")
	// /move on the finished game says how it ended.
	cb := response(t, e.do(e.slash(alice, gameChannel, "move", "move", "H1 > H1N")))
	if flags(cb) != 64 || !strings.Contains(text(cb), "is over — White (alice) wins — by resignation") {
		t.Errorf("/move after the end: %s", text(cb))
	}
}

func e2eFlowCamelot(t *testing.T, w *world) {
	e := startBot(t, w)
	g := newGameOf(t, "camelot", "start")
	fl := e.startFlow(t, g, "camelot")
	for _, mv := range camelotMustCapture {
		fl.move(mv)
	}
	if c, _ := data(fl.board)["content"].(string); !strings.Contains(c, "**MUST CAPTURE**: alice must jump") {
		t.Errorf("the duty to capture is not explained: %q", c)
	}
	fl.move(g.pos.FormatMove(g.pos.LegalMoves()[0]))
	fl.move(g.anyMove())
	// A draw by agreement: offer, accept; the end pings both.
	calls := e.do(e.slash(g.toMove(), gameChannel, "draw"))
	offer := response(t, calls)
	pinged(t, offer, "the draw offer", g.toMove().opp().id)
	calls = e.do(e.click(g.toMove().opp(), gameChannel, e.f.originalOf(offer), idWith(t, offer, `drawyes$`)))
	end := theBoard(t, calls, "draw agreed")
	fl.retired(t, calls, e.f.originalOf(fl.board), "draw agreed")
	pinged(t, end, "the agreed draw", alice.id, bob.id)
	if !strings.Contains(text(end), "Draw — by agreement") {
		t.Errorf("the draw is not stated: %s", text(end))
	}
}

func (u who) opp() who {
	if u == alice {
		return bob
	}
	return alice
}

// A Gungi game to checkmate, with a Thai Black and a Portuguese White:
// each ping is in its reader's language, the final one in both.
func e2eFlowGungiLanguages(t *testing.T, w *world) {
	e := startBot(t, w)
	for _, s := range []struct {
		u    who
		lang string
	}{{alice, "pt-BR"}, {bob, "th"}} {
		if cb := response(t, e.do(e.slash(s.u, gameChannel, "settings", "language", s.lang))); flags(cb) != 64 {
			t.Fatalf("settings: %v", cb.Payload)
		}
	}
	g := newGameOf(t, "gungi", "")
	fl := e.startFlow(t, g, "gungi", "clock", "30m")
	first, _ := data(fl.board)["content"].(string)
	if !strings.Contains(first, "<@"+alice.id+"> — a partida #") || !strings.Contains(first, "<@"+bob.id+"> — เกม #") {
		t.Errorf("the first board does not greet each player in their language: %q", first)
	}
	// The checkmate line of the console test, Black (bob) placing first.
	line := []string{"M*a9", "M*e1", "ready", "ready",
		"G*c5", "N*i9", "G*c5", "N*h9", "Y*c5", "C*i8",
		"G*d6", "C*h8", "L*d6", "F*i7", "Y*d6"}
	for i, mv := range line {
		mover := g.toMove()
		b := fl.move(mv)
		c, _ := data(b)["content"].(string)
		if g.pos.Status().Over() {
			break
		}
		switch next := g.toMove(); {
		case next == mover:
		case next == bob && !strings.Contains(c, "ตาคุณเดินในเกม #"):
			t.Errorf("move %d: bob's ping is not in Thai: %q", i+1, c)
		case next == alice && !strings.Contains(c, "Sua vez na partida #"):
			t.Errorf("move %d: alice's ping is not in Portuguese: %q", i+1, c)
		}
	}
	if !g.pos.Status().Over() {
		t.Fatalf("the line did not end the game: %s", g.pos.Encode())
	}
	c, _ := data(fl.board)["content"].(string)
	if !strings.Contains(c, "<@"+alice.id+"> — ") || !strings.Contains(c, "partida #"+fl.id+" terminou") || !strings.Contains(c, "เกม #"+fl.id+" จบแล้ว") {
		t.Errorf("the checkmate does not reach each player in their language: %q", c)
	}
}

// A reminder and a flag-fall by the scheduler, a declined takeback and a
// cancelled challenge: the out-of-band and the refused paths ping the
// right people.
func e2eFlowFlagAndDeclines(t *testing.T, w *world) {
	w, e, g, fl := tankFlow(t, w, "10m")
	fl.move(g.anyMove())

	// Alice asks for a takeback; bob declines: alice hears of it.
	calls := e.do(e.slash(alice, gameChannel, "takeback"))
	ask := response(t, calls)
	pinged(t, ask, "the takeback request", bob.id)
	calls = e.do(e.click(bob, gameChannel, e.f.originalOf(ask), idWith(t, ask, `tbno$`)))
	if cb := response(t, calls); cb.Payload["type"].(float64) != 7 || len(customIDs(cb)) != 0 {
		t.Errorf("the declined request should be edited without buttons: %v", cb.Payload)
	}
	news := publicNew(calls)
	if len(news) != 1 {
		t.Fatalf("declining: %d new messages, want the one telling alice", len(news))
	}
	pinged(t, news[0], "the declined takeback", alice.id)

	// A challenge cancelled by its author reaches the challenged.
	ch := response(t, e.do(e.slash(carol, gameChannel, "challenge", "opponent", userRef(alice))))
	calls = e.do(e.click(carol, gameChannel, e.f.originalOf(ch), idWith(t, ch, `cancel$`)))
	news = publicNew(calls)
	if len(news) != 1 {
		t.Fatalf("cancelling: %d new messages", len(news))
	}
	pinged(t, news[0], "the cancelled challenge", alice.id)

	// Bob's flag falls: the scheduler's board pings both and retires the
	// last one.
	// First the reminder: it pings bob alone.
	w.clk.Advance(9*time.Minute + 30*time.Second)
	from := e.f.count()
	if err := e.b.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	news = publicNew(e.f.callsFrom(from))
	if len(news) != 1 {
		t.Fatalf("reminder: %d new messages", len(news))
	}
	pinged(t, news[0], "the reminder", bob.id)
	w.clk.Advance(time.Minute)
	from = e.f.count()
	if err := e.b.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	calls = e.f.callsFrom(from)
	end := theBoard(t, calls, "flag-fall")
	fl.retired(t, calls, e.f.originalOf(fl.board), "flag-fall")
	pinged(t, end, "the flag-fall", alice.id, bob.id)
	if !strings.Contains(text(end), "White (alice) wins — on time") {
		t.Errorf("the flag-fall does not state the result: %s", text(end))
	}
	var flagged bool
	for _, f := range data(end)["embeds"].([]any)[0].(map[string]any)["fields"].([]any) {
		fm := f.(map[string]any)
		flagged = flagged || strings.Contains(fm["name"].(string), "bob") && fm["value"] == "0:00"
	}
	if !flagged {
		t.Errorf("bob's fallen flag does not read 0:00: %v", data(end)["embeds"])
	}
	if g.pos.Turn() != engine.Black {
		t.Fatal("bob should have been to move")
	}
}

// Look-ups are scoped to the server: another guild's game is no game.
func e2eFlowOtherServer(t *testing.T, w *world) {
	_, e, _, fl := tankFlow(t, w, "30m")
	ev := e.slash(carol, gameChannel, "board", "game", fl.id)
	ev["guild_id"] = "888"
	if cb := response(t, e.do(ev)); flags(cb) != 64 || !strings.Contains(text(cb), "no game #"+fl.id) || len(cb.Files) != 0 {
		t.Errorf("another server reads game #%s: %s", fl.id, text(cb))
	}
	// In its own server, /board is private unless asked.
	cb := response(t, e.do(e.slash(carol, gameChannel, "board", "game", fl.id)))
	if flags(cb) != 64 || len(cb.Files) != 1 || len(customIDs(cb)) != 0 {
		t.Errorf("/board should be a private look without buttons: flags %d, %d files, %v", flags(cb), len(cb.Files), customIDs(cb))
	}
}

// When the handler is slower than the direct window the slash command is
// deferred privately ("thinking…"); filling that placeholder would be an
// edit, which pings nobody, so a note fills it and the board comes as a
// later follow-up.
func e2eFlowDeferredMovePings(t *testing.T, w *world) {
	w.window = time.Nanosecond
	e := startBot(t, w)
	g := newGame(t, checkMap)
	fl := e.startFlow(t, g, "tank", "map", checkMap, "clock", "30m")
	mv := g.anyMove()
	calls := e.do(e.slash(alice, gameChannel, "move", "move", mv))
	if cb := response(t, calls); cb.Payload["type"].(float64) != 5 {
		t.Skipf("the move was answered within a nanosecond: type %v", cb.Payload["type"])
	}
	board := theBoard(t, calls, "deferred move")
	if !strings.Contains(board.Path, "/webhooks/") {
		t.Errorf("the deferred board should be a follow-up, got %s %s", board.Method, board.Path)
	}
	pinged(t, board, "the deferred board", bob.id)
	if cb := response(t, calls); flags(cb) != 64 {
		t.Errorf("the thinking placeholder is public")
	}
	fl.retired(t, calls, e.f.originalOf(fl.board), "deferred move")
}

// Personal views are private in every mode, also when deferred: each is
// an ephemeral answer and makes no public message; /board public:true is
// one public message that pings nobody.
func e2ePrivateViews(t *testing.T, w *world) {
	_, e, g, fl := tankFlow(t, w, "30m")
	fl.move(g.anyMove())
	for _, ev := range []map[string]any{
		e.slash(alice, gameChannel, "board"),
		e.slash(bob, gameChannel, "board", "game", fl.id),
		e.slash(carol, gameChannel, "history", "game", fl.id),
		e.slash(alice, gameChannel, "games"),
		e.slash(bob, gameChannel, "rules"),
		e.slash(carol, gameChannel, "help"),
	} {
		name := ev["data"].(map[string]any)["name"]
		calls := e.do(ev)
		if cb := response(t, calls); flags(cb) != 64 {
			t.Errorf("/%s is not private: %v", name, cb.Payload)
		}
		if news := publicNew(calls); len(news) != 0 {
			t.Errorf("/%s made %d public messages", name, len(news))
		}
	}
	calls := e.do(e.slash(alice, gameChannel, "board", "public", true))
	b := theBoard(t, calls, "/board public:true")
	pinged(t, b, "/board public:true")
}
