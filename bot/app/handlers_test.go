package app

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
	"github.com/tankbot/tankbot/store/clock"
)

var alice, bob, carol = user("alice"), user("bob"), user("carol")

// legalMove returns some legal move of game id's position in notation.
func (h *harness) legalMove(id int64, pick func([]string) string) string {
	h.t.Helper()
	g, err := h.b.St.game(h.ctx, id)
	if err != nil {
		h.t.Fatal(err)
	}
	pos, err := g.Position()
	if err != nil {
		h.t.Fatal(err)
	}
	var ns []string
	for _, m := range pos.LegalMoves() {
		ns = append(ns, pos.FormatMove(m))
	}
	if pick == nil {
		return ns[0]
	}
	return pick(ns)
}

func (h *harness) game(id int64) *Game {
	h.t.Helper()
	g, err := h.b.St.game(h.ctx, id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

func TestChallengeRefusals(t *testing.T) {
	h := newHarness(t, Config{})
	mustRefuse(t, h.slash(alice, "challenge", "opponent=alice"), "yourself")
	mustRefuse(t, h.slash(alice, "challenge", "opponent=robobot"), "Bots")
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob", "game=chess"), "Unknown game")
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob", "clock=5x"), "Unknown clock")
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob", "color=green"), "Colour")
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob", "map=..../..# w"), "not valid")
	// A blank map is an empty position, not the default map.
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob", "map=  "), "empty")
	mustNotRefuse(t, h.slash(alice, "challenge", "opponent=bob"))
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob"), "already a pending challenge")
	mustRefuse(t, h.slash(bob, "challenge", "opponent=alice"), "already a pending challenge")
	mustNotRefuse(t, h.slash(alice, "challenge", "opponent=carol"))
}

func TestChallengeDefaultsAndMaps(t *testing.T) {
	h := newHarness(t, Config{})
	rs := h.slash(alice, "challenge", "opponent=bob")
	if got := text(rs); !strings.Contains(got, "Tank Chess (16×16)") || !strings.Contains(got, "30 min") || strings.Contains(got, "basic16") {
		t.Errorf("default challenge: %s", got)
	}
	// The challenged user is pinged by the content, and only they are.
	if len(rs[0].Mentions) != 1 || rs[0].Mentions[0] != bob.ID || !strings.Contains(rs[0].Content, "<@"+bob.ID+">") {
		t.Errorf("mentions %v in %q", rs[0].Mentions, rs[0].Content)
	}
	rs = h.slash(alice, "challenge", "opponent=carol", "map=basic20")
	if got := text(rs); !strings.Contains(got, "Tank Chess (20×20)") || !strings.Contains(got, "45 min") {
		t.Errorf("basic20 challenge: %s", got)
	}
	rs = h.slash(bob, "challenge", "opponent=carol", "clock=3d")
	if got := text(rs); !strings.Contains(got, "3 days per move") {
		t.Errorf("3d challenge: %s", got)
	}
}

func TestAcceptDeclineCancelExpire(t *testing.T) {
	h := newHarness(t, Config{ChallengeExpiry: time.Hour})
	rs := h.slash(alice, "challenge", "opponent=bob")
	acc, dec, can := findID(t, rs, "accept"), findID(t, rs, "decline"), findID(t, rs, "cancel")
	mustRefuse(t, h.click(alice, acc), "your own challenge")
	mustRefuse(t, h.click(carol, acc), "someone else")
	mustRefuse(t, h.click(bob, can), "Only the challenger")
	mustNotRefuse(t, h.click(bob, dec))
	mustRefuse(t, h.click(bob, acc), "already been answered")

	rs = h.slash(alice, "challenge", "opponent=bob")
	mustNotRefuse(t, h.click(alice, findID(t, rs, "cancel")))

	// Expiry: refused once past, and announced by the scheduler (a new
	// message, as the transport did not record the challenge's: see
	// challenge_test.go for the edit in place).
	rs = h.slash(alice, "challenge", "opponent=bob")
	acc = findID(t, rs, "accept")
	h.clk.Advance(time.Hour)
	mustRefuse(t, h.slash(bob, "accept"), "expired")
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps := h.n.all()
	if len(ps) != 1 || !strings.Contains(ps[0].Reply.Content, "expired") || ps[0].Channel != "chan" {
		t.Fatalf("expiry posts: %+v", ps)
	}
	mustRefuse(t, h.slash(bob, "accept", "challenge="+strings.Split(acc, ":")[1]), "expired")
	mustRefuse(t, h.click(bob, "c:999:accept"), "no longer exists")
}

func TestOpenChallengeAndDoubleAccept(t *testing.T) {
	h := newHarness(t, Config{})
	rs := h.slash(alice, "challenge")
	acc := findID(t, rs, "accept")
	var wg sync.WaitGroup
	results := make([][]view.Reply, 2)
	for i, u := range []User{bob, carol} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = h.click(u, acc)
		}()
	}
	wg.Wait()
	started := 0
	for _, rs := range results {
		if len(rs) == 1 && rs[0].Ephemeral {
			if !strings.Contains(rs[0].Content, "already been answered") {
				t.Errorf("loser got %q", rs[0].Content)
			}
			continue
		}
		started++
	}
	if started != 1 {
		t.Fatalf("%d games started from one open challenge", started)
	}
}

