package app

import (
	"bytes"
	"context"
	"image/gif"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/store"
)

// finalBoard is the one board reply among rs (the game-over message).
func finalBoard(t *testing.T, rs []view.Reply) view.Reply {
	t.Helper()
	for _, r := range rs {
		if isBoard(r) && !r.Ephemeral {
			return r
		}
	}
	t.Fatalf("no board among %+v", rs)
	return view.Reply{}
}

// playMoves plays plies legal moves, alice (white) first.
func (h *harness) playMoves(id int64, plies int) {
	h.t.Helper()
	for i := 0; i < plies; i++ {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		mustNotRefuse(h.t, h.slash(who, "move", "move="+h.legalMove(id, nil)))
	}
}

// checkFinalFiles checks a game-over board carries its image as the embed
// image, the record of plies moves and a replay of plies+1 frames.
func checkFinalFiles(t *testing.T, r view.Reply, number, plies int) {
	t.Helper()
	base := "game-" + strconv.Itoa(number)
	if len(r.Files) != 3 || r.Embed == nil || r.Embed.Image != r.Files[0].Name || r.Files[1].Name != base+".txt" || r.Files[2].Name != base+".gif" {
		names := []string{}
		for _, f := range r.Files {
			names = append(names, f.Name)
		}
		t.Fatalf("final board files %v, embed %+v", names, r.Embed)
	}
	if _, err := png.Decode(bytes.NewReader(r.Files[0].Data)); err != nil {
		t.Fatalf("board image: %v", err)
	}
	rec, err := recfile.Parse(string(r.Files[1].Data))
	if err != nil || len(rec.Moves) != plies || rec.Number != number {
		t.Fatalf("record: %v %+v", err, rec)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(r.Files[2].Data))
	if err != nil || len(anim.Image) != plies+1 {
		t.Fatalf("replay: %v, %d frames, want %d", err, len(anim.Image), plies+1)
	}
}

// A rated game's end changes both ratings (in the finishing write: rating
// again changes nothing) and the final board says so, with the record and
// the replay attached.
func TestRatedGameOverMessage(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	h.playMoves(id, 3)
	fin := finalBoard(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))
	for _, want := range []string{"alice 1500? → 1662? (+162)", "bob 1500? → 1338? (−162)", "<@id-alice>", "<@id-bob>"} {
		if !strings.Contains(fin.Content, want) {
			t.Fatalf("game-over content lacks %q:\n%s", want, fin.Content)
		}
	}
	if len(fin.Components) != 1 {
		t.Fatalf("final board: %+v", fin)
	}
	checkFinalFiles(t, fin, 1, 3)
	st := h.b.St.(*storeRepo).st
	for _, p := range []User{alice, bob} {
		r, err := st.Rating(h.ctx, "guild", "tank", p.ID)
		if err != nil || r.Games != 1 {
			t.Fatalf("%s: %+v %v", p.Name, r, err)
		}
	}
	again, err := h.b.rateGame(h.ctx, id)
	if err != nil || again[0].Applied || again[1].Applied {
		t.Fatalf("the finishing write should have rated the game: %+v %v", again, err)
	}
}

// rated:false makes a casual game; an aborted game never counts.
func TestCasualAndAbortedNotRated(t *testing.T) {
	h := newHarness(t, Config{})
	rs := h.slash(alice, "challenge", "opponent=bob", "color=white", "rated=false")
	if !strings.Contains(text(rs), "Casual game") {
		t.Fatalf("the challenge should say it is casual:\n%s", text(rs))
	}
	rs = h.click(bob, findID(t, rs, "accept"))
	id := gameOf(finalBoard(t, rs))
	if g := h.game(id); g.Rated {
		t.Fatal("a rated:false challenge made a rated game")
	}
	h.playMoves(id, 2)
	fin := finalBoard(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))
	if strings.Contains(fin.Content, "→") {
		t.Fatalf("a casual game shows rating changes:\n%s", fin.Content)
	}
	checkFinalFiles(t, fin, 1, 2)

	id2 := h.StartGame()
	h.playMoves(id2, 1)
	fin = finalBoard(t, h.slash(alice, "abort"))
	if strings.Contains(fin.Content, "→") || h.game(id2).Status != gmFinished {
		t.Fatalf("aborted game: %s", fin.Content)
	}
	st := h.b.St.(*storeRepo).st
	for _, p := range []User{alice, bob} {
		if rs, err := st.PlayerRatings(h.ctx, "guild", p.ID); err != nil || len(rs) != 0 {
			t.Fatalf("%s has ratings after a casual and an aborted game: %+v %v", p.Name, rs, err)
		}
	}
	// A rematch of a casual game is casual too.
	rs = h.click(alice, findID(t, []view.Reply{fin}, "rematch"))
	if strings.Contains(text(rs), "Casual") {
		t.Fatalf("the rematch of a rated (aborted) game is rated:\n%s", text(rs))
	}
}

