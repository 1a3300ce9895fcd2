package discord

import (
	"bytes"
	"image"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/gungi"
)

// End-to-end games beyond tank's /move: the guided move picker, Camelot
// and the Gungi draft, through the adapter and the fake Discord.

// newGameOf tracks a game of rules name from its named variant.
func newGameOf(t *testing.T, name, variant string) *game {
	t.Helper()
	r, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Start(variant)
	if err != nil {
		t.Fatal(err)
	}
	return &game{t: t, pos: p}
}

// legal reports whether notation is a legal move of the tracked position,
// written canonically.
func (g *game) legal(notation string) bool {
	for _, m := range g.pos.LegalMoves() {
		if g.pos.FormatMove(m) == notation {
			return true
		}
	}
	return false
}

// toMove is the player of the side to move (alice plays White).
func (g *game) toMove() who {
	if g.pos.Turn() == engine.Black {
		return bob
	}
	return alice
}

// challengeGame has alice challenge bob to a game of name as White (with
// more options, name-value pairs, if given) and bob accept. It checks the
// first board, which pings both players (see startFlow), and
// returns the board and the game id.
func (e *e2e) challengeGame(t *testing.T, g *game, name string, more ...any) (board *call, gameID string) {
	t.Helper()
	fl := e.startFlow(t, g, name, more...)
	boardImage(t, fl.board)
	return fl.board, fl.id
}

// boardImage checks a board message: one attachment, sent as image/png,
// that decodes, and that the embed shows. It returns the image's size.
func boardImage(t *testing.T, c *call) image.Point {
	t.Helper()
	if len(c.Files) != 1 {
		t.Fatalf("%s %s: %d files, want the board", c.Method, c.Path, len(c.Files))
	}
	f := c.Files[0]
	if f.ContentType != "image/png" {
		t.Errorf("%s: content type %q, want image/png", f.Name, f.ContentType)
	}
	img, err := png.Decode(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	es, _ := data(c)["embeds"].([]any)
	var shown string
	if len(es) > 0 {
		im, _ := es[0].(map[string]any)["image"].(map[string]any)
		shown, _ = im["url"].(string)
	}
	if shown != "attachment://"+f.Name {
		t.Errorf("the embed shows %q, not the attachment %q", shown, f.Name)
	}
	return img.Bounds().Size()
}

// checkPlayed checks that a board reply says who played notation (followed
// only by announcement suffixes) and that it is public.
func checkPlayed(t *testing.T, board *call, u who, notation string) {
	t.Helper()
	rx := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(u.name+" played "+notation) + `[+-]*( \(.+\))?\.$`)
	if !rx.MatchString(text(board)) {
		t.Errorf("the board does not say %s played %q: %s", u.name, notation, text(board))
	}
	if !created(board) || flags(board) == 64 {
		t.Errorf("a played move should be a public new message, got %s %s flags %d", board.Method, board.Path, flags(board))
	}
}

// move plays mv (in canonical notation) with /move as the player to move,
// checks the board and the ping to the next player, and follows it in g.
func (e *e2e) move(t *testing.T, g *game, mv string) (board *call, calls []*call) {
	t.Helper()
	u := g.toMove()
	calls = e.do(e.slash(u, gameChannel, "move", "move", mv))
	board = response(t, calls)
	if flags(board) == 64 {
		t.Fatalf("%s's move %q refused: %s", u.name, mv, text(board))
	}
	boardImage(t, board)
	g.play(mv)
	checkPlayed(t, board, u, mv)
	pingNext(t, calls, u, g)
	return board, calls
}

// pingNext checks the board pings the player to move, or nobody when the
// mover moves again (Gungi's draft against a ready opponent).
func pingNext(t *testing.T, calls []*call, mover who, g *game) {
	t.Helper()
	if next := g.toMove(); next != mover {
		ping(t, calls, next.id)
		return
	}
	pinged(t, theBoard(t, calls, "a move after which the mover moves again"), "a board after which the mover moves again")
}

