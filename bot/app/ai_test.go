package app

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// The computer plays as the bot's own user.
var tankbot = user("tankbot") // id-tankbot; the harness marks it a bot

func aiConfig() Config { return Config{SelfID: tankbot.ID, AIWorkers: 1} }

// aiTick runs the scheduler as the serving loop would: one pass starts
// the searches, and once they have saved their moves the next pass
// delivers the queued boards.
func (h *harness) aiTick() {
	h.t.Helper()
	if err := h.b.Tick(h.ctx); err != nil {
		h.t.Fatal(err)
	}
	h.b.WaitAI()
	if err := h.b.Tick(h.ctx); err != nil {
		h.t.Fatal(err)
	}
}

// aiGame starts a game against the computer and returns its id.
func (h *harness) aiGame(opts ...string) int64 {
	h.t.Helper()
	rs := h.slash(alice, "challenge", opts...)
	mustNotRefuse(h.t, rs)
	for _, r := range rs {
		if isBoard(r) {
			if slices.Contains(r.Mentions, tankbot.ID) || strings.Contains(r.Content, "<@"+tankbot.ID+">") {
				h.t.Errorf("the first board pings the bot: %q %v", r.Content, r.Mentions)
			}
			return gameOf(r)
		}
	}
	h.t.Fatalf("no board at once: %+v", rs)
	return 0
}

// checkAIPosts checks that the posts since from are exactly one public
// board per computer move, each pinging alice and never the bot.
func checkAIPosts(t *testing.T, posts []post, aiMoves int) {
	t.Helper()
	if len(posts) != aiMoves {
		t.Fatalf("%d computer moves, %d posts: %+v", aiMoves, len(posts), posts)
	}
	for _, p := range posts {
		r := p.Reply
		if !isBoard(r) || r.Ephemeral || r.Embed == nil {
			t.Fatalf("a computer move's post is not a public board: %+v", r)
		}
		if !slices.Equal(r.Mentions, []string{alice.ID}) || !strings.Contains(r.Content, "<@"+alice.ID+">") {
			t.Fatalf("a computer move's board must ping alice only: %q %v", r.Content, r.Mentions)
		}
		if strings.Contains(r.Content, tankbot.ID) {
			t.Fatalf("the bot pings itself: %q", r.Content)
		}
	}
}

// A whole game against the level-1 computer in each game: alice plays
// random legal moves, every computer move comes from the scheduler and is
// posted as one board pinging alice.
func TestAIFullGames(t *testing.T) {
	for _, game := range []string{"tank", "camelot", "gungi"} {
		t.Run(game, func(t *testing.T) {
			// Camelot's and Gungi's games are the computer's search more
			// than the bot (the scheduler's concurrency is raced by the
			// Tank Chess game here): the long tier plays them without the
			// race detector, which slows search tenfold or more.
			if testing.Short() && game != "tank" {
				t.Skip("long tier (no -race): a whole game of every game")
			}
			if longOnly() && game == "tank" {
				t.Skip("run by the fast tier")
			}
			h := newHarness(t, aiConfig())
			rng := rand.New(rand.NewPCG(7, uint64(len(game))))
			id := h.aiGame("level=1", "game="+game, "color=white")
			g := h.game(id)
			if g.AILevel != 1 || g.AISide != 1 || g.Black.ID != tankbot.ID || !strings.Contains(g.Black.Name, "level 1") {
				t.Fatalf("game against the computer: %+v", g)
			}
			aiMoves, posted := 0, 0
			const maxPly = 400
			for g.Status == GmActive && g.Ply < maxPly {
				pos, _ := g.Position()
				if int(pos.Turn()) == g.AISide {
					before := len(h.n.all())
					h.aiTick()
					g2 := h.game(id)
					if g2.Ply != g.Ply+1 {
						t.Fatalf("ply %d: the scheduler made no computer move (now ply %d)", g.Ply, g2.Ply)
					}
					aiMoves++
					posted += len(h.n.all()) - before
					checkAIPosts(t, h.n.all()[before:], 1)
					g = g2
					continue
				}
				mv := h.legalMove(id, func(ns []string) string { return ns[rng.IntN(len(ns))] })
				rs := h.slash(alice, "move", "move="+mv)
				mustNotRefuse(t, rs)
				for _, r := range rs {
					if slices.Contains(r.Mentions, tankbot.ID) {
						t.Fatalf("alice's move pings the bot: %+v", r)
					}
				}
				g = h.game(id)
			}
			if g.Status == GmActive {
				t.Fatalf("no result after %d plies", g.Ply)
			}
			if posted != aiMoves || aiMoves == 0 {
				t.Fatalf("%d computer moves, %d posts", aiMoves, posted)
			}
			t.Logf("%s: %d plies, %d computer moves, result %s (%s)", game, g.Ply, aiMoves, g.Result, g.Reason)
		})
	}
}

