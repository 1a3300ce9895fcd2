package app

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
)

// The challenge message's lifecycle (docs/flow.md): the transport records
// its id, and whatever ends the challenge other than a click on it (the
// expiry, a typed /accept) edits it through the outbox, buttons gone.

// sent plays the transport: it records the id of the message each tracked
// challenge reply became, and returns the challenge's id.
func (h *harness) sent(rs []view.Reply, messageID string) int64 {
	h.t.Helper()
	for _, r := range rs {
		if challengeOf(r) != 0 {
			if !r.Tracked() {
				h.t.Fatalf("a challenge reply that is not tracked: %+v", r)
			}
			if err := h.b.St.setChallengeMessage(h.ctx, challengeOf(r), messageID); err != nil {
				h.t.Fatal(err)
			}
			return challengeOf(r)
		}
	}
	h.t.Fatalf("no reply carries a challenge: %+v", rs)
	return 0
}

func (h *harness) tick() error {
	h.t.Helper()
	return h.b.Tick(h.ctx)
}

// tickEdits runs a scheduler pass and returns every edit so far, which
// must number want.
func (h *harness) tickEdits(want int) []edit {
	h.t.Helper()
	if err := h.tick(); err != nil {
		h.t.Fatal(err)
	}
	es := h.n.allEdits()
	if len(es) != want {
		h.t.Fatalf("%d edits, want %d: %+v", len(es), want, es)
	}
	return es
}

// bare checks that e edits message msg in "chan", removing its buttons and
// saying want.
func bare(t *testing.T, e edit, msg, want string) {
	t.Helper()
	if e.Channel != "chan" || e.Message != msg || len(e.Reply.Components) != 0 || len(e.Reply.Mentions) != 0 || !strings.Contains(e.Reply.Content, want) {
		t.Errorf("edit of %s: want no buttons, no mentions and %q, got %+v", msg, want, e)
	}
}

func TestChallengeExpiryEditsItsMessage(t *testing.T) {
	h := newHarness(t, Config{ChallengeExpiry: time.Hour})
	// The server speaks Thai, alice Portuguese: the public edit is Thai.
	rs := h.b.Handle(h.ctx, Command{Kind: KindSlash, Name: "challenge", User: alice, GuildID: "guild", ChannelID: "chan",
		Locale: "pt-BR", GuildLocale: "th", Options: map[string]string{"opponent": bob.ID}, Users: map[string]User{bob.ID: bob}})
	mustNotRefuse(t, rs)
	h.sent(rs, "m-ch")
	acc := findID(t, rs, "accept")
	h.clk.Advance(time.Hour)
	es := h.tickEdits(1)
	if ps := h.n.all(); len(ps) != 0 {
		t.Errorf("the expiry posted a new message: %+v", ps)
	}
	bare(t, es[0], "m-ch", "คำท้าของ alice หมดอายุแล้ว")
	// Exactly once: later passes do not edit again.
	h.clk.Advance(time.Minute)
	h.tickEdits(1)
	// A click from a client that still shows the buttons updates the
	// message in place, in the server's language.
	h.loc = "th"
	rs = h.click(bob, acc)
	if len(rs) != 1 || !rs[0].Update || rs[0].Ephemeral || len(rs[0].Components) != 0 || !strings.Contains(rs[0].Content, "หมดอายุ") {
		t.Errorf("Accept after expiry: want an update without buttons saying expired, got %+v", rs)
	}
}

// An edit Discord refuses is retried with backoff until it lands, once.
func TestChallengeExpiryEditRetried(t *testing.T) {
	h := newHarness(t, Config{ChallengeExpiry: time.Hour})
	h.sent(h.slash(alice, "challenge", "opponent=bob"), "m-ch")
	h.n.failEdits = 3
	h.clk.Advance(time.Hour)
	if err := h.tick(); err == nil {
		t.Error("a refused edit was not reported")
	}
	for i := 0; i < 5 && len(h.n.allEdits()) == 0; i++ {
		h.clk.Advance(30 * time.Second)
		_ = h.tick()
	}
	h.clk.Advance(time.Hour)
	if err := h.tick(); err != nil {
		t.Fatal(err)
	}
	es := h.n.allEdits()
	if len(es) != 1 || h.n.failEdits != 0 {
		t.Fatalf("want the edit delivered once after 3 failures, got %d (failures left %d)", len(es), h.n.failEdits)
	}
	bare(t, es[0], "m-ch", "The challenge from alice expired.")
	if ps := h.n.all(); len(ps) != 0 {
		t.Errorf("posts: %+v", ps)
	}
}

