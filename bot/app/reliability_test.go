package app

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
)

// confirmFor walks the picker from a board's "pick" button by first choices
// to its Confirm button.
func confirmFor(t *testing.T, h *harness, who User, board []view.Reply) string {
	t.Helper()
	rs := h.click(who, findID(t, board, "pick"))
	for range 10 {
		m := menuOf(t, rs)
		if m == nil {
			break
		}
		rs = h.click(who, m.CustomID, m.Options[0].Value)
	}
	for _, id := range customIDs(rs) {
		if strings.Contains(id, ":pickok:") {
			return id
		}
	}
	t.Fatalf("no Confirm: %+v", rs)
	return ""
}

// A takeback followed by a different move reaches the same ply again; the
// buttons and the picker's Confirm drawn before the takeback must be
// refused as stale, not applied to the new position (issue 18: they were
// pinned to the ply and passed).
func TestStaleComponentsAfterTakeback(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	moves := func() []string {
		var ns []string
		h.legalMove(id, func(all []string) string { ns = all; return all[0] })
		return ns
	}
	first := moves()
	board := h.slash(alice, "move", "move="+first[0])
	mustNotRefuse(t, board)
	confirm := confirmFor(t, h, bob, board)
	oldPick := findID(t, board, "pick")
	rs := h.slash(alice, "takeback")
	mustNotRefuse(t, rs)
	mustNotRefuse(t, h.click(bob, findID(t, rs, "tbyes")))
	mustNotRefuse(t, h.slash(alice, "move", "move="+first[len(first)-1]))
	g := h.game(id)
	if g.Ply != 1 || g.Last == first[0] {
		t.Fatalf("setup: ply %d last %q", g.Ply, g.Last)
	}
	mustRefuse(t, h.click(bob, confirm), "earlier position")
	mustRefuse(t, h.click(bob, oldPick), "earlier position")
	if g2 := h.game(id); g2.Ply != 1 || g2.Seq != g.Seq {
		t.Fatalf("a stale component changed the game: ply %d seq %d", g2.Ply, g2.Seq)
	}
	// The Confirm names the move itself.
	if !strings.Contains(confirm, ":pickok:") || strings.HasSuffix(confirm, ":pickok:") {
		t.Fatalf("confirm %q carries no move", confirm)
	}
}

// The scheduler writes to each player in the Discord language last seen
// from them when they chose none with /settings (it fell back to English).
func TestSchedulerUsesSeenLocale(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	c := Command{Kind: KindSlash, Name: "board", User: alice, GuildID: "guild", ChannelID: "chan", Locale: "pt-BR", Options: map[string]string{"public": "true"}}
	mustNotRefuse(t, h.b.Handle(h.ctx, c))
	h.clk.Advance(9*time.Minute + time.Second)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps := h.n.all()
	if len(ps) != 1 || !strings.Contains(ps[0].Reply.Content, "restam") {
		t.Fatalf("reminder to a Portuguese speaker: %+v", ps)
	}
	// /settings still wins.
	h.slash(alice, "settings", "language=th")
	if got := h.b.tFor(h.ctx, alice.ID, "remind.low", "a", "b", "c", "d"); !strings.Contains(got, "เหลือเวลา") {
		t.Fatalf("settings ignored: %q", got)
	}
	_ = id
}

// countingRepo counts writes of the seen locale.
type countingRepo struct {
	Storage
	seenWrites atomic.Int32
}

func (c *countingRepo) setSeenLocale(ctx context.Context, id, loc string) error {
	c.seenWrites.Add(1)
	return c.Storage.setSeenLocale(ctx, id, loc)
}

// The seen locale is written only when it changes, not on every
// interaction.
func TestSeenLocaleWrittenOnChange(t *testing.T) {
	h := newHarness(t, Config{})
	cr := &countingRepo{Storage: h.b.St}
	h.b.St = cr
	for _, loc := range []string{"th", "th", "th", "pt-BR", "pt-BR", "th"} {
		h.b.Handle(h.ctx, Command{Kind: KindSlash, Name: "help", User: alice, ChannelID: "chan", Locale: loc})
	}
	if n := cr.seenWrites.Load(); n != 3 {
		t.Fatalf("%d writes, want 3 (th, pt-BR, th)", n)
	}
	// A new bot on the same store reads what is stored, not writing again.
	b2 := newBot(Config{}, cr, h.clk, h.n, nil)
	b2.Handle(h.ctx, Command{Kind: KindSlash, Name: "help", User: alice, ChannelID: "chan", Locale: "th"})
	if n := cr.seenWrites.Load(); n != 3 {
		t.Fatalf("restart wrote again: %d", n)
	}
}