func TestAcceptStartsGame(t *testing.T) {
	h := newHarness(t, Config{})
	rs := h.slash(alice, "challenge", "opponent=bob", "color=black", "thread=true")
	rs = h.click(bob, findID(t, rs, "accept"))
	var board *view.Reply
	for i := range rs {
		if isBoard(rs[i]) {
			board = &rs[i]
		}
	}
	if board == nil {
		t.Fatalf("accept replies: %d, no board", len(rs))
	}
	// The first board itself pings both players: no second message.
	ping := board
	if len(rs) != 2 || len(board.Mentions) != 2 {
		t.Errorf("accept: %d replies, board mentions %v", len(rs), board.Mentions)
	}
	g := h.game(gameOf(*board))
	if g.White.ID != bob.ID || g.Black.ID != alice.ID {
		t.Errorf("colours: white %s black %s", g.White.Name, g.Black.Name)
	}
	if board.ChannelID != "chan/#1 Tank Chess · bob vs alice" || g.ChannelID != board.ChannelID {
		t.Errorf("thread: board in %q, game in %q", board.ChannelID, g.ChannelID)
	}
	if len(board.Files) != 1 || board.Embed.Image != board.Files[0].Name {
		t.Errorf("board image missing: %+v", board.Files)
	}
	if ping.Mentions[0] != bob.ID || !strings.Contains(ping.Content, "<@"+alice.ID+">") || !strings.Contains(ping.Content, "<t:"+strconv.FormatInt(t0.Add(30*time.Minute).Unix(), 10)+":R>") {
		t.Errorf("ping: %+v", ping)
	}
	// No threads allowed: said to the challenger, game in the channel.
	h.n.noThreads = true
	rs = h.slash(alice, "challenge", "opponent=carol", "thread=true")
	rs = h.click(carol, findID(t, rs, "accept"))
	if !strings.Contains(text(rs), "may not create threads") {
		t.Errorf("no-thread notice missing: %s", text(rs))
	}
}

func TestMoveFlow(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	mv := h.legalMove(id, nil)
	mustRefuse(t, h.slash(bob, "move", "move="+mv), "not your turn")
	mustRefuse(t, h.slash(carol, "move", "move="+mv, "game="+strconv.FormatInt(id, 10)), "not playing")
	rs := h.slash(alice, "move", "move=zz99 > q")
	mustRefuse(t, rs, "Illegal move")
	if h.game(id).Ply != 0 {
		t.Fatal("illegal move changed the game")
	}
	h.clk.Advance(time.Minute)
	rs = h.slash(alice, "move", "move="+mv)
	mustNotRefuse(t, rs)
	if !strings.Contains(text(rs), "alice played") {
		t.Errorf("move reply: %s", text(rs))
	}
	g := h.game(id)
	if g.Ply != 1 || g.ClockState.Left[0] != 29*time.Minute || !g.ClockState.TurnStart.Equal(h.clk.Now()) {
		t.Errorf("after move: ply %d remaining %v", g.Ply, g.ClockState.Left)
	}
	// One message: the board, whose content pings bob.
	if len(rs) != 1 || !isBoard(rs[0]) || len(rs[0].Mentions) != 1 || rs[0].Mentions[0] != bob.ID || !strings.HasPrefix(rs[0].Content, "<@"+bob.ID+">") {
		t.Errorf("move: %d replies, mentions %v, content %q", len(rs), rs[0].Mentions, rs[0].Content)
	}
	// The old board's buttons are stale now.
	mustRefuse(t, h.click(alice, view.GameID(id, 0, "resign")), "earlier position")
	// /board shows the position, to the caller only unless asked.
	rs = h.slash(carol, "board", "game="+strconv.FormatInt(id, 10))
	if len(rs) != 1 || !isBoard(rs[0]) || len(rs[0].Files) != 1 || !rs[0].Ephemeral || len(rs[0].Components) != 0 {
		t.Fatalf("board: %d replies", len(rs))
	}
	rs = h.slash(carol, "board", "game="+strconv.FormatInt(id, 10), "public=true")
	if len(rs) != 1 || rs[0].Ephemeral || len(rs[0].Components) == 0 {
		t.Fatalf("public board: %d replies", len(rs))
	}
	// Replay reproduces the cached position.
	checkReplay(t, h, id)
}