// The scheduler's flag-fall rates the game exactly once, and the queued
// final board is completed at delivery with the rating lines, the record
// and the replay.
func TestSchedulerFlagFallRatesOnce(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	h.playMoves(id, 2)
	h.clk.Advance(11 * time.Minute)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if g := h.game(id); g.Status != gmFinished || g.Reason != "timeout" {
		t.Fatalf("game %s %s", g.Status, g.Reason)
	}
	var fin *view.Reply
	for _, p := range h.n.all() {
		if strings.Contains(p.Reply.Content, "is over") {
			r := p.Reply
			fin = &r
		}
	}
	if fin == nil {
		t.Fatalf("no final board among %d posts", len(h.n.all()))
	}
	// Two plies played: white (alice) was to move and lost on time.
	if !strings.Contains(fin.Content, "alice 1500? → 1338? (−162)") || !strings.Contains(fin.Content, "bob 1500? → 1662? (+162)") {
		t.Fatalf("queued game-over content:\n%s", fin.Content)
	}
	checkFinalFiles(t, *fin, 1, 2)
	for range 3 {
		h.clk.Advance(10 * time.Minute)
		if err := h.b.Tick(h.ctx); err != nil {
			t.Fatal(err)
		}
	}
	st := h.b.St.(*storeRepo).st
	r, err := st.Rating(h.ctx, "guild", "tank", bob.ID)
	if err != nil || r.Games != 1 || r.Wins != 1 {
		t.Fatalf("bob after the flag-fall: %+v %v", r, err)
	}
	if cs, _ := st.RatingChanges(h.ctx, id); len(cs) != 2 {
		t.Fatalf("changes %+v", cs)
	}
}

// slashIn runs a slash command in another server.
func (h *harness) slashIn(guild string, who User, name string, opts ...string) []view.Reply {
	h.t.Helper()
	c := Command{Kind: KindSlash, Name: name, User: who, GuildID: guild, ChannelID: guild + "-chan", Options: map[string]string{}, Users: map[string]User{}}
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		c.Options[k] = v
		if k == "opponent" {
			u := user(v)
			c.Options[k] = u.ID
			c.Users[u.ID] = u
		}
	}
	return h.b.Handle(h.ctx, c)
}

