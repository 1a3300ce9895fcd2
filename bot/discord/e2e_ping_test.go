package discord

import (
	"strings"
	"testing"
	"time"
)

// A move whose interaction answer Discord never takes (the callback fails
// until the adapter gives up) still pings the opponent: the fallback the
// move queued in its own transaction is posted by the scheduler once, as a
// new channel message with the mention in its content and in
// allowed_mentions. A move whose answer arrived posts nothing more.
func e2eLostAnswerPingsLater(t *testing.T, w *world) {
	e := startBot(t, w)
	_, id := e.startGame(t, "10m")
	g := newGame(t, checkMap)

	// A normal move: the answer is recorded, its fallback cancelled.
	e.move(t, g, g.anyMove())
	for range 3 {
		w.clk.Advance(time.Minute)
		if news := publicNew(e.tick(t)); len(news) != 0 {
			t.Fatalf("a delivered move was pinged again: %s", text(news[0]))
		}
	}

	// Bob's move: Discord answers 500 to every try of the callback.
	w.f.failNext("POST", "/callback", 500, 0, respondAttempts)
	mv := g.anyMove()
	calls := e.do(e.slash(bob, gameChannel, "move", "move", mv))
	g.play(mv)
	// Up to respondAttempts tries, fewer when the 3 s window closes first (a
	// loaded machine); all failed.
	if got := statuses(calls, "POST", "/callback"); len(got) == 0 || len(got) > respondAttempts || got[len(got)-1] != 500 {
		t.Fatalf("callback statuses %v, want up to %d failures", got, respondAttempts)
	}
	if news := publicNew(calls); len(news) != 0 {
		t.Fatalf("the failed answer still made %d messages", len(news))
	}
	// Nothing before the fallback is due, then exactly one ping.
	if news := publicNew(e.tick(t)); len(news) != 0 {
		t.Fatalf("the fallback went at once: %s", text(news[0]))
	}
	var pings []*call
	for range 4 {
		w.clk.Advance(time.Minute)
		pings = append(pings, publicNew(e.tick(t))...)
	}
	if len(pings) != 1 {
		t.Fatalf("%d late pings, want exactly 1", len(pings))
	}
	p := pings[0]
	if p.Method != "POST" || p.Path != "/api/v9/channels/"+gameChannel+"/messages" {
		t.Fatalf("the late ping went as %s %s", p.Method, p.Path)
	}
	pinged(t, p, "the late ping", alice.id)
	if s := text(p); !strings.Contains(s, "bob") || !strings.Contains(s, "#"+id) {
		t.Errorf("the late ping does not say what happened: %q", s)
	}
	checkPNG(t, p)
	// It became the game's board: its buttons play.
	if ids := customIDs(p); len(ids) == 0 {
		t.Error("the late board has no buttons")
	}
}

// Reading the answer's message id is what records it as delivered: a
// server error there is retried, so a delivered answer is not pinged
// again.
func e2eAnswerRecordedDespiteReadError(t *testing.T, w *world) {
	e := startBot(t, w)
	e.startGame(t, "10m")
	g := newGame(t, checkMap)
	w.f.failNext("GET", "/messages/@original", 500, 0, 1)
	_, calls := e.move(t, g, g.anyMove())
	if got := statuses(calls, "GET", "/messages/@original"); len(got) != 2 || got[0] != 500 {
		t.Fatalf("reads of the answer %v, want a 500 then success", got)
	}
	for range 3 {
		w.clk.Advance(time.Minute)
		if news := publicNew(e.tick(t)); len(news) != 0 {
			t.Fatalf("a delivered answer was pinged again: %s", text(news[0]))
		}
	}
}

// A deferred move whose answer never lands (the follow-up fails past the
// retries, or the token has expired when the placeholder is filled) is
// still pinged once, by the fallback the move queued: a new channel
// message through the outbox. The game goes on.
func e2eDeferredAnswerLostPingsLater(t *testing.T, w *world) {
	w.mode.slow = true
	e := startBot(t, w)
	_, id := e.startGame(t, "10m")
	g := newGame(t, checkMap)
	for k, fail := range []func(){
		func() { w.f.failNext("POST", "/webhooks/"+testApp+"/", 500, 0, maxAttempts) },
		func() { w.f.failNext("PATCH", "/messages/@original", 401, 50027, maxAttempts) },
	} {
		mover, next := bob, alice
		if k == 1 {
			mover, next = alice, bob
		}
		if k == 0 {
			e.move(t, g, g.anyMove()) // alice's move, delivered
		}
		fail()
		mv := g.anyMove()
		calls := e.do(e.slash(mover, gameChannel, "move", "move", mv))
		g.play(mv)
		if news := publicNew(calls); len(news) != 0 {
			t.Fatalf("case %d: the failed answer still made %d public messages", k, len(news))
		}
		var pings []*call
		for range 4 {
			w.clk.Advance(time.Minute)
			pings = append(pings, publicNew(e.tick(t))...)
		}
		if len(pings) != 1 {
			t.Fatalf("case %d: %d late pings, want exactly 1", k, len(pings))
		}
		p := pings[0]
		if p.Path != "/api/v9/channels/"+gameChannel+"/messages" {
			t.Fatalf("case %d: the late ping went as %s %s", k, p.Method, p.Path)
		}
		pinged(t, p, "the late ping", next.id)
		if s := text(p); !strings.Contains(s, mover.name) || !strings.Contains(s, "#"+id) {
			t.Errorf("case %d: the late ping does not say what happened: %q", k, s)
		}
		checkPNG(t, p)
	}
}