func checkReplay(t *testing.T, h *harness, id int64) {
	t.Helper()
	g := h.game(id)
	rules, _ := LookupGame(g.Game)
	start, err := rules.Decode(g.Start)
	if err != nil {
		t.Fatal(err)
	}
	log, err := h.b.St.MoveLog(h.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	gm, err := engine.Replay(start, log)
	if err != nil {
		t.Fatal(err)
	}
	if gm.Position().Encode() != g.Pos {
		t.Fatalf("replay gives %s, cached %s", gm.Position().Encode(), g.Pos)
	}
}

func TestRacingSamePly(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	g := h.game(id)
	pos, _ := g.Position()
	moves := pos.LegalMoves()
	var wg sync.WaitGroup
	out := make([][]view.Reply, 8)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = h.click(alice, view.GameID(id, 0, "move", pos.FormatMove(moves[i%len(moves)])))
		}()
	}
	wg.Wait()
	landed := 0
	for _, rs := range out {
		if len(rs) == 1 && rs[0].Ephemeral {
			continue
		}
		landed++
	}
	if landed != 1 || h.game(id).Ply != 1 {
		t.Fatalf("%d moves landed, ply %d", landed, h.game(id).Ply)
	}
	checkReplay(t, h, id)
}

func TestResignAndFinished(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	mustRefuse(t, h.slash(carol, "resign", "game="+strconv.FormatInt(id, 10)), "not playing")
	// Resigning asks first; Cancel changes nothing.
	rs := h.slash(bob, "resign")
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "cannot be undone") {
		t.Fatalf("resign asks: %+v", rs)
	}
	h.click(bob, findID(t, rs, "keep"))
	if h.game(id).Status != GmActive {
		t.Fatal("Cancel resigned")
	}
	mustRefuse(t, h.click(carol, findID(t, rs, "resignyes")), "not playing")
	rs = h.click(bob, findID(t, rs, "resignyes"))
	mustNotRefuse(t, rs)
	if got := text(rs); !strings.Contains(got, "bob resigned") || !strings.Contains(got, "White (alice) wins — by resignation") {
		t.Errorf("resign: %s", got)
	}
	if len(rs) != 2 || !rs[0].Update || !rs[0].Ephemeral || len(rs[1].Mentions) != 2 || rs[1].ChannelID != "chan" {
		t.Errorf("resign: the confirmation is edited and the board pings both: %d replies", len(rs))
	}
	g := h.game(id)
	if g.Status != gmFinished || g.Result != "1-0" || g.Reason != "resignation" {
		t.Errorf("after resign: %+v", g)
	}
	sid := strconv.FormatInt(id, 10)
	mustRefuse(t, h.slash(alice, "move", "move=e1", "game="+sid), "is over")
	mustRefuse(t, h.slash(alice, "resign", "game="+sid), "is over")
	// Without a game option the finished game here is meant: it says how
	// it ended.
	mustRefuse(t, h.slash(alice, "move", "move=e1"), "is over — White (alice) wins — by resignation")
	// The flag of the finished game never fires.
	h.clk.Advance(time.Hour)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if ps := h.n.all(); len(ps) != 0 {
		t.Errorf("posts after a finished game: %+v", ps)
	}
	// Rematch swaps colours.
	rs = h.slash(alice, "rematch")
	mustNotRefuse(t, rs)
	rs = h.click(bob, findID(t, rs, "accept"))
	for _, r := range rs {
		if isBoard(r) {
			g := h.game(gameOf(r))
			if g.White.ID != bob.ID {
				t.Errorf("rematch white = %s", g.White.Name)
			}
		}
	}
}