// Game numbers are per server: each server starts at #1, and #1 in one
// server never finds the other's game. Titles, thread names and look-ups
// use the number.
func TestNumbersPerGuild(t *testing.T) {
	h := newHarness(t, Config{})
	h.StartGame()                     // guild #1
	id2 := h.StartGame("thread=true") // guild #2 (alice and bob again, in a thread)
	if g := h.game(id2); g.Number != 2 || !strings.Contains(g.ChannelID, "#2 Tank Chess · alice vs bob") {
		t.Fatalf("second game: number %d, thread %q", g.Number, g.ChannelID)
	}
	rs := h.slashIn("B", carol, "challenge", "opponent=dave", "color=white")
	rs = h.b.Handle(h.ctx, Command{Kind: KindComponent, CustomID: findID(t, rs, "accept"), User: user("dave"), GuildID: "B", ChannelID: "B-chan"})
	bBoard := finalBoard(t, rs)
	if bBoard.Embed == nil || !strings.HasPrefix(bBoard.Embed.Title, "Game #1 · Tank Chess") {
		t.Fatalf("guild B's first game title: %+v", bBoard.Embed)
	}
	if !strings.Contains(bBoard.Content, "game #1") {
		t.Fatalf("guild B's first ping: %s", bBoard.Content)
	}
	// #1 in B is B's game; #2 does not exist there.
	b1 := finalBoard(t, h.slashIn("B", carol, "board", "game=#1", "public=true"))
	if gameOf(b1) != gameOf(bBoard) {
		t.Fatalf("game:#1 in B found game %d, want %d", gameOf(b1), gameOf(bBoard))
	}
	mustRefuse(t, h.slashIn("B", carol, "board", "game=#2"), "no game #2")
	mustRefuse(t, h.slashIn("B", carol, "board", "game=abc"), "No game #abc")
	// Refusals name the number, never the internal id.
	mustRefuse(t, h.slashIn("B", user("erin"), "resign", "game=1"), "#1")
	// Autocomplete offers numbers.
	got := h.b.Suggest(h.ctx, Command{Kind: KindSlash, Name: "board", User: carol, GuildID: "B", ChannelID: "B-chan", Options: map[string]string{"game": ""}}, "game")
	if len(got) != 1 || got[0].Value != "1" || !strings.HasPrefix(got[0].Name, "#1 ") {
		t.Fatalf("autocomplete in B: %+v", got)
	}
	// Finished games are offered where they can be looked at.
	mustNotRefuse(t, h.click(bob, findID(t, h.slash(bob, "resign", "game=#2"), "resignyes")))
	sug := func(cmd string) []view.Choice {
		return h.b.Suggest(h.ctx, Command{Kind: KindSlash, Name: cmd, User: bob, GuildID: "guild", ChannelID: "chan", Options: map[string]string{"game": "#"}}, "game")
	}
	if got := sug("history"); len(got) != 2 {
		t.Fatalf("/history autocomplete: %+v", got)
	}
	if got := sug("move"); len(got) != 1 || got[0].Value != "1" {
		t.Fatalf("/move autocomplete: %+v", got)
	}
	// /games lists numbers.
	if s := text(h.slash(alice, "games")); !strings.Contains(s, "#1 ") || strings.Contains(s, "#2 ") {
		t.Fatalf("/games:\n%s", s)
	}
}

// /board game:#N ply:K shows any ply of a game of this server, finished or
// not; out of range is refused.
func TestBoardAtPly(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	h.playMoves(id, 4)
	log, _ := h.b.St.MoveLog(h.ctx, id)
	check := func(k int, want string) {
		t.Helper()
		rs := h.slash(carol, "board", "game=#1", "ply="+strconv.Itoa(k))
		if len(rs) != 1 || !rs[0].Ephemeral || len(rs[0].Components) != 0 || isBoard(rs[0]) {
			t.Fatalf("ply %d: %+v", k, rs)
		}
		e := rs[0].Embed
		if e == nil || !strings.Contains(e.Description, "Position after ply "+strconv.Itoa(k)+" of 4") || len(rs[0].Files) != 1 {
			t.Fatalf("ply %d: embed %+v", k, e)
		}
		last := ""
		for _, f := range e.Fields {
			if f.Name == "Last move" {
				last = f.Value
			}
		}
		if !strings.HasPrefix(last, want) || want == "" && last != "" {
			t.Fatalf("ply %d: last move %q, want %q", k, last, want)
		}
	}
	check(0, "")
	check(1, log[0])
	check(3, log[2])
	check(4, log[3])
	mustRefuse(t, h.slash(carol, "board", "game=#1", "ply=5"), "Ply 5 does not exist")
	mustRefuse(t, h.slash(carol, "board", "game=#1", "ply=-1"), "Ply -1 does not exist")
	// Finished: still there, at every ply.
	mustNotRefuse(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))
	check(2, log[1])
	// A public look at the past does not become the game's board.
	rs := h.slash(alice, "board", "game=#1", "ply=2", "public=true")
	if len(rs) != 1 || rs[0].Ephemeral || isBoard(rs[0]) || len(rs[0].Components) != 0 {
		t.Fatalf("public ply view: %+v", rs)
	}
}

