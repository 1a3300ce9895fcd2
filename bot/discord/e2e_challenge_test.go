package discord

import (
	"context"
	"strings"
	"testing"
	"time"
)

// End-to-end tests of a challenge message's lifecycle (docs/flow.md): the
// adapter records the id of the message that carries a challenge, and the
// end of the challenge edits that message (buttons gone) instead of
// posting a new one, however it ends: its expiry (by the scheduler), a
// click on it after the expiry, or a typed /accept.

// challengeMsg has alice challenge bob in gameChannel with more options
// and returns the challenge's message id and its accept button.
func (e *e2e) challengeMsg(t *testing.T, guildLocale string, more ...any) (msg, accept string) {
	t.Helper()
	ev := e.slash(alice, gameChannel, "challenge", append([]any{"opponent", userRef(bob), "color", "white"}, more...)...)
	if guildLocale != "" {
		ev["guild_locale"] = guildLocale
	}
	calls := e.do(ev)
	news := publicNew(calls)
	if len(news) != 1 {
		t.Fatalf("the challenge: %d new public messages", len(news))
	}
	pinged(t, news[0], "the challenge", bob.id)
	return e.f.originalOf(news[0]), idWith(t, news[0], `^c:\d+:accept$`)
}

// tick runs one scheduler pass and returns the REST calls it made.
func (e *e2e) tick(t *testing.T) []*call {
	t.Helper()
	from := e.f.count()
	if err := e.b.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e.f.callsFrom(from)
}

// editsOf are the successful PATCHes of message msg among calls.
func editsOf(calls []*call, msg string) []*call {
	var out []*call
	for _, c := range calls {
		if c.Method == "PATCH" && strings.HasSuffix(c.Path, "/channels/"+gameChannel+"/messages/"+msg) && c.Status < 300 {
			out = append(out, c)
		}
	}
	return out
}

// bareEdit checks that c removes every component, says want, and may ping
// nobody (allowed_mentions present and empty).
func bareEdit(t *testing.T, c *call, want, what string) {
	t.Helper()
	comps, ok := c.Payload["components"].([]any)
	if !ok || len(comps) != 0 {
		t.Errorf("%s: the edit keeps components: %v", what, c.Payload["components"])
	}
	if content, _ := c.Payload["content"].(string); !strings.Contains(content, want) {
		t.Errorf("%s: the edit says %q, want %q", what, content, want)
	}
	am, ok := c.Payload["allowed_mentions"].(map[string]any)
	if !ok {
		t.Fatalf("%s: the edit has no allowed_mentions: %v", what, c.Payload)
	}
	parse, _ := am["parse"].([]any)
	users, _ := am["users"].([]any)
	roles, _ := am["roles"].([]any)
	if len(parse)+len(users)+len(roles) != 0 {
		t.Errorf("%s: the edit may ping: %v", what, am)
	}
}

// The expiry edits the challenge message in place, in the server's
// language; nothing new is posted. A click on the dead Accept afterwards
// updates that message again (type 7), privately refusing nothing.
func e2eChallengeExpiryEditsInPlace(t *testing.T, w *world) {
	e := startBot(t, w)
	msg, accept := e.challengeMsg(t, "th")
	w.clk.Advance(24 * time.Hour)
	calls := e.tick(t)
	if news := publicNew(calls); len(news) != 0 {
		t.Errorf("the expiry posted %d new messages: %s", len(news), text(news[0]))
	}
	edits := editsOf(calls, msg)
	if len(edits) != 1 {
		t.Fatalf("want one PATCH of the challenge message %s, got %d among %d calls", msg, len(edits), len(calls))
	}
	bareEdit(t, edits[0], "คำท้าของ alice หมดอายุแล้ว", "the expiry")
	// Once only.
	if calls := e.tick(t); len(editsOf(calls, msg))+len(publicNew(calls)) != 0 {
		t.Errorf("a second pass touched the challenge again")
	}

	ev := e.click(bob, gameChannel, msg, accept)
	ev["guild_locale"] = "th"
	calls = e.do(ev)
	cb := response(t, calls)
	if typ, _ := cb.Payload["type"].(float64); typ != 7 || len(customIDs(cb)) != 0 || !strings.Contains(text(cb), "หมดอายุ") {
		t.Errorf("Accept after the expiry: want an update (type 7) without buttons saying expired, got %v", cb.Payload)
	}
	if news := publicNew(calls); len(news) != 0 {
		t.Errorf("Accept after the expiry posted %d new messages", len(news))
	}
}