// When the computer is to move first (Gungi's draft starts with Black),
// its move is scheduled with the game's creation.
func TestAIMovesFirst(t *testing.T) {
	h := newHarness(t, aiConfig())
	id := h.aiGame("level=2", "game=gungi", "color=white") // the computer is Black: it places first
	if g := h.game(id); g.Ply != 0 {
		t.Fatalf("moved on the interaction path: ply %d", g.Ply)
	}
	h.aiTick()
	if g := h.game(id); g.Ply == 0 || g.Moves[1] == 0 {
		t.Fatalf("no computer placement after the tick: %+v", g)
	}
	checkAIPosts(t, h.n.all(), h.game(id).Moves[1])
}

// The computer's turn is committed with alice's move: a bot killed right
// after it (the store re-opened by a new core) still plays it on its
// first tick.
func TestAIMoveSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(t0)
	n := &fakeNotifier{}
	h := &harness{t: t, b: New(aiConfig(), st, clk, n, nil), clk: clk, n: n, ctx: context.Background()}
	id := h.aiGame("level=1", "color=white", "clock=10m")
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	st.Close() // killed before any tick

	raw, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := raw.PendingEvents(context.Background(), id, evAI)
	if err != nil || len(evs) != 1 || evs[0].Ply != 1 {
		t.Fatalf("pending computer move after alice's: %+v %v", evs, err)
	}
	st2 := NewStorage(raw)
	defer st2.Close()
	h.b = New(aiConfig(), st2, clk, n, nil)
	if err := h.b.Recover(h.ctx); err != nil {
		t.Fatal(err)
	}
	// The computer's clock runs like a human's: the time its turn took
	// (here, the downtime) is charged to it.
	clk.Advance(20 * time.Second)
	h.aiTick()
	g := h.game(id)
	if g.Ply != 2 || g.Turn != 0 {
		t.Fatalf("after the restart: ply %d, turn %d", g.Ply, g.Turn)
	}
	if g.ClockState.Left[1] != 10*time.Minute-20*time.Second {
		t.Errorf("the computer's clock after a 20 s turn: %v", g.ClockState.Left[1])
	}
	checkAIPosts(t, n.all(), 1)
	// A stale event (the game moved on) does nothing.
	if evs, _ := raw.PendingEvents(context.Background(), id, evAI); len(evs) != 0 {
		t.Fatalf("computer events left on alice's turn: %+v", evs)
	}
	checkReplay(t, h, id)
}

// Challenging the bot's user, or giving a level, starts a casual game at
// once; bad levels are refused.
func TestAIChallenge(t *testing.T) {
	h := newHarness(t, aiConfig())
	id := h.aiGame("level=3", "game=camelot")
	g := h.game(id)
	if g.AILevel != 3 || g.Status != GmActive {
		t.Fatalf("level 3: %+v", g)
	}
	if _, vs := g.Side(tankbot.ID); !vs {
		t.Fatalf("the computer does not play as the bot's user: %+v", g)
	}
	st := h.b.St.(*storeRepo).st
	if _, rated, err := st.GameNumber(h.ctx, id); err != nil || rated {
		t.Fatalf("a game against the computer is rated (%v, %v)", rated, err)
	}
	// The bot's user as opponent: level 3 by default, in another channel.
	c := Command{Kind: KindSlash, Name: "challenge", User: bob, GuildID: "guild", ChannelID: "other",
		Options: map[string]string{"opponent": tankbot.ID, "game": "tank"}, Users: map[string]User{tankbot.ID: {ID: tankbot.ID, Name: "TankBot", Bot: true}}}
	rs := h.b.Handle(h.ctx, c)
	mustNotRefuse(t, rs)
	var id2 int64
	for _, r := range rs {
		if isBoard(r) {
			id2 = gameOf(r)
		}
	}
	g2 := h.game(id2)
	if g2.AILevel != 3 || names.PlainText(g2.User(g2.AISide).Name) != "TankBot (level 3)" {
		t.Fatalf("challenge of the bot's user: %+v", g2)
	}
	if _, rated, _ := st.GameNumber(h.ctx, id2); rated {
		t.Fatal("game against the bot's user is rated")
	}
	// A second game here: refused, and no challenge is left waiting.
	mustRefuse(t, h.slash(alice, "challenge", "level=2"), "already")
	if pend, err := h.b.St.PendingChallenges(h.ctx, alice.ID); err != nil || len(pend) != 0 {
		t.Fatalf("pending after a refused game against the computer: %+v %v", pend, err)
	}
	mustRefuse(t, h.slash(carol, "challenge", "level=9"), "Level 9 does not exist")
	mustRefuse(t, h.slash(carol, "challenge", "level=x"), "Level x does not exist")
	mustRefuse(t, h.slash(carol, "challenge", "level=2", "opponent=dave"), "against the bot")
	// Another bot is still refused.
	mustRefuse(t, h.slash(carol, "challenge", "opponent=otherbot"), "Bots cannot play")
	// Without a known own user there is no computer opponent.
	h2 := newHarness(t, Config{})
	mustRefuse(t, h2.slash(carol, "challenge", "level=2"), "not available")
}

