package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

// driver plays many games at once against several serve instances on one
// database, each interaction sent to a random instance, as a load
// balancer would (a connection refused by a dead instance is retried on
// another).
type driver struct {
	t     testing.TB
	w     *bbWorld
	procs []*serveProc
	st    *store.Store
	sem   chan struct{} // bounds the interactions in flight
	next  atomic.Int64

	mu        sync.Mutex
	latencies []time.Duration // per acknowledged move: POST sent → board received
	unacked   int             // moves committed but never acknowledged (instance killed)
	retried   int             // interactions resent to another instance
}

func newDriver(t testing.TB, w *bbWorld, procs []*serveProc, db string, inFlight int) *driver {
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &driver{t: t, w: w, procs: procs, st: st, sem: make(chan struct{}, inFlight)}
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
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		wasDead := dead(p)
		if m, ok := d.w.board(from, token, channel, 250*time.Millisecond); ok {
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
	_, resp, err := d.send(d.w.slash(g.white, g.ch, "challenge", "opponent", g.black, "game", kind, "color", "white", "thread", false, "clock", clock))
	if err != nil {
		return fmt.Errorf("challenge: %w", err)
	}
	data, _ := resp["data"].(map[string]any)
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
	from := d.w.f.Count()
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
	id := strings.Split(board.idWith(d.t, `^g:\d+:\d+:resign$`), ":")[1]
	g.id, _ = strconv.ParseInt(id, 10, 64)
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
	for attempt := 0; attempt < 4; attempt++ {
		from := d.w.f.Count()
		ev := d.w.slash(mover, g.ch, "move", "move", mv)
		start := time.Now()
		p, resp, err := d.send(ev)
		if err == nil {
			if data, _ := resp["data"].(map[string]any); data != nil && int(num(data["flags"]))&64 != 0 {
				// Refused: only expected when an earlier try committed.
				if d.committed(g, mv) {
					return nil
				}
				return fmt.Errorf("game %d: move %q refused: %v", g.id, mv, data["content"])
			}
			if _, ok := d.awaitBoard(p, from, ev["token"].(string), g.ch); ok {
				lat := time.Since(start)
				d.play(g, mv, true)
				d.mu.Lock()
				d.latencies = append(d.latencies, lat)
				d.mu.Unlock()
				return nil
			}
			if !dead(p) {
				return fmt.Errorf("game %d: move %q: no board from a live instance", g.id, mv)
			}
		} else if p != nil {
			return fmt.Errorf("game %d: move %q: %w", g.id, mv, err)
		}
		if d.committed(g, mv) {
			return nil
		}
		d.mu.Lock()
		d.retried++
		d.mu.Unlock()
	}
	return fmt.Errorf("game %d: move %q never went through", g.id, mv)
}

// committed reports whether the store has mv at the game's next ply (an
// unacknowledged move of a killed instance), and then plays it.
func (d *driver) committed(g *mgame, mv string) bool {
	moves, err := d.st.Moves(context.Background(), g.id)
	if err != nil || len(moves) <= len(g.played) || moves[len(g.played)].Notation != mv {
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
		d.t.Errorf("game %d: tracking %q: %v", g.id, mv, err)
		return
	}
	g.played = append(g.played, mv)
	g.acked = append(g.acked, acked)
}

// resign resigns for the side to move: Resign on the current board, then
// Confirm.
func (d *driver) resign(g *mgame) error {
	gm, err := d.st.Game(context.Background(), g.id)
	if err != nil {
		return err
	}
	u := g.player(g.pos.Turn())
	custom := fmt.Sprintf("g:%d:%d:resign", g.id, gm.Seq)
	msgID := gm.MessageID
	if msgID == "" {
		msgID = d.w.f.NewID()
	}
	_, resp, err := d.send(d.w.click(u, g.ch, msgID, custom))
	if err != nil {
		return fmt.Errorf("resign: %w", err)
	}
	data, _ := resp["data"].(map[string]any)
	yes := ""
	for _, id := range (msg{payload: data}).customIDs() {
		if strings.HasSuffix(id, ":resignyes") {
			yes = id
		}
	}
	if yes == "" {
		return fmt.Errorf("game %d: no resign confirmation: %v", g.id, resp)
	}
	from := d.w.f.Count()
	ev := d.w.click(u, g.ch, d.w.f.NewID(), yes)
	p, _, err := d.send(ev)
	if err != nil {
		return fmt.Errorf("resign confirm: %w", err)
	}
	if _, ok := d.awaitBoard(p, from, ev["token"].(string), g.ch); !ok {
		// Killed before answering: the store says whether it stands.
		if gm, err := d.st.Game(context.Background(), g.id); err == nil && gm.Status != store.StatusActive {
			g.resigned = true
			return nil
		}
		return fmt.Errorf("game %d: resignation not answered", g.id)
	}
	g.resigned = true
	return nil
}

// flagPosts counts the flag-fall announcements posted in each channel
// (nonce-deduplicated resends excluded) and the deduplicated resends.
func flagPosts(f *discordtest.Fake) (perChannel map[string]int, deduped int) {
	perChannel, _, deduped = flagPostsAndLast(f)
	return perChannel, deduped
}

// flagPostsAndLast is flagPosts with the last announcement of each channel.
func flagPostsAndLast(f *discordtest.Fake) (perChannel map[string]int, last map[string]msg, deduped int) {
	perChannel, last = map[string]int{}, map[string]msg{}
	for _, c := range f.CallsFrom(0) {
		if c.Method != "POST" || !strings.HasPrefix(c.Path, "/api/v9/channels/") || !strings.HasSuffix(c.Path, "/messages") || c.Status >= 300 {
			continue
		}
		if s, _ := c.Payload["content"].(string); !strings.Contains(s, "ran out of time") {
			continue
		}
		if c.Deduped {
			deduped++
			continue
		}
		ch := strings.Split(c.Path, "/")[4]
		perChannel[ch]++
		last[ch] = msg{id: c.MsgID, payload: c.Payload, call: c}
	}
	return perChannel, last, deduped
}

// percentile of sorted durations.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(p*float64(len(d))))]
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// TestMultiInstance: three `tankbot serve` processes (the real binary) on
// one PostgreSQL, 200 games at once (TANKBOT_MULTI_GAMES), every
// interaction to a random instance, one instance SIGKILLed mid-run. A
// quarter of the games have 1-minute clocks and are abandoned after the
// accept, so their flags fall (handled by whichever instance is alive);
// the others play random moves on a 30-minute clock, half of them end by
// resignation. Checked: every acknowledged move is in the store exactly
// once at its ply, every flag-fall announced exactly once, every active
// timed game has one pending flag event for its ply, every game finished
// or at its expected ply.
func TestMultiInstance(t *testing.T) {
	db := storetest.Postgres(t)
	w := newBBWorld(t, db)
	w.f.DiscardFiles = true // hundreds of boards: keep sizes only
	// This test is about the store under several instances and a crash,
	// run with -race on a shared machine: the fake does not hold the
	// instances to Discord's 3 s here (TestBlackBoxServeTankChess does).
	w.f.ResponseWindow = time.Minute
	nGames := envInt("TANKBOT_MULTI_GAMES", 200)
	plies := envInt("TANKBOT_MULTI_PLIES", 3)
	start := time.Now()
	procs := make([]*serveProc, 3)
	var wg sync.WaitGroup
	for k := range procs {
		wg.Add(1)
		go func() { defer wg.Done(); procs[k] = w.start() }()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	d := newDriver(t, w, procs, db, 16)
	nFlag := nGames / 4
	gs := make([]*mgame, nGames)
	for i := range gs {
		gs[i] = &mgame{rng: rand.New(rand.NewPCG(uint64(i), 17))}
	}
	// The flagged games first: their minute starts at the accept.
	var failed atomic.Int32
	run := func(from, to int, fn func(*mgame) error) {
		var wg sync.WaitGroup
		for _, g := range gs[from:to] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := fn(g); err != nil {
					failed.Add(1)
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	run(0, nFlag, func(g *mgame) error { return d.create(g, "tank", "1m") })
	flagsFrom := time.Now()
	t.Logf("%d timed games created in %v", nFlag, time.Since(start).Round(time.Millisecond))
	run(nFlag, nGames, func(g *mgame) error { return d.create(g, "tank", "30m") })
	t.Logf("%d games created at %v", nGames, time.Since(start).Round(time.Millisecond))
	if failed.Load() > 0 {
		t.FailNow()
	}

	// Moves; the kill comes once a third of them are acknowledged.
	total := (nGames - nFlag) * plies
	var done atomic.Int64
	killed := make(chan struct{})
	victim := procs[rand.IntN(len(procs))]
	go func() {
		for done.Load() < int64(total/3) && failed.Load() == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		victim.kill()
		t.Logf("SIGKILL one instance after %d moves, at %v", done.Load(), time.Since(start).Round(time.Millisecond))
		close(killed)
	}()
	run(nFlag, nGames, func(g *mgame) error {
		for k := 0; k < plies; k++ {
			if err := d.move(g); err != nil {
				return err
			}
			done.Add(1)
		}
		if g.rng.IntN(2) == 0 {
			return d.resign(g)
		}
		return nil
	})
	<-killed
	t.Logf("moves done at %v: %d acknowledged, %d committed unacknowledged, %d resent", time.Since(start).Round(time.Millisecond), len(d.latencies), d.unacked, d.retried)

	// The flags fall a minute after their accept; the survivors announce
	// them. Bounded wait.
	deadline := flagsFrom.Add(time.Minute + 25*time.Second)
	for {
		per, _ := flagPosts(w.f)
		if len(per) >= nFlag || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(time.Second) // a late duplicate would show now
	per, last, deduped := flagPostsAndLast(w.f)
	t.Logf("flag-falls announced in %d channels at %v (%d nonce-deduplicated resends)", len(per), time.Since(start).Round(time.Millisecond), deduped)

	ctx := context.Background()
	for i, g := range gs {
		gm, moves, err := d.st.LoadGame(ctx, g.id)
		if err != nil {
			t.Errorf("game %d: %v", g.id, err)
			continue
		}
		// Every committed move once, at its ply, in order.
		if len(moves) != len(g.played) || gm.Ply != len(g.played) {
			t.Errorf("game %d: store has %d moves (ply %d), driver committed %d", g.id, len(moves), gm.Ply, len(g.played))
		}
		for k := 0; k < min(len(moves), len(g.played)); k++ {
			if moves[k].Ply != k+1 || moves[k].Notation != g.played[k] {
				t.Errorf("game %d: move %d is %q at ply %d, want %q", g.id, k+1, moves[k].Notation, moves[k].Ply, g.played[k])
			}
		}
		switch {
		case i < nFlag:
			if gm.Status == store.StatusActive || per[g.ch] != 1 {
				t.Errorf("game %d (1-minute clock, abandoned): status %s, %q; flag-fall announced %d times", g.id, gm.Status, gm.Reason, per[g.ch])
				continue
			}
			// The ending pings both players, and no one else.
			wantPings(t, last[g.ch], fmt.Sprintf("game %d's flag-fall", g.id), g.white.id, g.black.id)
		case g.resigned:
			if gm.Status == store.StatusActive || per[g.ch] != 0 {
				t.Errorf("game %d resigned: status %s, %d flag posts", g.id, gm.Status, per[g.ch])
			}
		default:
			if gm.Status != store.StatusActive || per[g.ch] != 0 {
				t.Errorf("game %d: status %s, %d flag posts; want active", g.id, gm.Status, per[g.ch])
				continue
			}
			evs, err := d.st.PendingEvents(ctx, g.id, "flag")
			if err != nil || len(evs) != 1 || evs[0].Ply != gm.Ply {
				t.Errorf("game %d at ply %d: pending flag events %+v (%v); want one for its ply", g.id, gm.Ply, evs, err)
			}
		}
	}
	lat := append([]time.Duration(nil), d.latencies...)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("%d games, %d acknowledged moves, p50 %v p99 %v, whole test %v", nGames, len(lat), percentile(lat, 0.5).Round(time.Millisecond), percentile(lat, 0.99).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	for _, p := range procs {
		if p == victim {
			continue
		}
		if s := p.logs.String(); strings.Contains(s, "level=ERROR") {
			t.Logf("errors logged by a survivor:\n%s", s)
		}
	}
}
