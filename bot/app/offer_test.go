package app

import (
	"strings"
	"testing"
)

// Draw and takeback offers share one mechanism, and each speaks of itself:
// asking twice for a takeback says a takeback is pending (it used to say
// "You already offered a draw").
func TestOfferPendingSaysWhichOffer(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	rs := h.slash(alice, "takeback")
	mustNotRefuse(t, rs)
	if !strings.Contains(rs[0].Content, "take back") || !strings.HasSuffix(findID(t, rs, "tbyes"), ":tbyes") {
		t.Fatalf("takeback offer: %+v", rs)
	}
	again := h.slash(alice, "takeback")
	mustRefuse(t, again, "already asked to take back")
	if strings.Contains(again[0].Content, "draw") {
		t.Errorf("a second /takeback speaks of a draw: %q", again[0].Content)
	}
	// A draw offer beside it keeps its own slot and its own words.
	mustNotRefuse(t, h.slash(alice, "draw"))
	mustRefuse(t, h.slash(alice, "draw"), "already offered a draw")
	// Declining one leaves the other standing.
	mustNotRefuse(t, h.click(bob, findID(t, rs, "tbno")))
	if g := h.game(id); g.Takeback != 0 || g.DrawOffer != 1 {
		t.Fatalf("after declining the takeback: takeback %d draw %d", g.Takeback, g.DrawOffer)
	}
	mustRefuse(t, h.click(bob, findID(t, rs, "tbno")), "no takeback request")
}
