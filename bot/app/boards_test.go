package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// stripNotifier is a transport whose StripBoard answers from a script
// (nil: success), recording what it stripped.
type stripNotifier struct {
	fakeNotifier
	mu       sync.Mutex
	script   []error
	stripped []string
	tries    int
}

func (n *stripNotifier) StripBoard(_ context.Context, ch, msg string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tries++
	if len(n.script) > 0 {
		err := n.script[0]
		n.script = n.script[1:]
		if err != nil {
			return err
		}
	}
	n.stripped = append(n.stripped, msg)
	return nil
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestBoardSweep: the strip posts remove every superseded board's buttons
// and nothing else; a global 429 holds every strip post for retry_after, a
// route 429 reschedules after its retry_after, other failures back off
// and are retried past the outbox's give-up count (logged, turning to
// errors), and a deleted message counts as stripped.
func TestBoardSweep(t *testing.T) {
	ctx := context.Background()
	clk := clock.NewFake(t0)
	n := &stripNotifier{}
	logs := &syncBuf{}
	h := &harness{t: t, clk: clk, ctx: ctx}
	h.b = newBot(Config{}, newTestRepo(t), clk, n, slog.New(slog.NewTextHandler(logs, nil)))
	h.n = &n.fakeNotifier
	st := h.b.St.(*storeRepo).st
	game := h.StartGame()
	record := func(seq int, id string) {
		t.Helper()
		view.Reply{Sent: h.b.BoardRecorder(game, seq)}.RecordSent(ctx, "", id, view.Hook{})
	}
	record(1, "b1")
	record(3, "b3")
	record(2, "b2") // known late: superseded at once
	const failures = stripLoudAfter + 1
	n.script = []error{fmt.Errorf("edit: %w", &RateLimited{After: 3 * time.Second, Global: true})}
	for range failures {
		n.script = append(n.script, errors.New("discord: 503"))
	}
	n.script = append(n.script, &RateLimited{After: 700 * time.Millisecond}, fmt.Errorf("strip: %w", ErrMessageGone))

	// The global 429: every pending strip post waits 3 s, none is tried.
	// The strip is requeued and logged once, as a warning: the tick has
	// no error of its own to report.
	if err := h.b.Tick(ctx); err != nil {
		t.Fatalf("a requeued strip made the tick fail: %v", err)
	}
	if l := logs.String(); strings.Count(l, "strip old board buttons: will retry") != 1 || strings.Contains(l, "level=ERROR") {
		t.Fatalf("the rate-limited strip was not logged once as a warning:\n%s", l)
	}
	out, err := st.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range out {
		if m.Kind == store.OutboxStrip && m.State == store.OutboxPending && m.Due.Before(t0.Add(3*time.Second)) {
			t.Fatalf("strip post %d due %v, before the global limit's end", m.ID, m.Due)
		}
	}
	if n.tries != 1 {
		t.Fatalf("%d strip attempts during a global limit", n.tries)
	}
	for i := 0; i < 40 && n.tries < failures+3; i++ {
		clk.Advance(stripMaxPause)
		_ = h.b.Tick(ctx)
	}
	for i := 0; i < 5; i++ { // drain what is left
		clk.Advance(stripMaxPause)
		_ = h.b.Tick(ctx)
	}
	if left, err := st.SupersededLive(ctx); left != 0 || err != nil {
		t.Fatalf("%d superseded boards still live (%v) after %d tries", left, err, n.tries)
	}
	got := strings.Join(n.stripped, ",")
	if strings.Contains(got, "b3") || strings.Count(got, "b1")+strings.Count(got, "b2") != 1 {
		// One of b1/b2 was "gone" (the last scripted answer), the other stripped.
		t.Fatalf("stripped %q", got)
	}
	out, _ = st.Outbox(ctx)
	for _, m := range out {
		if m.Kind == store.OutboxStrip && m.State != store.OutboxSent {
			t.Fatalf("strip post %d ended %s: %s", m.ID, m.State, m.LastError)
		}
	}
	l := logs.String()
	if !strings.Contains(l, "level=WARN msg=\"strip old board buttons: will retry\"") || !strings.Contains(l, "level=ERROR msg=\"strip old board buttons: will retry\"") {
		t.Fatalf("failures not logged as warnings, then errors:\n%s", l)
	}
	if strings.Contains(l, "giving up") {
		t.Fatalf("a strip was given up:\n%s", l)
	}
}

// TestBoardSeq: the revision a board reply is recorded at.
func TestBoardSeq(t *testing.T) {
	btn := func(id string) [][]view.Component { return [][]view.Component{{{Kind: view.Button, CustomID: id}}} }
	for _, c := range []struct {
		r    view.Reply
		want int
	}{
		{view.Reply{Sent: boardRecorder{nil, 7, 4}, Components: btn(view.GameID(7, 4, "pick"))}, 4},
		{view.Reply{Sent: boardRecorder{nil, 7, 0}, Components: btn(view.GameID(7, 0, "resign"))}, 0},
		{view.Reply{Sent: boardRecorder{nil, 7, 0}, Components: btn(view.GameID(7, 9, "record"))}, 9},
		{view.Reply{Sent: boardRecorder{nil, 7, 0}, Components: btn(view.GameID(8, 9, "record"))}, -1},
		{view.Reply{Sent: boardRecorder{nil, 7, 0}}, -1},
	} {
		if got := c.r.Sent.(boardRecorder).seqOf(c.r); got != c.want {
			t.Errorf("%+v: board seq %d, want %d", c.r, got, c.want)
		}
	}
}

// hookNotifier is a stripNotifier that can strip through interaction
// webhooks, recording which boards went that way and with which token.
type hookNotifier struct {
	stripNotifier
	via []string // message:token:hookMessage
}

// testHookLifetime is the fakes' token lifetime: Discord's, as the
// adapter says it.
const testHookLifetime = 14 * time.Minute

func (n *hookNotifier) HookLifetime() time.Duration { return testHookLifetime }

func (n *hookNotifier) StripBoardVia(_ context.Context, ch, msg, token, hookMessage string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.via = append(n.via, msg+":"+token+":"+hookMessage)
	return nil
}

// TestBoardSweepWebhook: a superseded board whose interaction token is
// younger than the transport says tokens live is stripped through that webhook (no bot-token
// request); an older one, or one posted with the bot token, by the bot
// token's edit.
func TestBoardSweepWebhook(t *testing.T) {
	ctx := context.Background()
	clk := clock.NewFake(t0)
	n := &hookNotifier{}
	h := &harness{t: t, clk: clk, ctx: ctx}
	h.b = newBot(Config{}, newTestRepo(t), clk, n, slog.New(slog.DiscardHandler))
	h.n = &n.fakeNotifier
	st := h.b.St.(*storeRepo).st
	game := h.StartGame()
	for _, c := range []struct {
		seq        int
		id, token  string
		issuedBack time.Duration
	}{
		{1, "stale", "tokOld", testHookLifetime + time.Second},
		{2, "posted", "", 0},
		{3, "fresh", "tokNew", testHookLifetime - time.Minute},
		{4, "current", "tokCur", 0},
	} {
		hook := store.BoardHook{}
		if c.token != "" {
			hook = store.BoardHook{Token: c.token, Message: "@original", Issued: clk.Now().Add(-c.issuedBack)}
		}
		if err := st.RecordBoardVia(ctx, game, c.seq, c.id, hook); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.b.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(n.via, ","); got != "fresh:tokNew:@original" {
		t.Fatalf("stripped through webhooks: %q", got)
	}
	if got := strings.Join(n.stripped, ","); got != "stale,posted" {
		t.Fatalf("stripped with the bot token: %q", got)
	}
	if left, err := st.SupersededLive(ctx); left != 0 || err != nil {
		t.Fatalf("%d superseded boards still live (%v)", left, err)
	}
}