func TestFlagFallAndReminder(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	h.clk.Advance(9*time.Minute + 1*time.Second)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps := h.n.all()
	if len(ps) != 1 || !strings.Contains(ps[0].Reply.Content, "left in game") || ps[0].Reply.Mentions[0] != alice.ID {
		t.Fatalf("reminder: %+v", ps)
	}
	h.clk.Advance(time.Minute)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps = h.n.all()
	if len(ps) != 2 || !strings.Contains(text([]view.Reply{ps[1].Reply}), "ran out of time") || !strings.Contains(text([]view.Reply{ps[1].Reply}), "Black (bob) wins — on time") || len(ps[1].Reply.Mentions) != 2 {
		t.Fatalf("flag: %+v", ps)
	}
	if g := h.game(id); g.Result != "0-1" || g.Reason != "timeout" {
		t.Errorf("after flag: %+v", g)
	}
}

func TestCorrespondenceReminders(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=3d")
	h.clk.Advance(48*time.Hour + time.Second)
	_ = h.b.Tick(h.ctx)
	h.clk.Advance(23 * time.Hour)
	_ = h.b.Tick(h.ctx)
	ps := h.n.all()
	if len(ps) != 2 || !strings.Contains(ps[0].Reply.Content, "is due") {
		t.Fatalf("reminders: %+v", ps)
	}
	// A move resets the allowance: the old flag is stale.
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	h.clk.Advance(2 * time.Hour)
	_ = h.b.Tick(h.ctx)
	if g := h.game(id); g.Status != GmActive {
		t.Fatalf("stale flag ended the game: %+v", g)
	}
}

func TestMoveAfterDeadlineLosesOnTime(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=30m")
	h.clk.Advance(31 * time.Minute)
	rs := h.slash(alice, "move", "move="+h.legalMove(id, nil))
	if !strings.Contains(text(rs), "ran out of time") {
		t.Fatalf("late move: %s", text(rs))
	}
	if g := h.game(id); g.Ply != 0 || g.Reason != "timeout" {
		t.Errorf("late move: %+v", g)
	}
}

func TestDrawAbort(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	rs := h.slash(alice, "draw")
	mustNotRefuse(t, rs)
	mustRefuse(t, h.slash(alice, "draw"), "already offered")
	mustRefuse(t, h.click(carol, findID(t, rs, "drawyes")), "not playing")
	mustNotRefuse(t, h.click(bob, findID(t, rs, "drawno")))
	rs = h.slash(bob, "draw")
	// A move lapses the offer.
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	mustRefuse(t, h.click(alice, findID(t, rs, "drawyes")), "earlier position")
	if h.game(id).DrawOffer != 0 {
		t.Fatal("offer did not lapse")
	}
	rs = h.slash(bob, "draw")
	rs = h.click(alice, findID(t, rs, "drawyes"))
	if !strings.Contains(text(rs), "Draw — by agreement") || h.game(id).Result != "1/2-1/2" || len(rs[0].Mentions) != 2 {
		t.Fatalf("draw: %s", text(rs))
	}

	id = h.StartGame()
	for i := 0; i < 3; i++ {
		mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
		mustNotRefuse(t, h.slash(bob, "move", "move="+h.legalMove(id, nil)))
		if i == 0 {
			if rs := h.slash(carol, "games"); !strings.Contains(rs[0].Content, "Active games") {
				t.Errorf("games: %+v", rs)
			}
		}
	}
	mustRefuse(t, h.slash(alice, "abort"), "Too late")
	mustNotRefuse(t, h.click(alice, findID(t, h.slash(alice, "resign"), "resignyes")))
	id = h.StartGame()
	mustNotRefuse(t, h.slash(bob, "abort"))
	if g := h.game(id); g.Reason != "aborted" || g.Result != "*" {
		t.Errorf("abort: %+v", g)
	}
}

