package director

import (
	"context"
	"fmt"
	"testing"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

// TestAdvancePostsAndNames: the announcements of each advance (a round
// paired, the tournament finished) are queued with it, once, though two
// instances race every advance; entrants' stored names and computer
// levels come back after a restart.
func TestAdvancePostsAndNames(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newWorld(t, b.New(t), 2)
			id := w.create(tournament.RoundRobin, 0, 0)
			names := map[string]string{"p1": "*Ann*", "p2": "Bob <@1>", "p3": "Computer 1"}
			for _, p := range []string{"p1", "p2", "p3"} {
				level := 0
				if p == "p3" {
					level = 2
				}
				if err := w.ds[1].JoinAs(ctx, id, store.TournamentEntrant{Player: p, Name: names[p], AILevel: level, Rating: 1500}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.d().Start(ctx, id, tournament.Actor{ID: "org"}); err != nil {
				t.Fatal(err)
			}
			w.restart()
			ev, err := w.d().Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for p, n := range names {
				if ev.Name(p) != n {
					t.Errorf("%s is named %q after the restart, want %q", p, ev.Name(p), n)
				}
			}
			if ev.AILevel("p3") != 2 || ev.AILevel("p1") != 0 || ev.Name("stranger") != "stranger" {
				t.Errorf("levels %d %d, stranger %q", ev.AILevel("p3"), ev.AILevel("p1"), ev.Name("stranger"))
			}
			for _, d := range w.ds {
				d.Posts = func(ev *Event, ps []tournament.Pairing, fin bool) ([]store.Message, error) {
					if fin {
						return []store.Message{{Channel: ev.Row.Channel, Payload: "final"}}, nil
					}
					return []store.Message{{Channel: ev.Row.Channel, Payload: fmt.Sprintf("round %d", ev.T.Round)}}, nil
				}
			}
			for {
				if _, fin := w.playRound(id); fin {
					break
				}
			}
			out, err := w.st[0].Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range out {
				got = append(got, m.Payload)
			}
			if want := "[round 2 round 3 final]"; fmt.Sprint(got) != want {
				t.Errorf("queued %v, want %s", got, want)
			}
		})
	}
}
