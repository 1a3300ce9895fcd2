package main

// Black-box tests of the real binary: `go build` tankbot, start `tankbot
// serve` against the shared fake Discord (bot/discord/discordtest, reached
// through TANKBOT_DISCORD_REST_URL) and a PostgreSQL database of the
// test's own (store/storetest), and talk to it only as Discord would:
// signed HTTP interactions in, REST calls out.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

const (
	bbApp   = "700000000000000001"
	bbGuild = "700000000000000002"
)

// bbUser is a Discord user of the black-box tests.
type bbUser struct{ id, name string }

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
		t.Skip("-short: not building the binary")
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

// bbWorld is one fake Discord, one database, one key pair and the serve
// instances started on them.
type bbWorld struct {
	t    testing.TB
	bin  string
	f    *discordtest.Fake
	db   string
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
	n    atomic.Int64 // interaction counter
}

func newBBWorld(t testing.TB, db string) *bbWorld {
	t.Helper()
	bin := tankbotBinary(t)
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &bbWorld{t: t, bin: bin, f: discordtest.New(t, bbApp), db: db, pub: pub, priv: priv}
}

// serveProc is one running `tankbot serve`.
type serveProc struct {
	cmd  *exec.Cmd
	base string
	logs *discordtest.LogBuffer
	done chan struct{}
	// killed is set just before SIGKILL: a request failing from then on
	// failed because of the kill.
	killed atomic.Bool
}

