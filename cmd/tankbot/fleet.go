package main

// The fleet harness: real `tankbot serve` processes (this binary) against
// the fake Discord of bot/discord/discordtest, talked to only as Discord
// would: signed HTTP interactions in, REST calls out. The black-box tests
// and `tankbot loadtest` share it.

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
)

// The application and guild of the fleet's fake Discord.
const (
	bbApp   = "700000000000000001"
	bbGuild = "700000000000000002"
)

// bbUser is a Discord user of the fleet's interactions.
type bbUser struct{ id, name string }

// fleet is one fake Discord, one database, one key pair and the serve
// instances started on them.
type fleet struct {
	bin  string
	f    *discordtest.Fake
	db   string
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
	n    atomic.Int64 // interaction counter
	// restURL is the Discord REST URL given to the instances (default:
	// the fake's).
	restURL string
}

// newFleet is a fleet of binary bin on database db against fake f, with a
// fresh key pair.
func newFleet(bin, db string, f *discordtest.Fake) (*fleet, error) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		return nil, err
	}
	return &fleet{bin: bin, f: f, db: db, pub: pub, priv: priv}, nil
}

// serveProc is one running `tankbot serve`.
type serveProc struct {
	cmd  *exec.Cmd
	base string
	ops  string // the operations listener: /healthz, /readyz, /metrics
	logs *discordtest.LogBuffer
	done chan struct{}
	// killed is set just before SIGKILL: a request failing from then on
	// failed because of the kill.
	killed atomic.Bool
}