func TestInfoCommands(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	rs := h.slash(alice, "games")
	if !strings.Contains(rs[0].Content, "#"+strconv.FormatInt(id, 10)) {
		t.Errorf("games: %s", rs[0].Content)
	}
	rs = h.slash(alice, "history")
	if len(rs) != 1 || len(rs[0].Files) != 1 || !strings.Contains(string(rs[0].Files[0].Data), "1. ") {
		t.Fatalf("history: %+v", rs)
	}
	rs = h.slash(alice, "rules")
	if !strings.Contains(rs[0].Content, "Tank Chess") || len(rs[0].Files) != 1 {
		t.Errorf("rules: %+v", rs)
	}
	if rs := h.slash(alice, "help"); !strings.Contains(rs[0].Content, "/challenge") {
		t.Errorf("help: %+v", rs)
	}
	rs = h.slash(alice, "settings", "language=pt-BR", "flip=true")
	if !strings.Contains(rs[0].Content, "Salvo") {
		t.Errorf("settings: %s", rs[0].Content)
	}
	mustRefuse(t, h.slash(alice, "move", "move=zz"), "Não é sua vez")
	mustRefuse(t, h.slash(alice, "settings", "language=klingon"), "desconhecido")
	mustRefuse(t, h.slash(alice, "nope"), "desconhecido")
}

func TestSuggest(t *testing.T) {
	h := newHarness(t, Config{})
	h.StartGame()
	c := Command{Name: "move", User: alice, GuildID: "guild", ChannelID: "chan", Options: map[string]string{"move": ""}}
	all := h.b.Suggest(h.ctx, c, "move")
	if len(all) == 0 || len(all) > MaxSuggestions {
		t.Fatalf("suggest: %d choices", len(all))
	}
	c.Options["move"] = all[0].Value[:2]
	for _, ch := range h.b.Suggest(h.ctx, c, "move") {
		if !strings.Contains(squash(ch.Value), squash(all[0].Value[:2])) {
			t.Errorf("suggestion %q does not match", ch.Value)
		}
	}
	if got := h.b.Suggest(h.ctx, Command{Name: "challenge", Options: map[string]string{"clock": "7"}}, "clock"); len(got) != 1 || got[0].Value != "7d" {
		t.Errorf("clock suggest: %+v", got)
	}
}

func TestHandleNeverPanics(t *testing.T) {
	h := newHarness(t, Config{})
	for _, id := range []string{"", "g", "g:x:1:move", "g:1:-1:move", "c:1", "g:99:0:resign", "c:0:accept", "x:1:2:3:4:5", "g:1:0:", ":::"} {
		rs := h.b.Handle(context.Background(), Command{Kind: KindComponent, CustomID: id, User: alice})
		if len(rs) != 1 || !rs[0].Ephemeral {
			t.Errorf("custom id %q: %+v", id, rs)
		}
	}
}

func TestCommandsSpec(t *testing.T) {
	h := newHarness(t, Config{})
	specs := h.b.Commands()
	seen := map[string]bool{}
	for _, s := range specs {
		if s.Description == "" || s.DescriptionLocalizations["th"] == "" || s.DescriptionLocalizations["pt-BR"] == "" {
			t.Errorf("%s: missing descriptions", s.Name)
		}
		if len(s.Description) > 100 {
			t.Errorf("%s: description longer than Discord's 100", s.Name)
		}
		seen[s.Name] = true
		for _, o := range s.Options {
			if o.Description == "" || len(o.Description) > 100 {
				t.Errorf("%s %s: bad description", s.Name, o.Name)
			}
		}
	}
	for _, n := range []string{"challenge", "move", "board", "resign", "draw", "abort", "rematch", "games", "history", "rules", "help", "settings"} {
		if !seen[n] {
			t.Errorf("command %s not defined", n)
		}
	}
}

func TestTakeback(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	mustRefuse(t, h.slash(alice, "takeback"), "no move to take back")
	before := h.game(id).Pos
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	mustRefuse(t, h.slash(bob, "takeback"), "no move to take back")
	rs := h.slash(alice, "takeback")
	mustNotRefuse(t, rs)
	mustRefuse(t, h.click(alice, findID(t, rs, "tbyes")), "no takeback request")
	h.clk.Advance(time.Minute)
	rs = h.click(bob, findID(t, rs, "tbyes"))
	mustNotRefuse(t, rs)
	g := h.game(id)
	if g.Ply != 0 || g.Pos != before || g.ClockState.Left[1] != 29*time.Minute {
		t.Fatalf("after takeback: ply %d remaining %v", g.Ply, g.ClockState.Left)
	}
	checkReplay(t, h, id)
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	checkReplay(t, h, id)
}