// freePort is a TCP port free a moment ago on 127.0.0.1.
func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs `tankbot serve` on a free port and waits for /healthz.
func (w *bbWorld) start(extraEnv ...string) *serveProc {
	t := w.t
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(w.bin, "serve")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TANKBOT_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env,
		"TANKBOT_TOKEN=bb-secret-token",
		"TANKBOT_APP_ID="+bbApp,
		"TANKBOT_PUBLIC_KEY="+hex.EncodeToString(w.pub),
		"TANKBOT_DB="+w.db,
		"TANKBOT_DISCORD_REST_URL="+w.f.URL(),
		"TANKBOT_LISTEN="+addr,
		"TANKBOT_LOG_LEVEL=warn",
		"TANKBOT_SCHEDULER_INTERVAL=200ms",
	)
	cmd.Env = append(cmd.Env, extraEnv...)
	p := &serveProc{cmd: cmd, base: "http://" + addr, logs: &discordtest.LogBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.stop() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		select {
		case <-p.done:
			t.Fatalf("tankbot serve exited at start:\n%s", p.logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("tankbot serve not healthy after 30 s:\n%s", p.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop asks for a graceful shutdown (SIGTERM) and waits.
func (p *serveProc) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// kill is a crash: SIGKILL, nothing finished.
func (p *serveProc) kill() {
	p.killed.Store(true)
	_ = p.cmd.Process.Kill()
	<-p.done
}

// interaction is one interaction as Discord would POST it.
func (w *bbWorld) interaction(typ int, u bbUser, channel string, data map[string]any) map[string]any {
	n := w.n.Add(1)
	return map[string]any{
		"id": fmt.Sprint(800000000000000000 + n), "application_id": bbApp, "type": typ,
		"token": fmt.Sprintf("bbtok-%d-SECRET", n), "version": 1,
		"guild_id": bbGuild, "channel_id": channel, "locale": "en-US", "guild_locale": "en-US",
		"member": map[string]any{"user": map[string]any{"id": u.id, "username": u.name, "global_name": u.name}},
		"data":   data,
	}
}

// slash is a slash command with name, value option pairs (string, bool or
// bbUser values).
func (w *bbWorld) slash(u bbUser, channel, name string, kv ...any) map[string]any {
	var opts []any
	users := map[string]any{}
	for k := 0; k+1 < len(kv); k += 2 {
		o := map[string]any{"name": kv[k]}
		switch v := kv[k+1].(type) {
		case string:
			o["type"], o["value"] = 3, v
		case bool:
			o["type"], o["value"] = 5, v
		case bbUser:
			o["type"], o["value"] = 6, v.id
			users[v.id] = map[string]any{"id": v.id, "username": v.name, "global_name": v.name}
		}
		opts = append(opts, o)
	}
	return w.interaction(2, u, channel, map[string]any{"id": "1", "name": name, "type": 1, "options": opts, "resolved": map[string]any{"users": users}})
}

// click presses a button on messageID (the interaction's @original once
// acknowledged with type 6 or 7, as Discord knows it).
func (w *bbWorld) click(u bbUser, channel, messageID, customID string) map[string]any {
	ev := w.interaction(3, u, channel, map[string]any{"custom_id": customID, "component_type": 2})
	ev["message"] = map[string]any{"id": messageID, "channel_id": channel}
	return ev
}

// post has the fake Discord deliver ev to p as Discord does (signed, the
// answer awaited for 3 s). It returns 200 and the answer when it came in
// the body, 202 and the answer when it came through the callback
// endpoint, or an error when the interaction failed.
func (w *bbWorld) post(p *serveProc, ev map[string]any) (int, map[string]any, error) {
	c, err := w.answer(p, ev)
	if err != nil {
		return 0, nil, err
	}
	if c.ViaBody {
		return 200, c.Payload, nil
	}
	return 202, c.Payload, nil
}

// answer is post's recorded first response (a callback Call).
func (w *bbWorld) answer(p *serveProc, ev map[string]any) (*discordtest.Call, error) {
	tok, _ := ev["token"].(string)
	before := w.f.FirstResponse(tok)
	c, err := w.f.Interact(p.base+"/interactions", w.priv, ev)
	if err != nil && before != nil {
		// A resend (TestMultiInstance's load balancer, after an instance
		// died) of an interaction that instance had already answered:
		// Discord keeps that answer and refuses the second.
		return before, nil
	}
	if err == nil && c == nil {
		err = errors.New("answered 202 without a callback")
	}
	return c, err
}

// answered reports whether post's status is an answer.
func answered(code int) bool { return code == 200 || code == 202 }

// msg is a new message as the tests see it: an interaction's first
// response of type 4 (the POST's body), or a follow-up or channel post
// the fake received.
type msg struct {
	id      string
	payload map[string]any // the message (a callback's "data")
	call    *discordtest.Call
}

func (m msg) content() string { s, _ := m.payload["content"].(string); return s }

// text is the content and the embed texts, for matching.
func (m msg) text() string {
	var b strings.Builder
	b.WriteString(m.content())
	embeds, _ := m.payload["embeds"].([]any)
	for _, e := range embeds {
		em, _ := e.(map[string]any)
		for _, k := range []string{"title", "description"} {
			s, _ := em[k].(string)
			b.WriteString("\n" + s)
		}
	}
	return b.String()
}

func (m msg) customIDs() []string { return discordtest.CustomIDs(m.payload) }

func (m msg) idWith(t testing.TB, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	for _, id := range m.customIDs() {
		if rx.MatchString(id) {
			return id
		}
	}
	t.Fatalf("no component matching %s in %v (%q)", re, m.customIDs(), m.text())
	return ""
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

// isNewPublic reports whether c created a public message (as the fake
// Discord judged it) for the interaction token or in channel: its type 4
// answer, a follow-up, or a post to the channel. A follow-up that filled
// a deferred placeholder is an edit, not a new message.
func isNewPublic(c *discordtest.Call, token, channel string) bool {
	if c.Status >= 300 || c.Deduped || !c.Created || c.Ephemeral {
		return false
	}
	return strings.Contains(c.Path, "/"+token+"/callback") || c.Path == "/api/v9/webhooks/"+bbApp+"/"+token || c.Path == "/api/v9/channels/"+channel+"/messages"
}

// board waits for the new public message carrying a board image that the
// interaction (token) produced in channel, from call index from on.
func (w *bbWorld) board(from int, token, channel string, timeout time.Duration) (msg, bool) {
	c := w.f.Await(from, timeout, func(c *discordtest.Call) bool {
		return isNewPublic(c, token, channel) && len(c.Files) > 0
	})
	if c == nil {
		return msg{}, false
	}
	payload := c.Payload
	if d, ok := payload["data"].(map[string]any); ok && strings.HasSuffix(c.Path, "/callback") {
		payload = d
	}
	return msg{id: c.MsgID, payload: payload, call: c}, true
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
	if c := w.f.Await(0, 10*time.Second, func(c *discordtest.Call) bool {
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
	cb, err := w.answer(p, w.slash(alice, channel, "challenge", "opponent", bob, "game", "gungi", "color", "white", "thread", false, "clock", "30m"))
	if err != nil {
		t.Fatalf("challenge: %v\n%s", err, p.logs.String())
	}
	if typ, _ := cb.Payload["type"].(float64); typ != 4 {
		t.Fatalf("challenge answered with %v, want a type 4 message", cb.Payload)
	}
	chal := msg{id: cb.MsgID, payload: cb.Payload["data"].(map[string]any), call: cb}
	if fl, _ := chal.payload["flags"].(float64); int(fl)&64 != 0 {
		t.Fatalf("challenge refused: %q", chal.text())
	}
	wantPings(t, chal, "the challenge", bob.id)
	accept := chal.idWith(t, `^c:\d+:accept$`)

	// bob accepts: the first board pings both.
	from := w.f.Count()
	ev := w.click(bob, channel, chal.id, accept)
	if code, _, err := w.post(p, ev); err != nil || !answered(code) {
		t.Fatalf("accept: %d %v", code, err)
	}
	board, ok := w.board(from, ev["token"].(string), channel, 15*time.Second)
	if !ok {
		t.Fatalf("no board after accepting:\n%s", p.logs.String())
	}
	wantPings(t, board, "the first board", alice.id, bob.id)
	checkPNG(t, board, "the first board")
	gameID := strings.Split(board.idWith(t, `^g:\d+:\d+:resign$`), ":")[1]
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitBoardRecorded(t, st, gameID, board.id)

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
		if d, _ := resp["data"].(map[string]any); d != nil && int(num(d["flags"]))&64 != 0 {
			t.Fatalf("move %d %q refused: %v", i+1, mv, resp)
		}
		next, ok := w.board(from, ev["token"].(string), channel, 15*time.Second)
		if !ok {
			t.Fatalf("move %d %q: no board\n%s", i+1, mv, p.logs.String())
		}
		if !strings.Contains(next.content(), "alice played "+mv) && !strings.Contains(next.content(), "bob played "+mv) {
			t.Errorf("move %d: the board does not say what was played: %q", i+1, next.content())
		}
		if !w.retired(from, board.id, 10*time.Second) {
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

// waitBoardRecorded waits until the store holds messageID as the game's
// board message.
func waitBoardRecorded(t testing.TB, st *store.Store, gameID, messageID string) {
	t.Helper()
	id, _ := strconv.ParseInt(gameID, 10, 64)
	deadline := time.Now().Add(10 * time.Second)
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

func num(v any) float64 { f, _ := v.(float64); return f }

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