// freePort is a TCP port free a moment ago on 127.0.0.1.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// startServe runs `tankbot serve` on a free port and waits for /healthz;
// the caller stops it. extraEnv is added to its environment.
func (w *fleet) startServe(extraEnv ...string) (*serveProc, error) {
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	opsAddr, err := freePort()
	if err != nil {
		return nil, err
	}
	rest := w.restURL
	if rest == "" {
		rest = w.f.URL()
	}
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
		"TANKBOT_DISCORD_REST_URL="+rest,
		"TANKBOT_LISTEN="+addr,
		"TANKBOT_METRICS_LISTEN="+opsAddr,
		"TANKBOT_LOG_LEVEL=warn",
		"TANKBOT_SCHEDULER_INTERVAL=200ms",
	)
	cmd.Env = append(cmd.Env, extraEnv...)
	p := &serveProc{cmd: cmd, base: "http://" + addr, ops: "http://" + opsAddr, logs: &discordtest.LogBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.ops + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p, nil
			}
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("tankbot serve exited at start:\n%s", p.logs.String())
		default:
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("tankbot serve not healthy after 30 s:\n%s", p.logs.String())
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
func (w *fleet) interaction(typ int, u bbUser, channel string, data map[string]any) map[string]any {
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
func (w *fleet) slash(u bbUser, channel, name string, kv ...any) map[string]any {
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
func (w *fleet) click(u bbUser, channel, messageID, customID string) map[string]any {
	ev := w.interaction(3, u, channel, map[string]any{"custom_id": customID, "component_type": 2})
	ev["message"] = map[string]any{"id": messageID, "channel_id": channel}
	return ev
}

// post has the fake Discord deliver ev to p as Discord does (signed, the
// answer awaited for 3 s). It returns 200 and the answer when it came in
// the body, 202 and the answer when it came through the callback
// endpoint, or an error when the interaction failed.
func (w *fleet) post(p *serveProc, ev map[string]any) (int, map[string]any, error) {
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
func (w *fleet) answer(p *serveProc, ev map[string]any) (*discordtest.Call, error) {
	tok, _ := ev["token"].(string)
	before := w.f.FirstResponse(tok)
	c, err := w.f.Interact(p.base+"/interactions", w.priv, ev)
	if err != nil && before == nil {
		// The dead instance's answer may have landed during this resend.
		if first := w.f.FirstResponse(tok); first != nil && first != c {
			before = first
		}
	}
	if err != nil && before != nil {
		// A resend (a load balancer's, after an instance died) of an
		// interaction that instance had already answered: Discord keeps
		// that answer and refuses the second.
		return before, nil
	}
	if err == nil && c == nil {
		err = errors.New("answered 202 without a callback")
	}
	return c, err
}

// answered reports whether post's status is an answer.
func answered(code int) bool { return code == 200 || code == 202 }

// msg is a new message as the harness sees it: an interaction's first
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

// idMatching is the first custom id of m matching re.
func (m msg) idMatching(re string) (string, error) {
	rx := regexp.MustCompile(re)
	for _, id := range m.customIDs() {
		if rx.MatchString(id) {
			return id, nil
		}
	}
	return "", fmt.Errorf("no component matching %s in %v (%q)", re, m.customIDs(), m.text())
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
func (w *fleet) board(from int, token, channel string, timeout time.Duration) (msg, bool) {
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

func num(v any) float64 { f, _ := v.(float64); return f }

// driver plays many games at once against several serve instances on one
// database, each interaction sent to a random instance, as a load
// balancer would (a connection refused by a dead instance is retried on
// another).
type driver struct {
	w     *fleet
	procs []*serveProc
	st    *store.Store
	sem   chan struct{} // bounds the interactions in flight
	next  atomic.Int64
	// errorf reports a broken expectation of the harness itself.
	errorf func(format string, args ...any)
	// tolerant keeps playing when a live instance fails an interaction or
	// its board does not come: the player tries again, the failure is
	// counted (loadtest); otherwise the move fails (tests).
	tolerant bool
	// boardWait is how long a move waits for its board (default 30 s).
	boardWait time.Duration

	mu        sync.Mutex
	latencies []time.Duration // per acknowledged move: POST sent → board received
	answers   []time.Duration // per acknowledged move: POST sent → answer received
	moves     []moveRecord    // every move played
	unacked   int             // moves committed but never acknowledged (instance killed)
	retried   int             // interactions resent to another instance
	failures  int             // interactions a live instance failed (tolerant)
	late      int             // moves whose board did not come within boardWait
	deferrals int             // moves first answered "thinking…"
}

// moveRecord is one played move, for checking afterwards that its board
// and ping arrived and the store kept it.
type moveRecord struct {
	g        *mgame
	ply      int // 1-based
	mv       string
	tokens   []string // the interactions that sent it (a retry adds one)
	from     int      // the fake's call index when it was first sent
	mover    bbUser
	next     bbUser        // the player to move after it, whom the board pings
	boardID  string        // "" while its board was not seen
	answered time.Duration // POST sent → answer received; -1: no answer
}

func newFleetDriver(w *fleet, procs []*serveProc, db string, inFlight int, errorf func(string, ...any)) (*driver, error) {
	st, err := store.Open(context.Background(), db)
	if err != nil {
		return nil, err
	}
	return &driver{w: w, procs: procs, st: st, sem: make(chan struct{}, inFlight), errorf: errorf, boardWait: 30 * time.Second}, nil
}

// pick chooses a random instance other than those in tried, as a load
// balancer retrying elsewhere would; nil once all were tried.
func (d *driver) pick(tried map[*serveProc]bool) *serveProc {
	var live []*serveProc
	for _, p := range d.procs {
		if !tried[p] {
			live = append(live, p)
		}
	}
	if len(live) == 0 {
		return nil
	}
	return live[rand.IntN(len(live))]
}

func dead(p *serveProc) bool {
	if p.killed.Load() {
		return true
	}
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// send posts ev to a random instance, to another one when the chosen one
// refuses the connection; it returns the instance that took it.
func (d *driver) send(ev map[string]any) (*serveProc, map[string]any, error) {
	d.sem <- struct{}{}
	defer func() { <-d.sem }()
	var lastErr error
	tried := map[*serveProc]bool{}
	for {
		p := d.pick(tried)
		if p == nil {
			break
		}
		tried[p] = true
		code, resp, err := d.w.post(p, ev)
		if err == nil && answered(code) {
			return p, resp, nil
		}
		if err == nil {
			err = fmt.Errorf("HTTP %d", code)
		}
		lastErr = err
		if !dead(p) {
			return p, nil, err // a live instance failed: a real error
		}
		d.mu.Lock()
		d.retried++
		d.mu.Unlock()
	}
	return nil, nil, lastErr
}

// awaitBoard waits for the board the interaction produces, giving up early
// when the instance that took it dies.
func (d *driver) awaitBoard(p *serveProc, from int, token, channel string) (msg, bool) {
	deadline := time.Now().Add(d.boardWait)
	for time.Now().Before(deadline) {
		wasDead := dead(p)
		if m, ok := d.w.board(from, token, channel, min(250*time.Millisecond, time.Until(deadline))); ok {
			return m, true
		}
		if wasDead {
			return msg{}, false
		}
	}
	return msg{}, false
}

// mgame is one game of the run as the driver knows it.
type mgame struct {
	ch           string
	white, black bbUser
	id           int64
	rules        engine.Rules
	pos          engine.Position
	played       []string // committed moves, in order
	acked        []bool   // played[i] was acknowledged (its board arrived)
	rng          *rand.Rand
	resigned     bool
}

func (g *mgame) player(s engine.Side) bbUser {
	if s == engine.Black {
		return g.black
	}
	return g.white
}

// create has white challenge black with clock and black accept.
func (d *driver) create(g *mgame, kind, clock string) error {
	n := d.next.Add(1)
	g.ch = fmt.Sprint(730000000000000000 + n)
	g.white = bbUser{fmt.Sprint(740000000000000000 + 2*n), "w" + fmt.Sprint(n)}
	g.black = bbUser{fmt.Sprint(740000000000000001 + 2*n), "b" + fmt.Sprint(n)}
	rules, err := games.Lookup(kind)
	if err != nil {
		return err
	}
	g.rules = rules
	if g.pos, err = rules.Start(""); err != nil {
		return err
	}
	from := d.w.f.Count()
	chal := d.w.slash(g.white, g.ch, "challenge", "opponent", g.black, "game", kind, "color", "white", "thread", false, "clock", clock)
	_, resp, err := d.send(chal)
	if err != nil {
		return fmt.Errorf("challenge: %w", err)
	}
	data, _ := resp["data"].(map[string]any)
	if deferred(resp) {
		// A busy instance said "thinking…": the challenge is its
		// follow-up.
		c := d.w.f.Await(from, d.boardWait, func(c *discordtest.Call) bool { return isNewPublic(c, chal["token"].(string), g.ch) })
		if c == nil {
			return fmt.Errorf("challenge deferred and never sent")
		}
		data = c.Payload
	}
	if data == nil || int(num(data["flags"]))&64 != 0 {
		return fmt.Errorf("challenge refused: %v", resp)
	}
	accept := ""
	for _, id := range (msg{payload: data}).customIDs() {
		if strings.HasSuffix(id, ":accept") {
			accept = id
		}
	}
	if accept == "" {
		return fmt.Errorf("no accept button: %v", data)
	}
	from = d.w.f.Count()
	ev := d.w.click(g.black, g.ch, d.w.f.NewID(), accept)
	p, _, err := d.send(ev)
	if err != nil {
		return fmt.Errorf("accept: %w", err)
	}
	board, ok := d.awaitBoard(p, from, ev["token"].(string), g.ch)
	if !ok {
		var seen []string
		for _, c := range d.w.f.CallsFrom(from) {
			if strings.Contains(c.Path, ev["token"].(string)) || strings.Contains(c.Path, g.ch) {
				seen = append(seen, fmt.Sprintf("%s %s %d %d files %v", c.Method, c.Path, c.Status, len(c.Files), c.Payload["content"]))
			}
		}
		return fmt.Errorf("game in %s: no board after accept; calls %v\n%s", g.ch, seen, p.logs.String())
	}
	resign, err := board.idMatching(`^g:\d+:\d+:resign$`)
	if err != nil {
		return fmt.Errorf("game in %s: %w", g.ch, err)
	}
	g.id, _ = strconv.ParseInt(strings.Split(resign, ":")[1], 10, 64)
	return nil
}

// move plays a random legal move that does not end the game. A move whose
// instance died before answering is looked up in the store: committed, it
// counts as played (unacknowledged); otherwise it is sent again.
func (d *driver) move(g *mgame) error {
	var cands []string
	for _, m := range g.pos.LegalMoves() {
		if q, err := g.pos.Play(m); err == nil && !q.Status().Over() {
			cands = append(cands, g.pos.FormatMove(m))
		}
	}
	if len(cands) == 0 {
		return nil
	}
	mv := cands[g.rng.IntN(len(cands))]
	mover := g.player(g.pos.Turn())
	rec := moveRecord{g: g, mv: mv, from: d.w.f.Count(), mover: mover, answered: -1}
	// record notes the move once played; its board and ping are checked
	// afterwards (loadtest).
	record := func() {
		rec.ply, rec.next = len(g.played), g.player(g.pos.Turn())
		d.mu.Lock()
		d.moves = append(d.moves, rec)
		d.mu.Unlock()
	}
	for attempt := 0; attempt < 4; attempt++ {
		from := d.w.f.Count()
		ev := d.w.slash(mover, g.ch, "move", "move", mv)
		token := ev["token"].(string)
		rec.tokens = append(rec.tokens, token)
		start := time.Now()
		p, resp, err := d.send(ev)
		answeredIn := time.Since(start)
		if err == nil {
			if data, _ := resp["data"].(map[string]any); data != nil && int(num(data["flags"]))&64 != 0 && !deferred(resp) {
				// Refused: only expected when an earlier try committed.
				if d.committed(g, mv) {
					record()
					return nil
				}
				return fmt.Errorf("game %d: move %q refused: %v", g.id, mv, data["content"])
			}
			if deferred(resp) {
				d.mu.Lock()
				d.deferrals++
				d.mu.Unlock()
			}
			board, ok := d.awaitBoard(p, from, token, g.ch)
			if ok || d.tolerant && !dead(p) && d.stored(g, mv) {
				lat := time.Since(start)
				d.play(g, mv, ok)
				rec.boardID, rec.answered = board.id, answeredIn
				d.mu.Lock()
				if ok {
					d.latencies = append(d.latencies, lat)
				} else {
					d.late++
				}
				d.answers = append(d.answers, answeredIn)
				d.mu.Unlock()
				record()
				return nil
			}
			if !dead(p) && !d.tolerant {
				return fmt.Errorf("game %d: move %q: no board from a live instance", g.id, mv)
			}
		} else if p != nil && !d.tolerant {
			return fmt.Errorf("game %d: move %q: %w", g.id, mv, err)
		} else if p != nil {
			d.mu.Lock()
			d.failures++
			d.mu.Unlock()
		}
		if d.committed(g, mv) {
			record()
			return nil
		}
		d.mu.Lock()
		d.retried++
		d.mu.Unlock()
	}
	return fmt.Errorf("game %d: move %q never went through", g.id, mv)
}

// deferred reports whether an interaction's first response is a deferral
// (type 5, "thinking…", ephemeral so that the public answer is a new
// follow-up): the answer comes later.
func deferred(resp map[string]any) bool { return num(resp["type"]) == 5 }

// stored reports whether the store has mv at the game's next ply.
func (d *driver) stored(g *mgame, mv string) bool {
	moves, err := d.st.Moves(context.Background(), g.id)
	return err == nil && len(moves) > len(g.played) && moves[len(g.played)].Notation == mv
}

// committed reports whether the store has mv at the game's next ply (an
// unacknowledged move of a killed instance), and then plays it.
func (d *driver) committed(g *mgame, mv string) bool {
	if !d.stored(g, mv) {
		return false
	}
	d.play(g, mv, false)
	d.mu.Lock()
	d.unacked++
	d.mu.Unlock()
	return true
}

func (d *driver) play(g *mgame, mv string, acked bool) {
	m, err := g.pos.ParseMove(mv)
	if err == nil {
		g.pos, err = g.pos.Play(m)
	}
	if err != nil {
		d.errorf("game %d: tracking %q: %v", g.id, mv, err)
		return
	}
	g.played = append(g.played, mv)
	g.acked = append(g.acked, acked)
}

// percentile of sorted durations.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(p*float64(len(d))))]
}
