package app

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/view"
)

// menuOf returns the select menu of a picker reply, or nil when complete.
func menuOf(t *testing.T, rs []view.Reply) *view.Component {
	t.Helper()
	if len(rs) != 1 || !rs[0].Ephemeral {
		t.Fatalf("picker reply: %+v", rs)
	}
	// Discord refuses a message whose components share a custom id.
	seen := map[string]bool{}
	for _, id := range customIDs(rs) {
		if seen[id] {
			t.Fatalf("custom id %q used twice in one message", id)
		}
		seen[id] = true
	}
	for _, row := range rs[0].Components {
		for i := range row {
			if row[i].Kind == view.Select {
				return &row[i]
			}
		}
	}
	return nil
}

// The guided picker walks from the board's Pick button to a played move:
// each menu holds only legal choices, Back goes one choice back, and
// Confirm plays the move, once.
func TestPickerPlaysAMove(t *testing.T) {
	for _, game := range []string{"tank", "camelot", "gungi"} {
		t.Run(game, func(t *testing.T) {
			h := newHarness(t, Config{})
			id := h.StartGame("game=" + game)
			board := h.game(id)
			pos, _ := board.Position()
			legal := map[string]bool{}
			for _, m := range pos.LegalMoves() {
				legal[pos.FormatMove(m)] = true
			}
			// Gungi's draft starts with Black: whoever is to move picks.
			who := alice
			if pos.Turn() == 1 {
				who = bob
			}
			other := map[string]User{alice.ID: bob, bob.ID: alice}[who.ID]

			pickID := view.GameID(id, 0, "pick")
			rs := h.click(who, pickID)
			menu := menuOf(t, rs)
			if menu == nil || rs[0].Update {
				t.Fatalf("first picker menu: %+v", rs)
			}
			if len(menu.Options) == 0 || len(menu.Options) > 25 {
				t.Fatalf("%d options", len(menu.Options))
			}
			// The opponent cannot use the picker.
			mustRefuse(t, h.click(other, pickID), "not your turn")
			// A forged state is refused as stale.
			mustRefuse(t, h.click(who, pickID, "999.999"), "earlier position")

			// Choose the second option, go back once, then choose the
			// first at each level until the move is complete.
			rs = h.click(who, menu.CustomID, menu.Options[1].Value)
			if !rs[0].Update {
				t.Fatal("a choice should edit the picker message")
			}
			back := ""
			for _, row := range rs[0].Components {
				for _, c := range row {
					if c.Label == "Back" {
						back = c.CustomID
					}
				}
			}
			if back == "" {
				t.Fatalf("no Back button after a choice: %+v", rs[0].Components)
			}
			rs = h.click(who, back)
			if !rs[0].Update {
				t.Fatal("Back should edit the picker message")
			}
			if m := menuOf(t, rs); m == nil || len(m.Options) != len(menu.Options) {
				t.Fatalf("Back did not return to the first menu: %+v", rs)
			}
			for i := 0; i < 10; i++ {
				m := menuOf(t, rs)
				if m == nil {
					break
				}
				rs = h.click(who, m.CustomID, m.Options[0].Value)
			}
			if menuOf(t, rs) != nil {
				t.Fatal("picker did not complete in 10 choices")
			}
			confirm := ""
			for _, c := range rs[0].Components[0] {
				if strings.Contains(c.CustomID, ":pickok:") {
					confirm = c.CustomID
				}
			}
			if confirm == "" {
				t.Fatalf("no Confirm button: %+v", rs[0].Components)
			}
			played := strings.TrimSuffix(strings.SplitN(rs[0].Content, "**", 3)[1], "**")
			if !legal[played] {
				t.Fatalf("picker offers %q, not a legal move (%d legal)", played, len(legal))
			}
			mustRefuse(t, h.click(other, confirm), "not your turn")
			rs = h.click(who, confirm)
			mustNotRefuse(t, rs)
			if g := h.game(id); g.Ply != 1 || g.Last != played {
				t.Fatalf("after confirm: ply %d last %q, want %q", g.Ply, g.Last, played)
			}
			// The same Confirm again is stale: nothing is played twice.
			mustRefuse(t, h.click(who, confirm), "earlier position")
			if h.game(id).Ply != 1 {
				t.Fatal("a second confirm played again")
			}
		})
	}
}
