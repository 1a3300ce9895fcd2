package app

import "testing"

// The Gungi draft against the computer completes whatever the order in
// which the two sides declare ready: once alice is ready the computer
// places alone, one scheduled search after another, until it is ready too
// and the game proper begins. (The computer's own move schedules its next
// turn while the event it runs is being completed: a cancel that deleted
// the running event let SQLite reuse its id for the new one, which the
// completion then marked done, and the draft stalled.)
func TestAIGungiDraftAnyReadyOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		color string
		mine  []string // alice's placements before her ready
	}{
		{"ready after the Marshal, computer Black", "white", []string{"M*e1"}},
		{"ready after three pieces, computer Black", "white", []string{"M*e1", "P*a3", "P*i3"}},
		{"ready after the Marshal, computer White", "black", []string{"M*e9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "ready after the Marshal, computer Black" {
				t.Skip("long tier: every ready order")
			}
			if longOnly() && tc.name == "ready after the Marshal, computer Black" {
				t.Skip("run by the fast tier")
			}
			h := newHarness(t, aiConfig())
			id := h.aiGame("level=1", "game=gungi", "color="+tc.color)
			next := 0
			for range 200 {
				g := h.game(id)
				pos, err := g.Position()
				if err != nil {
					t.Fatal(err)
				}
				if d, ok := pos.(interface{ InDraft() bool }); g.Status != GmActive || !ok || !d.InDraft() {
					if next <= len(tc.mine) {
						t.Fatalf("the draft ended before alice was ready: %+v", g)
					}
					return
				}
				if int(pos.Turn()) == g.AISide {
					h.aiTick()
					h.b.WaitAI() // the second pass may have started the next search
					if g2 := h.game(id); g2.Ply <= g.Ply {
						t.Fatalf("ply %d (%s): the computer made no move after a scheduler pass (now ply %d)", g.Ply, pos.Encode(), g2.Ply)
					}
					continue
				}
				mv := "ready"
				if next < len(tc.mine) {
					mv = tc.mine[next]
					next++
				} else if next > len(tc.mine) {
					t.Fatalf("alice is to move again after her ready, still in the draft: %s", pos.Encode())
				} else {
					next++
				}
				mustNotRefuse(t, h.slash(alice, "move", "move="+mv))
			}
			t.Fatalf("the draft did not complete: %+v", h.game(id))
		})
	}
}