// The store counts a game in its finishing write: a game finished through
// GameUpdate.Rate has its changes with the finish.
func TestFinishRatesInSameWrite(t *testing.T) {
	h := newHarness(t, Config{})
	st := h.b.St.(*storeRepo).st
	g, err := st.CreateGame(h.ctx, store.Game{Kind: "tank", Guild: "guild", Channel: "c", Players: [2]string{"a", "b"}, Start: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Number != 1 || g.Casual {
		t.Fatalf("new game: number %d casual %v", g.Number, g.Casual)
	}
	err = st.UpdateGame(h.ctx, g.ID, g.Rev, store.GameUpdate{Outcome: &store.Outcome{Result: "0-1", Reason: "resignation"}, Rate: glickoRule})
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := st.RatingChanges(h.ctx, g.ID); err != nil || len(cs) != 2 || cs[1].After.Rating <= 1500 {
		t.Fatalf("changes %+v %v", cs, err)
	}
	c, err := st.CreateGame(h.ctx, store.Game{Kind: "tank", Guild: "guild", Channel: "d", Players: [2]string{"a", "b"}, Start: "x", Casual: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.UpdateGame(h.ctx, c.ID, c.Rev, store.GameUpdate{Outcome: &store.Outcome{Result: "1-0", Reason: "resignation"}, Rate: glickoRule}); err != nil {
		t.Fatal(err)
	}
	if cs, _ := st.RatingChanges(h.ctx, c.ID); len(cs) != 0 {
		t.Fatalf("a casual game was rated: %+v", cs)
	}
}

// renamingNotifier takes the number its thread was named for (another
// game is created in the guild meanwhile) and records renames.
type renamingNotifier struct {
	fakeNotifier
	st      *store.Store
	renamed map[string]string
}

func (n *renamingNotifier) CreateThread(ctx context.Context, ch, msg, name string) (string, error) {
	if _, err := n.st.CreateGame(ctx, store.Game{Kind: "tank", Guild: "guild", Channel: "elsewhere", Players: [2]string{"x", "y"}, Start: "x"}); err != nil {
		return "", err
	}
	return n.fakeNotifier.CreateThread(ctx, ch, msg, name)
}

func (n *renamingNotifier) RenameThread(_ context.Context, id, name string) error {
	n.renamed[id] = name
	return nil
}

// A thread named for a number another game took is renamed to its game's
// number once the game exists.
func TestThreadRenamedWhenNumberTaken(t *testing.T) {
	h := newHarness(t, Config{})
	st := h.b.St.(*storeRepo).st
	n := &renamingNotifier{st: st, renamed: map[string]string{}}
	h.b.n = n
	id := h.StartGame("thread=true")
	g := h.game(id)
	if g.Number != 2 || !strings.HasSuffix(g.ChannelID, "#1 Tank Chess · alice vs bob") {
		t.Fatalf("game #%d in %q", g.Number, g.ChannelID)
	}
	if got := n.renamed[g.ChannelID]; got != "#2 Tank Chess · alice vs bob" {
		t.Fatalf("thread renamed to %q", got)
	}
}

// An ending decided by a move (here a draw by repetition) is rated in the
// move's write, and its final board shows both lines and the files.
func TestRepetitionDrawRated(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("game=camelot", "clock=untimed")
	shuffle := []string{"C6-C5", "C11-C12", "C5-C6", "C12-C11"}
	var last []view.Reply
	for i := 0; i < 8; i++ {
		last = h.slash([]User{alice, bob}[i%2], "move", "move="+shuffle[i%4])
		mustNotRefuse(t, last)
	}
	if g := h.game(id); g.Status != gmFinished || g.Reason != "repetition" {
		t.Fatalf("not drawn by repetition: %s %s", g.Status, g.Reason)
	}
	fin := finalBoard(t, last)
	for _, want := range []string{"alice 1500? → 1500? (±0)", "bob 1500? → 1500? (±0)"} {
		if !strings.Contains(fin.Content, want) {
			t.Fatalf("game-over content lacks %q:\n%s", want, fin.Content)
		}
	}
	checkFinalFiles(t, fin, 1, 8)
	st := h.b.St.(*storeRepo).st
	if r, err := st.Rating(h.ctx, "guild", "camelot", bob.ID); err != nil || r.Draws != 1 {
		t.Fatalf("bob: %+v %v", r, err)
	}
}
