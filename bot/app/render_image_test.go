package app

import (
	"bytes"
	"testing"

	"github.com/tankbot/tankbot/bot/view"
)

// The public board is drawn from the side of the player to move (or White's
// with WhiteAtBottom); Flip board shows the other orientation, whoever
// clicks; the image is worded in the message's language.
func TestBoardPerspective(t *testing.T) {
	for _, whiteAtBottom := range []bool{false, true} {
		h := newHarness(t, Config{WhiteAtBottom: whiteAtBottom})
		id := h.StartGame()
		alice, carol := user("alice"), user("carol")
		rs := h.slash(alice, "move", "move="+h.legalMove(id, nil)) // White moves: Black to move
		mustNotRefuse(t, rs)
		var public []byte
		for _, r := range rs {
			if isBoard(r) && len(r.Files) == 1 {
				public = r.Files[0].Data
			}
		}
		g := h.game(id)
		pos, last, err := h.b.ReplayLast(h.ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		blackAtBottom, err := view.RenderPNG(pos, last, true, "en", g)
		if err != nil {
			t.Fatal(err)
		}
		whiteBottom, err := view.RenderPNG(pos, last, false, "en", g)
		if err != nil {
			t.Fatal(err)
		}
		wantPublic, wantFlip := blackAtBottom, whiteBottom
		if whiteAtBottom {
			wantPublic, wantFlip = whiteBottom, blackAtBottom
		}
		if !bytes.Equal(public, wantPublic) {
			t.Errorf("WhiteAtBottom=%v: the public board after White's move is not drawn as expected", whiteAtBottom)
		}
		for _, who := range []User{alice, carol} { // a player and a bystander
			fl := h.click(who, findID(t, rs, "flip"))
			if len(fl) != 1 || !fl[0].Ephemeral || len(fl[0].Files) != 1 {
				t.Fatalf("flip: %+v", fl)
			}
			if !bytes.Equal(fl[0].Files[0].Data, wantFlip) {
				t.Errorf("WhiteAtBottom=%v: Flip board for %s is not the other orientation", whiteAtBottom, who.Name)
			}
		}
	}
	// The language of the message words the picture.
	h := newHarness(t, Config{})
	id := h.StartGame()
	g := h.game(id)
	pos, last, err := h.b.ReplayLast(h.ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	en, err1 := view.RenderPNG(pos, last, false, "en", g)
	th, err2 := view.RenderPNG(pos, last, false, "th", g)
	if err1 != nil || err2 != nil || bytes.Equal(en, th) {
		t.Errorf("Thai image equals English (%v, %v)", err1, err2)
	}
}
