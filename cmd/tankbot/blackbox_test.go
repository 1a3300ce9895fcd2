package main

// Black-box tests of the real binary: `go build` tankbot, start `tankbot
// serve` against the shared fake Discord (bot/discord/discordtest, reached
// through TANKBOT_DISCORD_REST_URL) and a PostgreSQL database of the
// test's own (store/storetest), and talk to it only as Discord would:
// signed HTTP interactions in, REST calls out.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

// eventWait bounds a wait for something the test itself set going (a
// board, an edit, a shutdown): far beyond any CPU starvation, so a hang
// fails at go test's -timeout, never a slow machine.
const eventWait = time.Hour

var binary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// TestMain removes the binary built for the black-box tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if binary.path != "" {
		os.RemoveAll(filepath.Dir(binary.path))
	}
	os.Exit(code)
}

// tankbotBinary builds the binary once per test process.
func tankbotBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("long tier: builds the binary and runs it")
	}
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "tankbot-bin-")
		if err != nil {
			binary.err = err
			return
		}
		binary.path = filepath.Join(dir, "tankbot")
		cmd := exec.Command("go", "build", "-o", binary.path, ".")
		binary.out, binary.err = cmd.CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("go build: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}

// bbWorld is a test's fleet (fleet.go): its serve instances stop when the
// test ends.
type bbWorld struct {
	t testing.TB
	*fleet
}

func newBBWorld(t testing.TB, db string) *bbWorld {
	t.Helper()
	f := discordtest.New(t, bbApp)
	// The fake takes a first answer for a minute: the binary keeps
	// Discord's 3 s (deferring after 2 s), and a starved CPU must not turn
	// its answer into a failed interaction here. Before any serve talks to
	// the fake, so no handler reads it meanwhile.
	f.Configure(func(f *discordtest.Fake) { f.ResponseWindow = time.Minute })
	w, err := newFleet(tankbotBinary(t), db, f)
	if err != nil {
		t.Fatal(err)
	}
	return &bbWorld{t: t, fleet: w}
}

// start runs `tankbot serve` on a free port and waits for /healthz.
func (w *bbWorld) start(extraEnv ...string) *serveProc {
	w.t.Helper()
	p, err := w.startServe(extraEnv...)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(p.stop)
	return p
}

func (m msg) idWith(t testing.TB, re string) string {
	t.Helper()
	id, err := m.idMatching(re)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// pings are the users the message notified, as the fake Discord judged
// it (only a new public message pings); the payload must mention them in
// its content and allow them by allowed_mentions, which must parse nothing
// and allow no one the content does not mention.
func (m msg) pings(t testing.TB) []string {
	t.Helper()
	am, _ := m.payload["allowed_mentions"].(map[string]any)
	if am == nil {
		t.Fatalf("message without allowed_mentions: %q", m.content())
	}
	if parse, _ := am["parse"].([]any); len(parse) != 0 {
		t.Errorf("allowed_mentions parses %v", parse)
	}
	allowed := map[string]bool{}
	users, _ := am["users"].([]any)
	for _, u := range users {
		allowed[u.(string)] = true
	}
	seen := map[string]bool{}
	var mentioned []string
	for _, sm := range regexp.MustCompile(`<@!?(\d+)>`).FindAllStringSubmatch(m.content(), -1) {
		if !allowed[sm[1]] {
			t.Errorf("content mentions %s, not in allowed_mentions: %q", sm[1], m.content())
			continue
		}
		if !seen[sm[1]] {
			seen[sm[1]] = true
			mentioned = append(mentioned, sm[1])
		}
	}
	if len(mentioned) != len(allowed) {
		t.Errorf("allowed_mentions %v but the content mentions %v: %q", users, mentioned, m.content())
	}
	out := []string{}
	if m.call != nil {
		out = append(out, m.call.Notified...)
	}
	sort.Strings(out)
	return out
}

func wantPings(t testing.TB, m msg, what string, ids ...string) {
	t.Helper()
	sort.Strings(ids)
	if got := m.pings(t); strings.Join(got, ",") != strings.Join(ids, ",") {
		t.Errorf("%s pings %v, want %v: %q", what, got, ids, m.content())
	}
}

// followUp is the message that completed a deferred interaction: the
// first follow-up posted on its token's webhook (awaited: eventWait is a
// hang guard, not a budget).
func (w *bbWorld) followUp(t testing.TB, from int, token string) msg {
	t.Helper()
	c := w.f.Await(from, eventWait, func(c *discordtest.Call) bool {
		return c.Method == "POST" && c.Status < 300 && strings.Contains(c.Path, "/webhooks/") && strings.HasSuffix(c.Path, "/"+token)
	})
	if c == nil {
		t.Fatal("no follow-up after a deferral")
	}
	return msg{id: c.MsgID, payload: c.Payload, call: c}
}

// answerOf is the message that answered interaction ev, whose first
// response was resp: its data for a direct answer, the follow-up after a
// deferral (a busy machine's: a deferred answer is an answer).
func (w *bbWorld) answerOf(t testing.TB, from int, ev, resp map[string]any) msg {
	t.Helper()
	if deferred(resp) {
		return w.followUp(t, from, ev["token"].(string))
	}
	d, _ := resp["data"].(map[string]any)
	return msg{payload: d}
}

// retiredBy waits for the edit that removes the buttons of message id.
func (w *bbWorld) retired(from int, id string, timeout time.Duration) bool {
	return w.f.Await(from, timeout, func(c *discordtest.Call) bool {
		// With the bot token, or through the interaction's webhook (its
		// @original): the fake names the message either edit changed.
		if c.Method != "PATCH" || c.Status >= 300 || c.Edited != id {
			return false
		}
		comps, ok := c.Payload["components"].([]any)
		return ok && len(comps) == 0
	}) != nil
}

// TestBlackBoxGame plays a complete Gungi game to checkmate against the
// real binary: challenge, accept, every move by /move, each answer
// checked as Discord would deliver it.
func TestBlackBoxGame(t *testing.T) {
	db := storetest.Postgres(t)
	w := newBBWorld(t, db)
	p := w.start()
	alice, bob := bbUser{"710000000000000001", "alice"}, bbUser{"710000000000000002", "bob"}
	const channel = "720000000000000001"

	// Registration went through the REST URL, once.
	if c := w.f.Await(0, eventWait, func(c *discordtest.Call) bool {
		return c.Method == "PUT" && c.Path == "/api/v9/applications/"+bbApp+"/commands"
	}); c == nil {
		t.Fatal("the commands were not registered through TANKBOT_DISCORD_REST_URL")
	}

	// A bad signature is refused.
	bad := w.slash(alice, channel, "games")
	body, _ := json.Marshal(bad)
	req, _ := http.NewRequest("POST", p.base+"/interactions", bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", strings.Repeat("00", 64))
	req.Header.Set("X-Signature-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Fatalf("bad signature: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	// The challenge: a type 4 answer in the POST's body, pinging bob alone.
	// (On a busy machine the binary may defer it: a deferred answer is an
	// answer, and the challenge is then its follow-up.)
	from := w.f.Count()
	ev := w.slash(alice, channel, "challenge", "opponent", bob, "game", "gungi", "color", "white", "thread", false, "clock", "30m")
	cb, err := w.answer(p, ev)
	if err != nil {
		t.Fatalf("challenge: %v\n%s", err, p.logs.String())
	}
	var chal msg
	switch typ, _ := cb.Payload["type"].(float64); typ {
	case 4:
		chal = msg{id: cb.MsgID, payload: cb.Payload["data"].(map[string]any), call: cb}
	case 5:
		chal = w.followUp(t, from, ev["token"].(string))
	default:
		t.Fatalf("challenge answered with %v, want a type 4 message (or a deferral)", cb.Payload)
	}
	if fl, _ := chal.payload["flags"].(float64); int(fl)&64 != 0 {
		t.Fatalf("challenge refused: %q", chal.text())
	}
	wantPings(t, chal, "the challenge", bob.id)
	board, gameID, st := w.acceptFirstBoard(t, p, db, channel, chal, alice, bob)

	// The checkmate line (Black places first), each move by the side to
	// move; the engine tracks who that is.
	rules, err := games.Lookup("gungi")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.Start("")
	if err != nil {
		t.Fatal(err)
	}
	player := func(side engine.Side) bbUser {
		if side == engine.Black {
			return bob
		}
		return alice
	}
	line := []string{"M*a9", "M*e1", "ready", "ready",
		"G*c5", "N*i9", "G*c5", "N*h9", "Y*c5", "C*i8",
		"G*d6", "C*h8", "L*d6", "F*i7", "Y*d6"}
	for i, mv := range line {
		mover := player(pos.Turn())
		m, err := pos.ParseMove(mv)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, mv, err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatalf("move %d %q: %v", i+1, mv, err)
		}
		from := w.f.Count()
		ev := w.slash(mover, channel, "move", "move", mv)
		code, resp, err := w.post(p, ev)
		if err != nil || !answered(code) {
			t.Fatalf("move %d: %d %v", i+1, code, err)
		}
		if deferred(resp) {
			// A busy machine made the binary defer: the answer is the
			// follow-up, the board.
			if fu := w.followUp(t, from, ev["token"].(string)); int(num(fu.payload["flags"]))&64 != 0 {
				t.Fatalf("move %d %q refused: %q", i+1, mv, fu.text())
			}
		} else if d, _ := resp["data"].(map[string]any); d != nil && int(num(d["flags"]))&64 != 0 {
			t.Fatalf("move %d %q refused: %v", i+1, mv, resp)
		}
		next, ok := w.board(from, ev["token"].(string), channel, eventWait)
		if !ok {
			t.Fatalf("move %d %q: no board\n%s", i+1, mv, p.logs.String())
		}
		if !strings.Contains(next.content(), "alice played "+mv) && !strings.Contains(next.content(), "bob played "+mv) {
			t.Errorf("move %d: the board does not say what was played: %q", i+1, next.content())
		}
		if !w.retired(from, board.id, eventWait) {
			t.Errorf("move %d: the previous board %s kept its buttons", i+1, board.id)

		}
		board = next
		// The adapter records the board's message id just after sending
		// it; a move before that would retire the older board (harmless:
		// stale buttons are refused), so wait as a human would.
		waitBoardRecorded(t, st, gameID, board.id)
		if pos.Status().Over() {
			break
		}
		switch nextMover := player(pos.Turn()); {
		case nextMover == mover:
			wantPings(t, board, fmt.Sprintf("move %d (the mover moves again)", i+1))
		default:
			wantPings(t, board, fmt.Sprintf("move %d", i+1), nextMover.id)
		}
	}
	if !pos.Status().Over() {
		t.Fatal("the line did not end the game")
	}
	wantPings(t, board, "the final board", alice.id, bob.id)
	checkPNG(t, board, "the final board")
	if ids := board.customIDs(); len(ids) != 3 || !strings.HasSuffix(ids[0], ":rematch") || !strings.HasSuffix(ids[1], ":record") || !strings.HasSuffix(ids[2], ":review") {
		t.Errorf("the final board offers %v, want Rematch, the record and the review", ids)
	}
	if !strings.Contains(board.text(), "wins") {
		t.Errorf("the final board does not state the result: %q", board.text())
	}

	// The store holds the finished game with every move once.
	p.stop()
	id, _ := strconv.ParseInt(gameID, 10, 64)
	g, moves, err := st.LoadGame(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status == "active" || len(moves) != len(line) || g.Ply != len(line) {
		t.Errorf("stored game: status %s, ply %d, %d moves; want finished after %d", g.Status, g.Ply, len(moves), len(line))
	}
	if strings.Contains(p.logs.String(), "bb-secret-token") || strings.Contains(p.logs.String(), "SECRET") {
		t.Error("a token reached the logs")
	}
}

// acceptFirstBoard has the challenged player accept chal and checks the
// opening every black-box game shares: the first board pings both players,
// carries a PNG, and the store records it as the game's board. It returns
// that board, the game's id and the store (closed when the test ends).
func (w *bbWorld) acceptFirstBoard(t *testing.T, p *serveProc, db, channel string, chal msg, challenger, challenged bbUser) (msg, string, *store.Store) {
	t.Helper()
	board := w.accept(t, p, channel, chal, challenged)
	wantPings(t, board, "the first board", challenger.id, challenged.id)
	checkPNG(t, board, "the first board")
	gameID := strings.Split(board.idWith(t, `^g:\d+:\d+:resign$`), ":")[1]
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	waitBoardRecorded(t, st, gameID, board.id)
	return board, gameID, st
}

// accept has who click chal's Accept (on chal's message, or a fresh id
// when the challenge came back in a POST's body without one) and returns
// the first board.
func (w *bbWorld) accept(t *testing.T, p *serveProc, channel string, chal msg, who bbUser) msg {
	t.Helper()
	id := chal.id
	if id == "" {
		id = w.f.NewID()
	}
	from := w.f.Count()
	ev := w.click(who, channel, id, chal.idWith(t, `^c:\d+:accept$`))
	if code, _, err := w.post(p, ev); err != nil || !answered(code) {
		t.Fatalf("accept: %d %v", code, err)
	}
	board, ok := w.board(from, ev["token"].(string), channel, eventWait)
	if !ok {
		t.Fatalf("no board after accepting:\n%s", p.logs.String())
	}
	return board
}

// waitBoardRecorded waits until the store holds messageID as the game's
// board message.
func waitBoardRecorded(t testing.TB, st *store.Store, gameID, messageID string) {
	t.Helper()
	id, _ := strconv.ParseInt(gameID, 10, 64)
	deadline := time.Now().Add(eventWait)
	for {
		g, err := st.Game(context.Background(), id)
		if err == nil && g.MessageID == messageID {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("game %s: board message %s not recorded (%v)", gameID, messageID, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkPNG decodes the board image of m: the attached PNG its embed shows
// (a final board may carry the game's record files too).
func checkPNG(t testing.TB, m msg, what string) {
	t.Helper()
	var f discordtest.Upload
	embeds, _ := m.payload["embeds"].([]any)
	for _, u := range m.call.Files {
		if len(embeds) > 0 && strings.Contains(fmt.Sprint(embeds[0]), "attachment://"+u.Name) {
			f = u
		}
	}
	if f.Name == "" {
		t.Fatalf("%s: no attached file is shown in the embed (%d files)", what, len(m.call.Files))
	}
	img, err := png.Decode(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatalf("%s: the image is not a PNG: %v", what, err)
	}
	if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 200 {
		t.Errorf("%s: image %v too small for a board", what, b)
	}
}