// Accept clicked after the deadline but before the scheduler ran: the
// click itself expires the challenge and updates its message; the
// scheduler then has nothing left to say.
func e2eExpiredChallengeClickUpdates(t *testing.T, w *world) {
	e := startBot(t, w)
	msg, accept := e.challengeMsg(t, "")
	w.clk.Advance(24*time.Hour + time.Second)
	calls := e.do(e.click(bob, gameChannel, msg, accept))
	cb := response(t, calls)
	if typ, _ := cb.Payload["type"].(float64); typ != 7 || flags(cb) != 0 || len(customIDs(cb)) != 0 || !strings.Contains(text(cb), "The challenge from alice expired.") {
		t.Errorf("Accept after the deadline: want an update (type 7) without buttons saying expired, got %v", cb.Payload)
	}
	if news := publicNew(calls); len(news) != 0 {
		t.Errorf("the click posted %d new messages", len(news))
	}
	calls = e.tick(t)
	if len(editsOf(calls, msg))+len(publicNew(calls)) != 0 {
		t.Errorf("the scheduler announced an expiry the click already showed")
	}
}

// /accept typed: the board is the answer, and the challenge message loses
// its buttons by an edit that says who accepted (and, with a thread, where
// the game went; the thread hangs on the challenge message).
func e2eTypedAcceptRetiresChallenge(t *testing.T, w *world) {
	for k, thread := range []bool{false, true} {
		if k > 0 {
			w = w.fresh(t)
		}
		e := startBot(t, w)
		msg, _ := e.challengeMsg(t, "", "thread", thread)
		calls := e.do(e.slash(bob, gameChannel, "accept"))
		board := theBoard(t, calls, "/accept")
		pinged(t, board, "the first board", alice.id, bob.id)
		if thread && len(find(calls, "POST", "/channels/"+gameChannel+"/messages/"+msg+"/threads")) != 1 {
			t.Errorf("thread: the game's thread was not opened on the challenge message")
		}
		calls = append(calls, e.tick(t)...)
		edits := editsOf(calls, msg)
		if len(edits) != 1 {
			t.Fatalf("thread %v: want one PATCH removing the challenge's buttons, got %d", thread, len(edits))
		}
		bareEdit(t, edits[0], "bob accepted: alice (White) vs bob (Black)", "the accepted challenge")
		if content, _ := edits[0].Payload["content"].(string); thread && !strings.Contains(content, "<#"+e.f.lastThreadID()+">") {
			t.Errorf("the edit does not point to the game's thread: %q", content)
		}
	}
}

// Discord failing the edit: the outbox retries it with backoff until it
// lands, and it is never turned into a new message.
func e2eChallengeExpiryEditRetried(t *testing.T, w *world) {
	e := startBot(t, w)
	msg, _ := e.challengeMsg(t, "")
	e.f.failNext("PATCH", "/messages/"+msg, 500, 0, 3)
	w.clk.Advance(24 * time.Hour)
	from := e.f.count()
	if err := e.b.Tick(context.Background()); err == nil {
		t.Error("the refused edit was not reported")
	}
	w.clk.Advance(3 * time.Second)
	e.tick(t)
	calls := e.f.callsFrom(from)
	var failed int
	for _, c := range calls {
		if c.Method == "PATCH" && strings.HasSuffix(c.Path, "/messages/"+msg) && c.Status >= 500 {
			failed++
		}
	}
	if failed != 3 || len(editsOf(calls, msg)) != 1 {
		t.Errorf("want 3 refused PATCHes then one that lands, got %d and %d", failed, len(editsOf(calls, msg)))
	}
	if news := publicNew(calls); len(news) != 0 {
		t.Errorf("%d new messages", len(news))
	}
}

// A rematch offer, made with the final board's button, is a challenge like
// any other: its message is recorded and edited when it expires.
func e2eRematchOfferExpires(t *testing.T, w *world) {
	w, e, _, fl := tankFlow(t, w, "30m")
	fl.resign(bob, "White (alice) wins — by resignation")
	calls := e.do(e.click(bob, gameChannel, e.f.originalOf(fl.board), idWith(t, fl.board, `^g:`+fl.id+`:\d+:rematch$`)))
	news := publicNew(calls)
	if len(news) != 1 {
		t.Fatalf("the rematch offer: %d new public messages", len(news))
	}
	pinged(t, news[0], "the rematch offer", alice.id)
	msg := e.f.originalOf(news[0])
	w.clk.Advance(24 * time.Hour)
	calls = e.tick(t)
	edits := editsOf(calls, msg)
	if len(edits) != 1 || len(publicNew(calls)) != 0 {
		t.Fatalf("the expired rematch offer: %d edits of %s, %d new messages; want 1 and 0", len(edits), msg, len(publicNew(calls)))
	}
	bareEdit(t, edits[0], "The challenge from bob expired.", "the expired rematch offer")
}
