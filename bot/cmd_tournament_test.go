package bot

import (
	"bytes"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/tournament"
)

// A 4-player round-robin run to the end through the command table:
// refusals change nothing, each round's games start by themselves pinging
// their two players, results (resignations) feed the standings, the next
// round starts when the last game of a round ends, and the final post pings
// the podium with the standings picture.
func TestTournamentRoundRobinToTheEnd(t *testing.T) {
	h := newHarness(t, Config{})
	a, b, c, d := user("ann"), user("bob"), user("cat"), user("dan")
	mustNotRefuse(t, h.slash(a, "tournament", "action=create", "format=round-robin", "roundlength=1d"))
	mustRefuse(t, h.slash(a, "tournament", "action=start"), "Too few players")
	mustRefuse(t, h.slash(a, "tournament", "action=create", "format=swiss", "rounds=0"), "settings do not work")
	mustRefuse(t, h.slash(a, "tournament", "action=create", "roundlength=soon"), "not a duration")
	for _, u := range []User{a, b, c, d} {
		mustNotRefuse(t, h.slash(u, "tournament", "action=join"))
	}
	mustRefuse(t, h.slash(b, "tournament", "action=join"), "already in this tournament")
	mustRefuse(t, h.slash(b, "tournament", "action=start"), "Only the organiser")
	ev, err := h.b.director().Load(h.ctx, 1)
	if err != nil || ev.T.Status != tournament.SignUp || len(ev.T.Entrants) != 4 {
		t.Fatalf("after refusals: %v %+v", err, ev)
	}

	rs := h.slash(a, "tournament", "action=start")
	mustNotRefuse(t, rs)
	boards := 0
	for _, r := range rs {
		if r.Board {
			boards++
			if len(r.Mentions) != 2 || !strings.Contains(r.Content, "round 1") {
				t.Errorf("board of round 1: mentions %v content %q", r.Mentions, r.Content)
			}
		}
	}
	if boards != 2 {
		t.Fatalf("round 1 started %d games, want 2: %s", boards, text(rs))
	}
	games := 0
	for round := 1; round <= 3; round++ {
		ev, err := h.b.director().Load(h.ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if ev.T.Round != round {
			t.Fatalf("at round %d, want %d", ev.T.Round, round)
		}
		for _, p := range ev.T.Rounds[round-1] {
			if p.IsBye() {
				continue
			}
			if p.GameID == 0 {
				t.Fatalf("round %d board %d has no game", round, p.Board)
			}
			g, err := h.b.st.game(h.ctx, p.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if g.White.ID != p.White || g.Black.ID != p.Black {
				t.Fatalf("game %d colours %s/%s, pairing %s/%s", g.ID, g.White.ID, g.Black.ID, p.White, p.Black)
			}
			mustNotRefuse(t, h.click(g.White, gameID(g.ID, g.Seq, "resignyes")))
			games++
		}
	}
	if games != 6 {
		t.Errorf("%d games played, want 6", games)
	}
	ev, err = h.b.director().Load(h.ctx, 1)
	if err != nil || ev.T.Status != tournament.Finished {
		t.Fatalf("tournament not finished: %v %+v", err, ev.Row)
	}
	var final *post
	nextRounds := 0
	for _, p := range h.n.all() {
		if strings.Contains(p.Reply.Content, "is over") {
			final = &p
		}
		if strings.Contains(p.Reply.Content, "is paired") {
			nextRounds++
		}
	}
	if nextRounds != 2 {
		t.Errorf("%d next-round posts, want 2", nextRounds)
	}
	if final == nil || len(final.Reply.Mentions) != 3 || len(final.Reply.Files) == 0 {
		t.Fatalf("final post: %+v", final)
	}
	for _, id := range final.Reply.Mentions {
		if !strings.Contains(final.Reply.Content, "<@"+id+">") {
			t.Errorf("podium %s not mentioned in %q", id, final.Reply.Content)
		}
	}
	st := h.slash(c, "tournament", "action=standings", "id="+strconv.Itoa(1))
	if len(st) != 1 || len(st[0].Files) != 1 {
		t.Fatalf("standings: %+v", st)
	}
	img, err := png.Decode(bytes.NewReader(st[0].Files[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w < 200 {
		t.Errorf("standings image %d px wide", w)
	}
	pr := text(h.slash(d, "tournament", "action=pairings", "id=1"))
	if !strings.Contains(pr, "round 3") || strings.Count(pr, "Board ") != 2 {
		t.Errorf("pairings: %q", pr)
	}
	mustRefuse(t, h.slash(a, "tournament", "action=join"), "No such tournament")
	mustRefuse(t, h.slash(a, "tournament", "action=join", "id=1"), "over")
	mustRefuse(t, h.slash(a, "tournament", "action=cancel", "id=1"), "over")
	mustRefuse(t, h.slash(a, "tournament", "action=standings", "id=99"), "No such tournament")
}
