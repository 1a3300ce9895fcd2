package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/view"
)

// Forfeits never count for ratings and say so: a withdrawal's game and a
// game whose side to move never moved by the deadline end "by forfeit",
// unrated, in a rated tournament; the final board of a game adjudicated
// at the last round's deadline is posted before the final standings.
func TestTournamentForfeitsUnratedAndBoardsBeforeStandings(t *testing.T) {
	h := newHarness(t, Config{})
	a, b, c, d := user("ann"), user("bob"), user("cat"), user("dan")
	mustNotRefuse(t, h.slash(a, "tournament", "action=create", "format=knockout", "roundlength=1h", "clock=1d"))
	for _, u := range []User{a, b, c, d} {
		mustNotRefuse(t, h.slash(u, "tournament", "action=join"))
	}
	mustNotRefuse(t, h.slash(a, "tournament", "action=start"))
	ev, err := h.b.Director().Load(h.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	first, second := ev.T.Rounds[0][0], ev.T.Rounds[0][1]
	mustNotRefuse(t, h.slash(User{ID: first.Black, Name: ev.Name(first.Black)}, "tournament", "action=withdraw"))
	h.clk.Advance(61 * time.Minute) // board 2: White never moved
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range []tournament.Pairing{first, second} {
		g, err := h.b.St.game(h.ctx, p.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status == GmActive || g.Reason != string(reasonForfeit) || g.Rated {
			t.Errorf("forfeited game %d: status %s reason %q rated %v", g.ID, g.Status, g.Reason, g.Rated)
		}
		if w := view.OutcomeWords("en", g); !strings.Contains(w, "by forfeit") {
			t.Errorf("result line of game %d: %q", g.ID, w)
		}
	}
	for _, u := range []User{a, b, c, d} {
		rs, err := h.b.St.(*storeRepo).st.PlayerRatings(h.ctx, "guild", u.ID)
		if err != nil || len(rs) != 0 {
			t.Errorf("%s has ratings after forfeits only: %+v %v", u.Name, rs, err)
		}
	}
	// The final: nobody moves; at its deadline White forfeits.
	ev, _ = h.b.Director().Load(h.ctx, 1)
	if ev.T.Round != 2 || ev.T.Rounds[1][0].GameID == 0 {
		t.Fatalf("final not started: round %d %+v", ev.T.Round, ev.T.Rounds)
	}
	final := ev.T.Rounds[1][0]
	h.clk.Advance(61 * time.Minute)
	for range 3 {
		if err := h.b.Tick(h.ctx); err != nil {
			t.Fatal(err)
		}
	}
	board, over := -1, -1
	for i, p := range h.n.all() {
		if isFinalBoard(p.Reply) && gameOf(p.Reply) == final.GameID && board < 0 {
			board = i
		}
		if strings.Contains(p.Reply.Content, "is over") {
			over = i
		}
	}
	if board < 0 || over < 0 || board > over {
		t.Fatalf("final's adjudicated board at post %d, final standings at %d: the board must come first", board, over)
	}
}

// players:0 is refused (it used to make an unlimited tournament).
func TestTournamentPlayersZeroRefused(t *testing.T) {
	h := newHarness(t, Config{})
	for _, v := range []string{"0", "-1", "1", "129"} {
		mustRefuse(t, h.slash(user("ann"), "tournament", "action=create", "format=swiss", "rounds=3", "players="+v), "settings do not work")
	}
	if ts, err := h.b.St.(*storeRepo).st.GuildTournaments(h.ctx, "guild"); err != nil || len(ts) != 0 {
		t.Fatalf("a refused create stored %+v %v", ts, err)
	}
}

// Two players paired while they already play a game in the tournament's
// channel (no threads allowed): they are pinged with why their game did
// not start, and it starts when the other game ends, instead of silently
// becoming a double forfeit at the deadline.
func TestTournamentGameWaitsForCasualGame(t *testing.T) {
	h := newHarness(t, Config{})
	h.n.noThreads = true
	alice, bob := user("alice"), user("bob")
	casual := h.StartGame()
	mustNotRefuse(t, h.slash(alice, "tournament", "action=create", "format=knockout"))
	mustNotRefuse(t, h.slash(alice, "tournament", "action=join"))
	mustNotRefuse(t, h.slash(bob, "tournament", "action=join"))
	rs := h.slash(alice, "tournament", "action=start")
	mustNotRefuse(t, rs)
	var told *view.Reply
	for i, r := range rs {
		if strings.Contains(r.Content, "cannot start") {
			told = &rs[i]
		}
	}
	if told == nil || len(told.Mentions) != 2 || !strings.Contains(told.Content, "<@"+alice.ID+">") || !strings.Contains(told.Content, "<@"+bob.ID+">") {
		t.Fatalf("the players were not told: %s", text(rs))
	}
	ev, _ := h.b.Director().Load(h.ctx, 1)
	if ev.T.Rounds[0][0].GameID != 0 {
		t.Fatal("the tournament game started beside the casual one")
	}
	g := h.game(casual)
	mustNotRefuse(t, h.click(alice, view.GameID(g.ID, g.Seq, "resignyes")))
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ev, _ = h.b.Director().Load(h.ctx, 1)
	p := ev.T.Rounds[0][0]
	if p.GameID == 0 || p.Result != tournament.Pending {
		t.Fatalf("after the casual game ended, the tournament board is %+v", p)
	}
	started := false
	for _, q := range h.n.all() {
		if isBoard(q.Reply) && gameOf(q.Reply) == p.GameID && len(q.Reply.Mentions) == 2 {
			started = true
		}
	}
	if !started {
		t.Error("the tournament game's first board was not posted")
	}
}

// /tournament export answers the requester with the event as a TRF file;
// a double round-robin of 3 plays 6 rounds, each pair twice with colours
// swapped.
func TestTournamentExportAndDoubleRoundRobin(t *testing.T) {
	h := newHarness(t, Config{})
	a, b, c := user("ann"), user("bob"), user("cat")
	mustNotRefuse(t, h.slash(a, "tournament", "action=create", "format=double-round-robin"))
	for _, u := range []User{a, b, c} {
		mustNotRefuse(t, h.slash(u, "tournament", "action=join"))
	}
	mustNotRefuse(t, h.slash(a, "tournament", "action=start"))
	colours := map[string]int{}
	for round := 1; round <= 6; round++ {
		ev, err := h.b.Director().Load(h.ctx, 1)
		if err != nil || ev.T.Round != round {
			t.Fatalf("round %d: %v %+v", round, err, ev.T.Round)
		}
		for _, p := range ev.T.Rounds[round-1] {
			if p.IsBye() {
				continue
			}
			colours[p.White+">"+p.Black]++
			g := h.game(p.GameID)
			mustNotRefuse(t, h.click(g.White, view.GameID(g.ID, g.Seq, "resignyes")))
		}
		if err := h.b.Tick(h.ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(colours) != 6 {
		t.Errorf("each ordered pair once, got %v", colours)
	}
	rs := h.slash(b, "tournament", "action=export", "id=1")
	if len(rs) != 1 || len(rs[0].Files) != 1 || !rs[0].Ephemeral {
		t.Fatalf("export reply %+v", rs)
	}
	body := string(rs[0].Files[0].Data)
	if !strings.HasPrefix(body, "012 tankbot tournament 1") || !strings.Contains(body, "\nXXR 6\n") || strings.Count(body, "\n001 ") != 3 {
		t.Fatalf("TRF:\n%s", body)
	}
}

// The final post of a 4-player knockout names both losing semi-finalists
// third and pings all four.
func TestTournamentKnockoutFinalPostBothThirds(t *testing.T) {
	h := newHarness(t, Config{})
	players := []User{user("ann"), user("bob"), user("cat"), user("dan")}
	mustNotRefuse(t, h.slash(players[0], "tournament", "action=create", "format=knockout"))
	for _, u := range players {
		mustNotRefuse(t, h.slash(u, "tournament", "action=join"))
	}
	mustNotRefuse(t, h.slash(players[0], "tournament", "action=start"))
	for round := 1; round <= 2; round++ {
		ev, err := h.b.Director().Load(h.ctx, 1)
		if err != nil || ev.T.Round != round {
			t.Fatalf("round %d: %v", round, err)
		}
		for _, p := range ev.T.Rounds[round-1] {
			g := h.game(p.GameID)
			mustNotRefuse(t, h.click(g.Black, view.GameID(g.ID, g.Seq, "resignyes"))) // White wins
		}
		if err := h.b.Tick(h.ctx); err != nil {
			t.Fatal(err)
		}
	}
	var final *view.Reply
	for _, p := range h.n.all() {
		if strings.Contains(p.Reply.Content, "is over") {
			final = &p.Reply
		}
	}
	if final == nil || len(final.Mentions) != 4 || strings.Count(final.Content, "\n3. ") != 2 {
		t.Fatalf("final post: %+v", final)
	}
}

// isFinalBoard says whether a delivered reply is a game-over board: the
// final post kind draws the board with the game's record beside it.
func isFinalBoard(r view.Reply) bool {
	for _, f := range r.Files {
		if strings.HasSuffix(f.Name, ".txt") {
			return true
		}
	}
	return false
}