// selectMenu is a message payload's string select menu (component type
// 3), or nil.
func selectMenu(c *call) map[string]any {
	rows, _ := data(c)["components"].([]any)
	for _, r := range rows {
		cs, _ := r.(map[string]any)["components"].([]any)
		for _, x := range cs {
			if m := x.(map[string]any); m["type"] == float64(3) {
				return m
			}
		}
	}
	return nil
}

// menuValues checks a picker menu (1 to 25 distinct, non-empty values) and
// returns its values.
func menuValues(t *testing.T, menu map[string]any) []string {
	t.Helper()
	opts, _ := menu["options"].([]any)
	if len(opts) == 0 || len(opts) > 25 {
		t.Fatalf("picker menu with %d options", len(opts))
	}
	seen := map[string]bool{}
	var out []string
	for _, o := range opts {
		v, _ := o.(map[string]any)["value"].(string)
		if v == "" || seen[v] {
			t.Fatalf("picker option value %q empty or repeated: %v", v, opts)
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}

// onlyCallback checks that an interaction was answered by its callback
// alone (or, deferred, through its own token): nothing posted, edited or
// followed up elsewhere, and no new public message.
func onlyCallback(t *testing.T, calls []*call, what string) {
	t.Helper()
	cb := one(t, calls, "POST", "/callback")
	typ, _ := cb.Payload["type"].(float64)
	tok := strings.Split(cb.Path, "/")[5]
	for _, c := range calls {
		own := typ == 6 && strings.Contains(c.Path, "/webhooks/"+testApp+"/"+tok)
		if !strings.HasSuffix(c.Path, "/callback") && !own || c.Created && !c.Ephemeral {
			t.Errorf("%s: unexpected %s %s", what, c.Method, c.Path)
		}
	}
}

// openPicker clicks the board's Pick button as the player to move and
// checks the answer: a new ephemeral message (type 4, flags 64), without
// files, posted nowhere else, with a select menu. It returns the answer
// and the picker message's id.
func (e *e2e) openPicker(t *testing.T, g *game, board *call, gameID, ply string) (r *call, msg string) {
	t.Helper()
	pick := idWith(t, board, `^g:`+gameID+`:`+ply+`:pick$`)
	calls := e.do(e.click(g.toMove(), e.where(), e.f.originalOf(board), pick))
	r = response(t, calls)
	if typ := r.Payload["type"].(float64); typ != 4 || flags(r) != 64 {
		t.Fatalf("the picker should open as a new ephemeral message (type 4, flags 64), got type %v flags %d: %v", typ, flags(r), r.Payload)
	}
	if len(r.Files) != 0 {
		t.Errorf("the picker carries files")
	}
	onlyCallback(t, calls, "opening the picker")
	if selectMenu(r) == nil {
		t.Fatalf("the picker has no select menu: %v", r.Payload)
	}
	return r, e.f.originalOf(r)
}

// choose picks value in the picker menu of r as the player to move and
// checks the choice edits the picker message (type 7) and nothing else.
func (e *e2e) choose(t *testing.T, g *game, r *call, msg, gameID, ply, value string) *call {
	t.Helper()
	id, _ := selectMenu(r)["custom_id"].(string)
	if id != "g:"+gameID+":"+ply+":picksel" {
		t.Fatalf("picker menu id %q, want g:%s:%s:picksel", id, gameID, ply)
	}
	calls := e.do(e.click(g.toMove(), e.where(), msg, id, value))
	r = response(t, calls)
	if typ := r.Payload["type"].(float64); typ != 7 {
		t.Fatalf("a picker choice should edit the picker (type 7), got %v: %v", typ, r.Payload)
	}
	onlyCallback(t, calls, "a picker choice")
	return r
}

var pickedRx = regexp.MustCompile(`Your move: \*\*(.+?)\*\*`)

// picker opens the picker from the board as the player to move and
// chooses the first option of each menu until the move is complete. It
// returns the picked notation, the Confirm button's id and the picker
// message.
func (e *e2e) picker(t *testing.T, g *game, board *call, gameID, ply string) (notation, confirm, msg string) {
	t.Helper()
	r, msg := e.openPicker(t, g, board, gameID, ply)
	for i := 0; selectMenu(r) != nil; i++ {
		if i == 10 {
			t.Fatalf("the picker did not complete in 10 choices")
		}
		r = e.choose(t, g, r, msg, gameID, ply, menuValues(t, selectMenu(r))[0])
	}
	confirm = idWith(t, r, `^g:`+gameID+`:`+ply+`:pickok:.+$`)
	sm := pickedRx.FindStringSubmatch(text(r))
	if sm == nil {
		t.Fatalf("the complete picker does not show the move: %q", text(r))
	}
	notation = sm[1]
	if !g.legal(notation) {
		t.Fatalf("the picker offers %q, not a legal move", notation)
	}
	return notation, confirm, msg
}

// confirm clicks the picker's Confirm as the player to move and checks the
// move is played: a public board, the move named, the next player pinged.
func (e *e2e) confirm(t *testing.T, g *game, notation, confirm, msg string) (board *call) {
	t.Helper()
	u := g.toMove()
	calls := e.do(e.click(u, e.where(), msg, confirm))
	if cb := response(t, calls); flags(cb) == 64 && cb.Payload["type"].(float64) == 4 {
		t.Fatalf("confirm refused: %s", text(cb))
	} else if cb.Payload["type"].(float64) != 7 || len(customIDs(cb)) != 0 || !strings.Contains(text(cb), "You played "+notation) {
		t.Errorf("the picker should be edited to say what was played, without buttons: %v", cb.Payload)
	}
	board = theBoard(t, calls, "confirm")
	boardImage(t, board)
	g.play(notation)
	checkPlayed(t, board, u, notation)
	ping(t, calls, g.toMove().id)
	return board
}

func e2ePickerPlaysMove(t *testing.T, w *world) {
	e := startBot(t, w)
	g := newGame(t, checkMap)
	board, id := e.startGame(t, "30m")

	// Only the player to move may open the picker.
	calls := e.do(e.click(bob, gameChannel, e.f.originalOf(board), idWith(t, board, `^g:`+id+`:0:pick$`)))
	refused(t, calls, "the opponent opens the picker")
	onlyCallback(t, calls, "the opponent opens the picker")

	notation, confirm, msg := e.picker(t, g, board, id, "0")
	r := e.confirm(t, g, notation, confirm, msg)
	if last := idWith(t, r, `^g:`+id+`:\d+:pick$`); last != "g:"+id+":1:pick" {
		t.Errorf("the new board's picker is %q, want ply 1", last)
	}

	// The same Confirm again is stale: refused, and nothing is played.
	calls = e.do(e.click(alice, gameChannel, msg, confirm))
	refused(t, calls, "a second confirm")
	onlyCallback(t, calls, "a second confirm")
	// Bob's move at ply 1 still plays: the position did not move twice.
	e.move(t, g, g.anyMove())
}

// The picker's Back button goes one choice back in place, and no picker
// message repeats a custom id: Discord refuses a message whose components
// share one ("must not share the same custom_id").
func e2ePickerBack(t *testing.T, w *world) {
	e := startBot(t, w)
	g := newGame(t, checkMap)
	board, id := e.startGame(t, "30m")

	r, msg := e.openPicker(t, g, board, id, "0")
	uniqueIDs(t, r, "the first picker menu")
	first := menuValues(t, selectMenu(r))
	r = e.choose(t, g, r, msg, id, "0", first[0])
	uniqueIDs(t, r, "the picker after one choice")
	var back string
	for _, c := range buttons(r) {
		if strings.HasPrefix(c, "g:"+id+":0:pickgo") {
			back = c
		}
	}
	if back == "" {
		t.Fatalf("no Back button (g:%s:0:pickgo…) after a choice: %v", id, customIDs(r))
	}
	calls := e.do(e.click(alice, gameChannel, msg, back))
	r = response(t, calls)
	if typ := r.Payload["type"].(float64); typ != 7 {
		t.Errorf("Back (%s) should edit the picker (type 7), got type %v", back, typ)
	}
	onlyCallback(t, calls, "Back")
	if m := selectMenu(r); m == nil || strings.Join(menuValues(t, m), "|") != strings.Join(first, "|") {
		t.Errorf("Back did not show the first menu again: %v", r.Payload)
	}
}

// buttons lists the custom ids of a message payload's buttons.
func buttons(c *call) []string {
	var out []string
	rows, _ := data(c)["components"].([]any)
	for _, r := range rows {
		cs, _ := r.(map[string]any)["components"].([]any)
		for _, x := range cs {
			if m := x.(map[string]any); m["type"] == float64(2) {
				id, _ := m["custom_id"].(string)
				out = append(out, id)
			}
		}
	}
	return out
}

// uniqueIDs checks that no two components of a message share a custom id.
func uniqueIDs(t *testing.T, c *call, what string) {
	t.Helper()
	if id := duplicateCustomID(c.Payload); id != "" {
		t.Errorf("%s: custom id %q used twice in one message: %v", what, id, customIDs(c))
	}
}

// camelotMustCapture is a line from the Camelot start after which White
// must capture: White's man canters to E8, Black's man steps next to it.
var camelotMustCapture = []string{"C6^E8", "D10-D9"}

func e2eCamelot(t *testing.T, w *world) {
	e := startBot(t, w)
	g := newGameOf(t, "camelot", "start")
	if g.pos.Encode() != camelot.StartCFEN {
		t.Fatalf("camelot start: %s", g.pos.Encode())
	}
	board, _ := e.challengeGame(t, g, "camelot")
	checkCamelotImage(t, board)

	var r *call
	for _, mv := range camelotMustCapture {
		r, _ = e.move(t, g, mv)
		checkCamelotImage(t, r)
	}
	// The engine and the bot agree that White must capture now.
	var must bool
	for _, a := range g.pos.Announcements() {
		must = must || a.Kind == engine.AnnounceMustCapture && a.Side == engine.White
	}
	if !must {
		t.Fatalf("the line %v no longer forces a capture: update it", camelotMustCapture)
	}
	if !strings.Contains(text(r), "alice must jump") {
		t.Errorf("no duty to capture announced: %s", text(r))
	}

	// Alice captures with a legal move from the engine.
	capture := g.pos.FormatMove(g.pos.LegalMoves()[0])
	if !strings.Contains(capture, "x") {
		t.Fatalf("the first legal move %q is not a capture", capture)
	}
	r, _ = e.move(t, g, capture)
	checkCamelotImage(t, r)
	// The board says Black must capture exactly when the engine does.
	var blackMust bool
	for _, a := range g.pos.Announcements() {
		blackMust = blackMust || a.Kind == engine.AnnounceMustCapture && a.Side == engine.Black
	}
	if said := strings.Contains(text(r), "bob must jump"); said != blackMust {
		t.Errorf("Black's duty to capture: announced %v, engine %v: %s", said, blackMust, text(r))
	}

	// Bob types the start of one of his moves, in lower case, and plays
	// the first choice. Choices are legal moves holding what was typed
	// (its '-' ignored), those that start with it first.
	prefix := g.pos.FormatMove(g.pos.LegalMoves()[0])[:2]
	calls := e.do(e.autocomplete(bob, gameChannel, "move", "move", "move", strings.ToLower(prefix)))
	ac := response(t, calls)
	if typ := ac.Payload["type"].(float64); typ != 8 {
		t.Fatalf("autocomplete answered with type %v", typ)
	}
	choices, _ := data(ac)["choices"].([]any)
	if len(choices) == 0 || len(choices) > 25 {
		t.Fatalf("%d autocomplete choices for %q", len(choices), prefix)
	}
	for _, c := range choices {
		v := c.(map[string]any)["value"].(string)
		if !g.legal(v) || !strings.Contains(strings.ReplaceAll(v, "-", ""), prefix) {
			t.Errorf("autocomplete offers %q for %q: not a legal move holding it", v, prefix)
		}
	}
	chosen := choices[0].(map[string]any)["value"].(string)
	if !strings.HasPrefix(chosen, prefix) {
		t.Errorf("the first choice %q does not start with %q", chosen, prefix)
	}
	r, _ = e.move(t, g, chosen)
	checkCamelotImage(t, r)
	// And the fifth ply: Alice's answer.
	r, _ = e.move(t, g, g.anyMove())
	checkCamelotImage(t, r)
}

// checkCamelotImage checks a Camelot board's PNG has a plausible size: the
// 12 × 16 board is drawn on its side, so wider than tall.
func checkCamelotImage(t *testing.T, c *call) {
	t.Helper()
	sz := boardImage(t, c)
	if sz.X < 700 || sz.X > 1000 || sz.Y >= sz.X || sz.Y < 500 {
		t.Errorf("camelot board image %v: implausible size", sz)
	}
}

func e2eGungi(t *testing.T, w *world) {
	e := startBot(t, w)
	g := newGameOf(t, "gungi", "")
	if g.pos.Turn() != engine.Black {
		t.Fatalf("gungi's draft should start with Black")
	}
	board, id := e.challengeGame(t, g, "gungi")
	checkGungiImage(t, board)
	idWith(t, board, `^g:`+id+`:0:moveask:ready:quick$`) // the draft's formation button

	// Bob (Black) places his Marshal first.
	r, _ := e.move(t, g, "M*e9")
	checkGungiImage(t, r)
	// Alice drops her Marshal with the picker.
	notation, confirm, msg := e.picker(t, g, r, id, "1")
	if !strings.HasPrefix(notation, "M*") {
		t.Errorf("alice's first placement %q is not her Marshal's drop", notation)
	}
	r = e.confirm(t, g, notation, confirm, msg)
	checkGungiImage(t, r)
	r, _ = e.move(t, g, "G*c9")
	checkGungiImage(t, r)
	r, _ = e.move(t, g, "G*c1")
	checkGungiImage(t, r)

	// Bob hands the rest of his draft to the quick formation.
	if g.toMove() != bob {
		t.Fatal("bob should be placing")
	}
	r, _ = e.move(t, g, "ready:quick")
	checkGungiImage(t, r)
	d := g.pos.(*gungi.Position)
	if !d.InDraft() || g.pos.Turn() != engine.White {
		t.Fatalf("after Black's ready: draft %v, turn %v", d.InDraft(), g.pos.Turn())
	}
	// Alice places alone: two turns running, and nobody is pinged (she
	// just moved).
	r, _ = e.move(t, g, "L*d1")
	checkGungiImage(t, r)
	if g.toMove() != alice {
		t.Fatal("alice should still be placing")
	}
	// She finishes her draft with the board's formation button.
	// It cannot be undone, so it asks first.
	ask := idWith(t, r, `^g:`+id+`:6:moveask:ready:quick$`)
	cb := response(t, e.do(e.click(alice, gameChannel, e.f.originalOf(r), ask)))
	if flags(cb) != 64 {
		t.Fatalf("the formation button should ask privately: %v", cb.Payload)
	}
	ready := idWith(t, cb, `^g:`+id+`:6:moveok:ready:quick$`)
	calls := e.do(e.click(alice, gameChannel, e.f.originalOf(cb), ready))
	r = theBoard(t, calls, "finish my draft")
	checkGungiImage(t, r)
	g.play("ready:quick")
	checkPlayed(t, r, alice, "ready:quick")
	if g.pos.(*gungi.Position).InDraft() {
		t.Fatal("the draft should be over")
	}
	pingNext(t, calls, alice, g)
	if ids := strings.Join(customIDs(r), " "); strings.Contains(ids, "ready:") {
		t.Errorf("the formation buttons outlive the draft: %s", ids)
	}
	// The game proper begins with White.
	r, _ = e.move(t, g, g.anyMove())
	checkGungiImage(t, r)
}

// checkGungiImage checks a Gungi board's PNG has a plausible size.
func checkGungiImage(t *testing.T, c *call) {
	t.Helper()
	if sz := boardImage(t, c); sz.X < 600 || sz.X > 1200 || sz.Y < 400 || sz.Y > 1200 {
		t.Errorf("gungi board image %v: implausible size", sz)
	}
}