// Restart: a new core on the same file continues the game, its clocks and
// its scheduled events (a flag due while "down" fires on the first tick).
func TestRestart(t *testing.T) {
	path := t.TempDir() + "/bot.db"
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(t0)
	n := &fakeNotifier{}
	h := &harness{t: t, b: New(Config{}, st, clk, n, nil), clk: clk, n: n, ctx: context.Background()}
	id := h.StartGame("clock=10m")
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	st.Close()

	st2, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	h.b = New(Config{}, st2, clk, n, nil)
	h.clk.Advance(2 * time.Minute)
	mustNotRefuse(t, h.slash(bob, "move", "move="+h.legalMove(id, nil)))
	g := h.game(id)
	if g.Ply != 2 || g.ClockState.Left[1] != 8*time.Minute {
		t.Fatalf("after restart: ply %d remaining %v", g.Ply, g.ClockState.Left)
	}
	checkReplay(t, h, id)
	// Down for an hour: alice's flag fell meanwhile and fires at once.
	h.clk.Advance(time.Hour)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if g := h.game(id); g.Reason != "timeout" || g.Result != "0-1" {
		t.Fatalf("flag after restart: %+v", g)
	}
	// Exactly one flag announcement (the reminder of the same turn is stale
	// or fired before; the flag is claimed once).
	flags := 0
	for _, p := range n.all() {
		if strings.Contains(text([]view.Reply{p.Reply}), "ran out of time") {
			flags++
		}
	}
	if flags != 1 {
		t.Fatalf("%d flag announcements", flags)
	}
}

func TestCustomMapRefusals(t *testing.T) {
	h := newHarness(t, Config{})
	// A wrecked CLT: a map holds no wrecks.
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob", "map=....xcs.../......../......../......../......../......../......../...Cn.... w 1"), "wreck")
	// Bad TFEN: the engine's reason, translated.
	h.loc = "pt-BR"
	mustRefuse(t, h.slash(alice, "challenge", "opponent=bob", "map=......../........ w 1"), "não é válido")
}

// Every registered game is played through the same handlers.
func TestEveryGame(t *testing.T) {
	for _, name := range GameNames() {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, Config{})
			id := h.StartGame("game=" + name)
			for i := 0; i < 4; i++ {
				g := h.game(id)
				pos, err := g.Position()
				if err != nil {
					t.Fatal(err)
				}
				if pos.Status().Over() {
					break
				}
				who := g.User(int(pos.Turn()))
				rs := h.slash(who, "move", "move="+h.legalMove(id, nil))
				mustNotRefuse(t, rs)
				// The move lands whether or not imaging draws this game yet;
				// the image is attached exactly when it can be drawn.
				_, rerr := view.RenderPNG(pos, nil, false, "en", nil)
				if (len(rs[0].Files) == 1) != (rerr == nil) {
					t.Errorf("%s: move %d: %d files, render error %v", name, i+1, len(rs[0].Files), rerr)
				}
			}
			checkReplay(t, h, id)
		})
	}
}

// A custom tank map must obey the map rules (§8), not only parse.
func TestCustomMapValidated(t *testing.T) {
	h := newHarness(t, Config{})
	basic, _ := tank.StartPosition("basic16")
	good := basic.Encode()
	rs := h.slash(alice, "challenge", "opponent=bob", "map="+good)
	mustNotRefuse(t, rs)
	// One obstacle more on White's side only: no longer point symmetric.
	ranks := strings.Split(strings.Fields(good)[0], "/")
	// The mirror of the first square of rank index 8 is the last of index 7.
	if ranks[8][0] != '.' || ranks[7][15] != '.' {
		t.Fatalf("basic16 changed: %q %q", ranks[7], ranks[8])
	}
	ranks[8] = "#" + ranks[8][1:]
	bad := strings.Join(ranks, "/") + " w 1"
	mustRefuse(t, h.slash(alice, "challenge", "opponent=carol", "map="+bad), "point symmetric")
}