// While the bot is down nobody's clock runs: at startup after an outage
// the running clock is extended by the downtime, its flag moved and the
// extension announced in the game (issue 18: the flag fell on the first
// tick after the restart).
func TestDowntimeNotCharged(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	if err := h.b.Tick(h.ctx); err != nil { // alive at t0
		t.Fatal(err)
	}
	h.clk.Advance(2 * time.Minute)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	h.clk.Advance(time.Hour) // down
	b2 := newBot(Config{}, h.b.St, h.clk, h.n, nil)
	if err := b2.Recover(h.ctx); err != nil {
		t.Fatal(err)
	}
	if err := b2.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	g := h.game(id)
	if g.Status != GmActive {
		t.Fatalf("the flag fell during the outage: %s %s", g.Status, g.Reason)
	}
	left := g.Remaining(clockOf(g), 0, h.clk.Now())
	if left != 8*time.Minute {
		t.Fatalf("white has %v left, want 8m (2m used before the outage)", left)
	}
	ps := h.n.all()
	if len(ps) != 1 || !strings.Contains(ps[0].Reply.Content, "1:00:00") || ps[0].Channel != g.ChannelID {
		t.Fatalf("downtime notice: %+v", ps)
	}
	// The flag falls on time afterwards, exactly once.
	h.clk.Advance(8*time.Minute + time.Second)
	for range 2 {
		if err := b2.Tick(h.ctx); err != nil {
			t.Fatal(err)
		}
	}
	if g := h.game(id); g.Reason != "timeout" {
		t.Fatalf("after the extended deadline: %s %s", g.Status, g.Reason)
	}
	flags := 0
	for _, p := range h.n.all() {
		if strings.Contains(text([]view.Reply{p.Reply}), "ran out of time") {
			flags++
		}
	}
	if flags != 1 {
		t.Fatalf("%d flag-fall posts, want 1", flags)
	}
	// A short pause (under the grace) changes nothing.
	h2 := newHarness(t, Config{})
	id2 := h2.StartGame("clock=10m+5s")
	_ = h2.b.Tick(h2.ctx)
	h2.clk.Advance(10 * time.Second)
	if err := h2.b.Recover(h2.ctx); err != nil {
		t.Fatal(err)
	}
	if g := h2.game(id2); !g.ClockState.TurnStart.Equal(t0) {
		t.Fatalf("a 10 s gap extended the clock to %v", g.ClockState.TurnStart)
	}
}

// panicRepo panics when the scheduler loads one game.
type panicRepo struct {
	Storage
	victim int64
	left   atomic.Int32
}

func (p *panicRepo) game(ctx context.Context, id int64) (*Game, error) {
	if id == p.victim && p.left.Add(-1) >= 0 {
		panic("injected")
	}
	return p.Storage.game(ctx, id)
}

// A panic while firing one event is recovered: the other events of the
// pass still fire, and the failed one fires again after its lease.
func TestSchedulerRecoversPanics(t *testing.T) {
	h := newHarness(t, Config{})
	id1 := h.StartGame("clock=10m+5s")
	h.slash(alice, "challenge", "opponent=carol", "color=white", "clock=10m+5s")
	rs := h.slash(carol, "accept")
	mustNotRefuse(t, rs)
	var id2 int64
	for _, r := range rs {
		if isBoard(r) {
			id2 = gameOf(r)
		}
	}
	pr := &panicRepo{Storage: h.b.St, victim: id1}
	pr.left.Store(2) // its reminder and its flag, both due in this pass
	h.b.St = pr
	h.clk.Advance(10*time.Minute + time.Second)
	if err := h.b.Tick(h.ctx); err == nil || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("tick: %v", err)
	}
	if g := h.game(id2); g.Reason != "timeout" {
		t.Fatalf("the other game's flag did not fall: %s", g.Reason)
	}
	if g := h.game(id1); g.Status != GmActive {
		t.Fatal("the panicking event took effect")
	}
	h.clk.Advance(claimLease + time.Second)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if g := h.game(id1); g.Reason != "timeout" {
		t.Fatalf("the retried flag did not fall: %s", g.Reason)
	}
}

