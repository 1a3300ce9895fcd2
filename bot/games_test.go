package bot

import (
	"strings"
	"testing"
)

// The board message states the facts of the game beside the picture:
// Camelot's castle moves left, Gungi's draft and hands.
func TestBoardFacts(t *testing.T) {
	h := newHarness(t, Config{})
	alice, bob := user("alice"), user("bob")
	rs := h.slash(alice, "challenge", "opponent=bob", "color=white", "game=camelot")
	rs = h.click(bob, findID(t, rs, "accept"))
	if !strings.Contains(text(rs), "Castle moves left: White 2, Black 2.") {
		t.Errorf("camelot board without castle moves: %s", text(rs))
	}

	h.loc = "pt-BR"
	rs = h.slash(alice, "challenge", "opponent=carol", "color=white", "game=gungi")
	rs = h.click(user("carol"), findID(t, rs, "accept"))
	body := text(rs)
	for _, want := range []string{"Montagem: Pretas coloca uma peça.", "Brancas: 38 na mão", "0/26 no tabuleiro"} {
		if !strings.Contains(body, want) {
			t.Errorf("gungi board lacks %q: %s", want, body)
		}
	}
}

// During the Gungi draft the board offers to finish one's own draft from a
// formation in one click; only the player to place may use it.
func TestGungiFinishDraftButton(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.startGame("game=gungi")
	g := h.game(id)
	pos, _ := g.position()
	if pos.Turn() != 1 {
		t.Fatalf("the draft starts with %v, want Black", pos.Turn())
	}
	board := h.slash(bob, "board")
	btn := findID(t, board, "move:ready:quick")
	mustRefuse(t, h.click(alice, btn), "not your turn")
	rs := h.click(bob, btn)
	mustNotRefuse(t, rs)
	g = h.game(id)
	if g.Last != "ready:quick" || g.Ply != 1 {
		t.Fatalf("after the button: ply %d, last %q", g.Ply, g.Last)
	}
	pos, _ = g.position()
	// The quick formation places 25 of Black's 38 pieces.
	if !strings.Contains(text(rs), "Black: 13 in hand") {
		t.Errorf("hands after the formation: %s", text(rs))
	}
	if pos.Turn() != 0 {
		t.Errorf("after Black's formation %v is to place, want White", pos.Turn())
	}
	// The old button is stale now.
	mustRefuse(t, h.click(bob, btn), "earlier position")
	checkReplay(t, h, id)
}