// Draw offers to the computer are answered at once (declined while its
// position is fine); a takeback is granted at once and undoes the
// computer's reply with alice's move.
func TestAIDrawAndTakeback(t *testing.T) {
	h := newHarness(t, aiConfig())
	id := h.aiGame("level=1", "game=camelot", "color=white")
	mustRefuse(t, h.slash(alice, "draw"), "declines the draw")
	if g := h.game(id); g.DrawOffer != 0 || g.Status != GmActive {
		t.Fatalf("after a declined draw: %+v", g)
	}
	mustRefuse(t, h.slash(alice, "takeback"), "no move to take back")
	first := h.legalMove(id, nil)
	mustNotRefuse(t, h.slash(alice, "move", "move="+first))
	h.aiTick()
	if g := h.game(id); g.Ply != 2 {
		t.Fatalf("no computer reply: ply %d", g.Ply)
	}
	rs := h.slash(alice, "takeback")
	mustNotRefuse(t, rs)
	g := h.game(id)
	if g.Ply != 0 || g.Turn != 0 || g.Moves != [2]int{} || g.Last != "" {
		t.Fatalf("after the takeback: ply %d turn %d moves %v last %q", g.Ply, g.Turn, g.Moves, g.Last)
	}
	if !strings.Contains(text(rs), "taken back") {
		t.Errorf("takeback board: %s", text(rs))
	}
	// The computer's turn was cancelled with it: a tick plays nothing.
	h.aiTick()
	if g := h.game(id); g.Ply != 0 {
		t.Fatalf("the computer moved after the takeback: ply %d", g.Ply)
	}
	// The game goes on normally.
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	h.aiTick()
	if g := h.game(id); g.Ply != 2 {
		t.Fatalf("after the takeback the game does not go on: ply %d", g.Ply)
	}
	checkReplay(t, h, id)
}

// A rematch of a game against the computer is a new one at once, same
// level, colours swapped.
func TestAIRematch(t *testing.T) {
	h := newHarness(t, aiConfig())
	id := h.aiGame("level=2", "game=tank", "color=white")
	rs := h.slash(alice, "resign")
	mustNotRefuse(t, h.click(alice, findID(t, rs, "resignyes")))
	rs = h.slash(alice, "rematch")
	mustNotRefuse(t, rs)
	var id2 int64
	for _, r := range rs {
		if isBoard(r) {
			id2 = gameOf(r)
		}
	}
	if id2 == 0 || id2 == id {
		t.Fatalf("rematch posted no new board: %+v", rs)
	}
	g := h.game(id2)
	if g.AILevel != 2 || g.AISide != 0 || g.White.ID != tankbot.ID || g.Black.ID != alice.ID {
		t.Fatalf("rematch: %+v", g)
	}
	h.aiTick() // the computer is White now: it opens
	if g := h.game(id2); g.Ply != 1 {
		t.Fatalf("the computer did not open the rematch: ply %d", g.Ply)
	}
}

// The scheduler's pass does not wait for a search: with every search slot
// taken, Tick returns at once and the move is made when a slot frees; the
// event claimed again meanwhile (its lease ran out) makes no second move.
func TestAISearchOffTheLoop(t *testing.T) {
	h := newHarness(t, aiConfig()) // one search slot
	id := h.aiGame("level=1", "color=white")
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	h.b.ai.sem <- struct{}{} // the only slot is busy
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	h.clk.Advance(3 * time.Minute) // past the lease: the event is claimed again
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if g := h.game(id); g.Ply != 1 {
		t.Fatalf("moved without a free slot: ply %d", g.Ply)
	}
	<-h.b.ai.sem
	h.b.WaitAI()
	if g := h.game(id); g.Ply != 2 {
		t.Fatalf("no move once the slot freed: ply %d", g.Ply)
	}
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	checkAIPosts(t, h.n.all(), 1)
}

// The computer's board is written in the server's language of the game's
// start; the ping line in the human's.
func TestAIMoveInServerLanguage(t *testing.T) {
	h := newHarness(t, aiConfig())
	h.loc = "pt-BR"
	id := h.aiGame("level=1", "color=white", "game=camelot")
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	h.aiTick()
	ps := h.n.all()
	checkAIPosts(t, ps, 1)
	if e := ps[0].Reply.Embed; !strings.Contains(e.Title, "Partida #") || !strings.Contains(e.Description, "nível 1") {
		t.Errorf("the computer's board is not in Portuguese: %+v", e)
	}
}

// A board queued for out-of-band delivery (the computer's moves, fallback
// pings) is redrawn with the last move highlighted, as any board is.
func TestQueuedBoardShowsLastMove(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	mustNotRefuse(t, h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	g := h.game(id)
	r := view.Reply{Sent: h.b.BoardRecorder(id, 0), Embed: &view.Embed{Image: "board.png"}}
	h.b.redrawImage(h.ctx, &r, g)
	if len(r.Files) != 1 {
		t.Fatalf("no image redrawn: %+v", r)
	}
	pos, last, err := h.b.ReplayLast(h.ctx, g)
	if err != nil || last == nil {
		t.Fatalf("last move: %v %v", last, err)
	}
	without, err := view.RenderPNG(pos, nil, h.b.PublicFlip(pos), h.b.outLocale(g), g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(r.Files[0].Data, without) {
		t.Error("the queued board does not highlight the last move")
	}
}
