package app

import (
	"bytes"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/view"
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
	ev, err := h.b.Director().Load(h.ctx, 1)
	if err != nil || ev.T.Status != tournament.SignUp || len(ev.T.Entrants) != 4 {
		t.Fatalf("after refusals: %v %+v", err, ev)
	}

	rs := h.slash(a, "tournament", "action=start")
	mustNotRefuse(t, rs)
	boards := 0
	for _, r := range rs {
		if isBoard(r) {
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
		ev, err := h.b.Director().Load(h.ctx, 1)
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
			g, err := h.b.St.game(h.ctx, p.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if g.White.ID != p.White || g.Black.ID != p.Black {
				t.Fatalf("game %d colours %s/%s, pairing %s/%s", g.ID, g.White.ID, g.Black.ID, p.White, p.Black)
			}
			mustNotRefuse(t, h.click(g.White, view.GameID(g.ID, g.Seq, "resignyes")))
			games++
		}
	}
	if games != 6 {
		t.Errorf("%d games played, want 6", games)
	}
	// The next rounds' lines, their boards and the final standings went
	// to the outbox: the scheduler delivers them.
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ev, err = h.b.Director().Load(h.ctx, 1)
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

// A member with Manage Server starts another's tournament; a withdrawal
// forfeits the running game; at the round's deadline the scheduler
// adjudicates the untouched game (a forfeit: White never moved) and pairs
// round 2; a cancellation stops it and later requests are refused.
func TestTournamentWithdrawDeadlineCancel(t *testing.T) {
	h := newHarness(t, Config{})
	a, b, c, d, mod := user("ann"), user("bob"), user("cat"), user("dan"), user("mod")
	mustNotRefuse(t, h.slash(a, "tournament", "action=create", "format=round-robin", "roundlength=1h", "clock=1d"))
	for _, u := range []User{a, b, c, d} {
		mustNotRefuse(t, h.slash(u, "tournament", "action=join"))
	}
	mustRefuse(t, h.slash(mod, "tournament", "action=start"), "Only the organiser")
	rs := h.handle(Command{Kind: KindSlash, Name: "tournament", User: mod, GuildID: "guild", ChannelID: "chan",
		Options: map[string]string{"action": "start"}, ManageServer: true})
	mustNotRefuse(t, rs)
	ev, err := h.b.Director().Load(h.ctx, 1)
	if err != nil || ev.T.Round != 1 {
		t.Fatalf("start by Manage Server: %v %+v", err, ev)
	}
	first, second := ev.T.Rounds[0][0], ev.T.Rounds[0][1]
	quitter := User{ID: first.Black, Name: ev.Name(first.Black)}
	wd := h.slash(quitter, "tournament", "action=withdraw")
	mustNotRefuse(t, wd)
	if len(wd) != 2 || len(wd[1].Mentions) != 1 || wd[1].Mentions[0] != first.White || !strings.Contains(wd[1].Content, "by forfeit") {
		t.Errorf("withdrawal replies: %+v", wd)
	}
	mustRefuse(t, h.slash(quitter, "tournament", "action=withdraw"), "already withdrawn")
	g, err := h.b.St.game(h.ctx, first.GameID)
	if err != nil || g.Status == GmActive || g.Result != "1-0" {
		t.Fatalf("the quitter's game: %v %+v", err, g)
	}
	ev, _ = h.b.Director().Load(h.ctx, 1)
	if r := ev.T.Rounds[0][0].Result; r != tournament.WhiteForfeit {
		t.Errorf("withdrawn board result %v, want +:-", r)
	}
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if ev, _ = h.b.Director().Load(h.ctx, 1); ev.T.Round != 1 {
		t.Fatalf("round moved on before its deadline: %d", ev.T.Round)
	}
	h.clk.Advance(61 * time.Minute)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ev, _ = h.b.Director().Load(h.ctx, 1)
	if ev.T.Round != 2 || ev.T.Rounds[0][1].Result != tournament.BlackForfeit {
		t.Fatalf("after the deadline: round %d, board 2 %v", ev.T.Round, ev.T.Rounds[0][1].Result)
	}
	if g, _ := h.b.St.game(h.ctx, second.GameID); g.Status == GmActive {
		t.Error("the adjudicated game is still running")
	}
	mustRefuse(t, h.slash(b, "tournament", "action=cancel"), "Only the organiser")
	mustNotRefuse(t, h.slash(a, "tournament", "action=cancel"))
	mustRefuse(t, h.slash(a, "tournament", "action=cancel", "id=1"), "cancelled")
	mustRefuse(t, h.slash(mod, "tournament", "action=join", "id=1"), "")
}

// A round paired just before the bot stopped (the director's write done,
// no game started) gets its games when the bot starts again.
func TestTournamentRoundResumedAfterRestart(t *testing.T) {
	h := newHarness(t, Config{})
	a, b, c, d := user("ann"), user("bob"), user("cat"), user("dan")
	mustNotRefuse(t, h.slash(a, "tournament", "action=create", "format=knockout"))
	for _, u := range []User{a, b, c, d} {
		mustNotRefuse(t, h.slash(u, "tournament", "action=join"))
	}
	// The crash: the round is paired in the store, its games never started.
	if _, err := h.b.Director().Start(h.ctx, 1, tournament.Actor{ID: a.ID}); err != nil {
		t.Fatal(err)
	}
	if err := h.b.Recover(h.ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.b.Tick(h.ctx); err != nil { // delivers the queued boards
		t.Fatal(err)
	}
	ev, err := h.b.Director().Load(h.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ev.T.Rounds[0] {
		if p.GameID == 0 {
			t.Errorf("board %d has no game after the restart", p.Board)
		}
	}
	boards := 0
	for _, p := range h.n.all() {
		if isBoard(p.Reply) && len(p.Reply.Mentions) == 2 {
			boards++
		}
	}
	if boards != 2 {
		t.Errorf("%d boards posted pinging their players, want 2", boards)
	}
	// A second start changes nothing.
	before := len(h.n.all())
	if err := h.b.Recover(h.ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(h.n.all()); n != before {
		t.Errorf("a second recovery posted again: %d posts", n)
	}
}

// Computer players: the organiser enters two (join level:N; others may
// not), the bot plays both sides when they meet, nobody is pinged for
// them, a game of theirs still running at the round's deadline is
// adjudicated like any other, and the final post names them without a
// ping.
func TestTournamentComputersPlayEachOther(t *testing.T) {
	h := newHarness(t, Config{})
	a, b := user("ann"), user("bob")
	mustNotRefuse(t, h.slash(a, "tournament", "action=create", "format=round-robin", "clock=3d"))
	mustNotRefuse(t, h.slash(a, "tournament", "action=join"))
	mustRefuse(t, h.slash(b, "tournament", "action=join", "level=1"), "Only the organiser")
	mustRefuse(t, h.slash(a, "tournament", "action=join", "level=7"), "does not exist")
	mustNotRefuse(t, h.slash(a, "tournament", "action=join", "level=1"))
	mustNotRefuse(t, h.slash(a, "tournament", "action=join", "level=2"))
	mustNotRefuse(t, h.slash(a, "tournament", "action=start"))
	computersMet := false
	for round := 1; round <= 3; round++ {
		ev, err := h.b.Director().Load(h.ctx, 1)
		if err != nil || ev.T.Round != round {
			t.Fatalf("round %d: %v %+v", round, err, ev)
		}
		for _, p := range ev.T.Rounds[round-1] {
			if p.GameID == 0 {
				continue
			}
			g, err := h.b.St.game(h.ctx, p.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Rated {
				t.Errorf("a game with a computer player is rated")
			}
			if p.White == a.ID || p.Black == a.ID {
				if err := h.b.Tick(h.ctx); err != nil { // the computer's first move, if White
					t.Fatal(err)
				}
				h.b.WaitAI()
				g, _ = h.b.St.game(h.ctx, p.GameID)
				mustNotRefuse(t, h.click(a, view.GameID(g.ID, g.Seq, "resignyes")))
				continue
			}
			computersMet = true
			if g.AISide != aiBoth || g.AILevel != 1 {
				t.Errorf("computers' game: side %d level %d, want both at the lower level 1", g.AISide, g.AILevel)
			}
			from := len(h.n.all())
			for range 6 {
				if err := h.b.Tick(h.ctx); err != nil {
					t.Fatal(err)
				}
				h.b.WaitAI()
			}
			if g, _ = h.b.St.game(h.ctx, p.GameID); g.Ply < 4 {
				t.Errorf("the computers played %d plies in 6 passes", g.Ply)
			}
			for _, q := range h.n.all()[from:] {
				if len(q.Reply.Mentions) > 0 || strings.Contains(q.Reply.Content, "<@ai-") {
					t.Errorf("a computers' game pinged %v: %q", q.Reply.Mentions, q.Reply.Content)
				}
			}
			h.clk.Set(ev.T.RoundDeadline.Add(time.Second))
			if err := h.b.Tick(h.ctx); err != nil {
				t.Fatal(err)
			}
			if g, _ = h.b.St.game(h.ctx, p.GameID); g.Status == GmActive {
				t.Error("the computers' game is still running after the deadline")
			}
		}
		if err := h.b.Tick(h.ctx); err != nil {
			t.Fatal(err)
		}
	}
	if !computersMet {
		t.Error("the two computers never met")
	}
	ev, err := h.b.Director().Load(h.ctx, 1)
	if err != nil || ev.T.Status != tournament.Finished {
		t.Fatalf("not finished: %v %+v", err, ev.Row)
	}
	var final *post
	for _, p := range h.n.all() {
		if strings.Contains(p.Reply.Content, "is over.") && len(p.Reply.Files) > 0 {
			final = &p
		}
	}
	if final == nil {
		t.Fatal("no final post")
	}
	if len(final.Reply.Mentions) != 1 || final.Reply.Mentions[0] != a.ID || !strings.Contains(final.Reply.Content, "Computer 1 (level 1)") {
		t.Errorf("final post: mentions %v, %q", final.Reply.Mentions, final.Reply.Content)
	}
}

// A withdrawal that forfeits the round's last running game moves the
// tournament on at once, as that game's end would have: the next round is
// paired and its games start, without waiting for the deadline.
func TestTournamentWithdrawalEndsRound(t *testing.T) {
	h := newHarness(t, Config{})
	a, b, c := user("ann"), user("bob"), user("cat")
	mustNotRefuse(t, h.slash(a, "tournament", "action=create", "format=round-robin"))
	for _, u := range []User{a, b, c} {
		mustNotRefuse(t, h.slash(u, "tournament", "action=join"))
	}
	mustNotRefuse(t, h.slash(a, "tournament", "action=start"))
	ev, err := h.b.Director().Load(h.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	var game tournament.Pairing
	for _, p := range ev.T.Rounds[0] {
		if p.GameID != 0 {
			game = p
		}
	}
	mustNotRefuse(t, h.slash(User{ID: game.Black, Name: ev.Name(game.Black)}, "tournament", "action=withdraw"))
	ev, err = h.b.Director().Load(h.ctx, 1)
	if err != nil || ev.T.Round < 2 {
		t.Fatalf("after the withdrawal: round %d, %v", ev.T.Round, err)
	}
	// Rounds left with nothing to play (the withdrawn player's forfeits
	// and the rest) were passed at once: the current one has a game.
	playing := false
	for _, p := range ev.T.Rounds[ev.T.Round-1] {
		if (p.White == game.Black || p.Black == game.Black) && p.Result == tournament.Pending {
			t.Errorf("the withdrawn player's board is pending: %+v", p)
		}
		playing = playing || p.GameID != 0 && p.Result == tournament.Pending
	}
	if !playing {
		t.Errorf("round %d has no game to play: %+v", ev.T.Round, ev.T.Rounds)
	}
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	announced := 0
	for _, p := range h.n.all() {
		if strings.Contains(p.Reply.Content, "round 2 is paired") {
			announced++
		}
	}
	if announced != 1 {
		t.Errorf("round 2 announced %d times", announced)
	}
}
