package app

import (
	"context"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store"
)

// answeringNotifier is the fake transport that can also tell whether an
// interaction's answer reached Discord (AnswerChecker).
type answeringNotifier struct {
	*fakeNotifier
	shown map[string]string // token → the message its @original shows
	asked int
}

func (n *answeringNotifier) HookLifetime() time.Duration { return testHookLifetime }

func (n *answeringNotifier) AnswerShown(_ context.Context, token, hookMessage string) (string, error) {
	n.asked++
	if hookMessage != "@original" {
		return "", nil
	}
	return n.shown[token], nil
}

// A move whose answer reached Discord, by a process that died after
// recording its board as pending and before learning the message id, does
// not get its board a second time from the fallback: the fallback finds
// the answer through the interaction's hook, records it and stands down.
// When the hook shows nothing, the fallback goes as before.
func TestShownAnswerNotPostedTwice(t *testing.T) {
	for _, c := range []struct {
		name      string
		shown     bool
		wantPosts int
	}{{"answer shown", true, 0}, {"answer lost", false, 1}} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{})
			id := h.StartGame("clock=10m+5s")
			an := &answeringNotifier{fakeNotifier: h.n, shown: map[string]string{}}
			if c.shown {
				an.shown["tok"] = "m42"
			}
			h.b.n = an
			h.lose = true
			rs := h.slash(alice, "move", "move="+h.legalMove(id, nil))
			mustNotRefuse(t, rs)
			h.lose = false
			st := h.b.St.(*storeRepo).st
			if err := st.RecordPendingBoard(h.ctx, id, moveSeq(rs[0]), store.BoardHook{Token: "tok", Message: "@original", Issued: h.clk.Now()}); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				h.tickAfter(pingFallbackDelay)
			}
			if ps := pingPosts(h, id); len(ps) != c.wantPosts || an.asked == 0 {
				t.Fatalf("%d fallback posts (asked Discord %d times), want %d", len(ps), an.asked, c.wantPosts)
			}
			bs, err := st.Boards(h.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, b := range bs {
				found = found || b.Message == "m42" && b.Seq == moveSeq(rs[0])
			}
			if found != c.shown {
				t.Fatalf("boards %+v: the shown answer recorded %v, want %v", bs, found, c.shown)
			}
		})
	}
}