// A click on Accept or Decline of a challenge whose expiry has not run yet
// expires it there and then: an update in place, and nothing left for
// the scheduler to post or edit.
func TestExpiredChallengeClickUpdates(t *testing.T) {
	h := newHarness(t, Config{ChallengeExpiry: time.Hour})
	rs := h.slash(alice, "challenge", "opponent=bob")
	h.sent(rs, "m-ch")
	h.clk.Advance(time.Hour)
	for _, act := range []string{"decline", "accept"} {
		got := h.click(bob, findID(t, rs, act))
		if len(got) != 1 || !got[0].Update || got[0].Ephemeral || len(got[0].Components) != 0 || !strings.Contains(got[0].Content, "expired") {
			t.Errorf("%s after expiry: want an update without buttons saying expired, got %+v", act, got)
		}
	}
	if err := h.tick(); err != nil {
		t.Fatal(err)
	}
	if ps, es := h.n.all(), h.n.allEdits(); len(ps)+len(es) != 0 {
		t.Errorf("after the click the scheduler still sent %+v %+v", ps, es)
	}
	// A typed /accept of it is refused privately.
	mustRefuse(t, h.slash(bob, "accept", "challenge="+strings.Split(findID(t, rs, "accept"), ":")[1]), "expired")
}

// /accept typed: the challenge's own message is edited (buttons gone,
// who accepted, where the game went); the answer is the first board.
func TestTypedAcceptEditsChallenge(t *testing.T) {
	for _, thread := range []bool{false, true} {
		t.Run("thread="+strconv.FormatBool(thread), func(t *testing.T) {
			h := newHarness(t, Config{})
			h.sent(h.slash(alice, "challenge", "opponent=bob", "color=white", "thread="+strconv.FormatBool(thread)), "m-ch")
			rs := h.slash(bob, "accept")
			mustNotRefuse(t, rs)
			var board *view.Reply
			for i, r := range rs {
				if r.Update {
					t.Errorf("a typed /accept answered with an update (of which message?): %+v", r)
				}
				if isBoard(r) {
					board = &rs[i]
				}
			}
			if board == nil || len(board.Mentions) != 2 {
				t.Fatalf("no first board pinging both: %+v", rs)
			}
			if thread && (len(h.n.threadOn) != 1 || h.n.threadOn[0] != "m-ch") {
				t.Errorf("the game's thread should hang on the challenge message: %v", h.n.threadOn)
			}
			es := h.tickEdits(1)
			bare(t, es[0], "m-ch", "bob accepted: alice (White) vs bob (Black)")
			if thread && !strings.Contains(es[0].Reply.Content, "<#"+board.ChannelID+">") {
				t.Errorf("the edit does not point to the thread %s: %q", board.ChannelID, es[0].Reply.Content)
			}
		})
	}
}

// A challenge whose message is unknown (made before ids were kept) keeps
// the old behaviour: a new message on expiry, no edit after /accept.
func TestChallengeWithoutMessageID(t *testing.T) {
	h := newHarness(t, Config{ChallengeExpiry: time.Hour})
	mustNotRefuse(t, h.slash(alice, "challenge", "opponent=bob", "clock=3d"))
	mustNotRefuse(t, h.slash(bob, "accept"))
	mustNotRefuse(t, h.slash(carol, "challenge", "opponent=bob"))
	h.clk.Advance(time.Hour)
	if err := h.tick(); err != nil {
		t.Fatal(err)
	}
	ps := h.n.all()
	if len(ps) != 1 || !strings.Contains(ps[0].Reply.Content, "The challenge from carol expired.") {
		var got []string
		for _, p := range ps {
			got = append(got, p.Reply.Content)
		}
		t.Errorf("want one new expiry message, got %q", got)
	}
	if es := h.n.allEdits(); len(es) != 0 {
		t.Errorf("edits without a known message: %+v", es)
	}
}

// A rematch offer is a challenge: tracked, and edited when it expires. One
// asked from another channel goes to the game's place.
func TestRematchOfferLifecycle(t *testing.T) {
	h := newHarness(t, Config{ChallengeExpiry: time.Hour})
	id := h.StartGame()
	final := h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes"))
	rs := h.click(bob, findID(t, final, "rematch"))
	mustNotRefuse(t, rs)
	if len(rs) != 1 || rs[0].ChannelID != "" || len(rs[0].Mentions) != 1 || rs[0].Mentions[0] != alice.ID {
		t.Fatalf("rematch offer: %+v", rs)
	}
	h.sent(rs, "m-re")
	h.clk.Advance(time.Hour)
	es := h.tickEdits(1)
	bare(t, es[0], "m-re", "The challenge from bob expired.")

	// /rematch typed in another channel: the offer is posted in the game's.
	rs = h.b.Handle(h.ctx, Command{Kind: KindSlash, Name: "rematch", User: alice, GuildID: "guild", ChannelID: "elsewhere",
		Options: map[string]string{"game": strconv.FormatInt(id, 10)}})
	mustNotRefuse(t, rs)
	if len(rs) != 1 || rs[0].ChannelID != "chan" || challengeOf(rs[0]) == 0 {
		t.Errorf("a rematch from elsewhere should go to the game's channel, tracked: %+v", rs)
	}
}