// A post Discord keeps refusing is given up after maxAttempts (and the
// rest of the queue goes on).
func TestOutboxGivesUp(t *testing.T) {
	h := newHarness(t, Config{})
	h.StartGame("clock=3d")
	h.n.fail = 1000
	h.clk.Advance(48*time.Hour + time.Second) // the first reminder
	for range maxAttempts + 2 {
		_ = h.b.Tick(h.ctx)
		h.clk.Advance(backoff(maxAttempts))
	}
	h.n.fail = 0
	_ = h.b.Tick(h.ctx)
	st := h.b.St.(*storeRepo).st
	out, err := st.Outbox(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, m := range out {
		states[m.State]++
		if m.State == "failed" && m.Attempts != maxAttempts {
			t.Errorf("given up after %d attempts", m.Attempts)
		}
	}
	if states["failed"] != 1 {
		t.Fatalf("outbox states %v", states)
	}
}

// Threefold repetition through the bot, counted from the stored keys
// (Camelot: knights shuffling back to the start twice), and a takeback
// takes the count back with the move.
func TestRepetitionFromStoredKeys(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("game=camelot", "clock=untimed")
	shuffle := []string{"C6-C5", "C11-C12", "C5-C6", "C12-C11"}
	play := func(who User, mv string) {
		t.Helper()
		mustNotRefuse(t, h.slash(who, "move", "move="+mv))
	}
	for round := range 2 {
		for i, mv := range shuffle {
			if round == 1 && i == 3 {
				break
			}
			play([]User{alice, bob}[i%2], mv)
		}
	}
	if g := h.game(id); g.Status != GmActive {
		t.Fatalf("over before the third occurrence: %s", g.Reason)
	}
	// Take the last move back and play it again: the count is the same.
	rs := h.slash(alice, "takeback")
	mustNotRefuse(t, rs)
	mustNotRefuse(t, h.click(bob, findID(t, rs, "tbyes")))
	play(alice, "C5-C6")
	if g := h.game(id); g.Status != GmActive {
		t.Fatalf("the takeback left a count behind: %s", g.Reason)
	}
	play(bob, "C12-C11")
	if g := h.game(id); g.Status != gmFinished || g.Reason != "repetition" {
		t.Fatalf("third occurrence: %s %s", g.Status, g.Reason)
	}
}

// gateNotifier holds every post until released, counting how many are in
// flight at once.
type gateNotifier struct {
	entered chan string
	release chan struct{}
	in, max atomic.Int32
}

func (n *gateNotifier) Post(_ context.Context, ch string, _ view.Reply) (string, error) {
	v := n.in.Add(1)
	for {
		m := n.max.Load()
		if v <= m || n.max.CompareAndSwap(m, v) {
			break
		}
	}
	n.entered <- ch
	<-n.release
	n.in.Add(-1)
	return "m-" + ch, nil
}

func (n *gateNotifier) CreateThread(context.Context, string, string, string) (string, error) {
	return "", ErrNoThreads
}

func (n *gateNotifier) Edit(context.Context, string, string, view.Reply) error { return nil }

// Posts to different channels go out in parallel, never more than
// Config.Workers at once.
func TestDeliveryIsBoundedParallel(t *testing.T) {
	h := newHarness(t, Config{})
	n := &gateNotifier{entered: make(chan string, 16), release: make(chan struct{})}
	b := newBot(Config{Workers: 2}, h.b.St, h.clk, n, nil)
	st := h.b.St.(*storeRepo).st
	for i := range 6 {
		if _, err := st.Enqueue(h.ctx, store.Message{Channel: "c" + strconv.Itoa(i), Payload: `{"Content":"hi"}`}); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error)
	go func() { done <- b.deliver(h.ctx) }()
	<-n.entered
	<-n.entered // two in flight: both workers busy
	for range 1000 {
		runtime.Gosched()
	}
	select {
	case ch := <-n.entered:
		t.Fatalf("a third post (%s) started with 2 workers", ch)
	default:
	}
	close(n.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if m := n.max.Load(); m != 2 {
		t.Fatalf("max in flight %d, want 2", m)
	}
	out, _ := st.Outbox(h.ctx)
	for _, m := range out {
		if m.State != "sent" || m.MessageID != "m-"+m.Channel {
			t.Errorf("post %d: %s %q", m.ID, m.State, m.MessageID)
		}
	}
}
