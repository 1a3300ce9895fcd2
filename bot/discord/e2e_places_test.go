package discord

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/store"
)

// The five places a game is played in (docs/discord.md, "Playing
// anywhere"), declared in the fake Discord, which then dresses every
// interaction there as Discord does (context, owners, app_permissions)
// and refuses the bot's own posts where it is not a member.
type place struct {
	name, channel string
	botAbsent     bool
}

var places = []place{
	{"server with the bot", "c-bot", false},
	{"server without the bot", "c-user", true},
	{"DM with a friend", "dm", true},
	{"group DM", "gdm", true},
	{"DM with the bot", "bdm", false},
}

// declarePlaces: g1 added the bot, g2 did not; alice and bob installed
// the app to their accounts and are members of g1; carol has nothing.
func declarePlaces(f *fakeDiscord) {
	f.AddGuild("g1", true)
	f.AddGuild("g2", false)
	f.AddChannel("c-bot", "g1")
	f.AddChannel("c-user", "g2")
	f.AddDM("dm", alice.id, bob.id)
	f.AddDM("gdm", alice.id, bob.id, carol.id)
	f.AddBotDM("bdm", alice.id)
	f.InstallToUser(alice.id)
	f.InstallToUser(bob.id)
	f.JoinGuild(alice.id, "g1")
	f.JoinGuild(bob.id, "g1")
}

// viewerBase is the web viewer's address in these scenarios.
const viewerBase = "https://tankbot.example"

// viewerLink is the Watch link button's address on a board ("" none).
func viewerLink(c *call) string {
	rows, _ := data(c)["components"].([]any)
	for _, row := range rows {
		comps, _ := row.(map[string]any)["components"].([]any)
		for _, comp := range comps {
			if u, _ := comp.(map[string]any)["url"].(string); u != "" {
				return u
			}
		}
	}
	return ""
}

// startPlacesBot is startBot with the commands registered globally, as a
// user-installable app must (a guild's commands know no DMs).
func startPlacesBot(t *testing.T, w *world) *e2e {
	t.Helper()
	declarePlaces(w.f)
	db, err := store.Open(context.Background(), w.db)
	if err != nil {
		t.Fatal(err)
	}
	st := bot.NewStorage(db)
	h := newHarnessIn(t, w.f, FromStore(db), w.logs, 10*time.Second, w.mode)
	h.a.opts.Now = w.clk.Now
	h.a.opts.GuildID = ""
	log := slog.New(NewRedactingHandler(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}), testToken))
	// The bot's own user: the application id (serve), or the gateway's
	// READY user (the fake's "100", which READY sets again).
	self := testApp
	if !w.mode.http {
		self = "100"
	}
	b := bot.New(bot.Config{SelfID: self, WebBaseURL: viewerBase}, st, w.clk, h.a, log)
	h.start(b)
	e := &e2e{harness: h, b: b, st: st, db: db}
	t.Cleanup(func() { e.stop() })
	return e
}

// TestE2EPlaces plays the flows of issue 43 in each place, in both modes,
// and again with every answer deferred (the handlers held past the
// direct window: each answer then takes follow-ups, of which a
// user-installed interaction has five): every move's board pings the
// opponent, nothing the bot sends is refused by the fake's rules, what it
// cannot post reaches the conversation at its next interaction.
func TestE2EPlaces(t *testing.T) {
	var all []mode
	for _, m := range modes {
		slow := m
		slow.slow, slow.name = true, m.name+"-deferred"
		all = append(all, m, slow)
	}
	for mi, m := range all {
		for pi, pl := range places {
			t.Run(m.name+"/"+pl.name, func(t *testing.T) {
				sampled := !m.slow && (mi/2+pi)%2 == 0
				if testing.Short() && !sampled {
					t.Skip("long tier: every place in both transports, deferred too")
				}
				if longOnly() && sampled {
					t.Skip("run by the fast tier")
				}
				t.Parallel()
				w := newWorld(t, m)
				e := startPlacesBot(t, w)
				if pl.channel == "bdm" {
					placeDailyFromDM(t, w, e)
				}
				placeComputerGame(t, w, e, pl)
				if pl.channel != "bdm" {
					placeGame(t, w, e, pl)
					placeFlag(t, w, e, pl)
				}
				if pl.channel == "gdm" {
					placeWithoutApp(t, w, e, pl)
				}
				if r := e.f.Refused(); len(r) != 0 {
					for _, c := range r {
						t.Errorf("refused: %s %s (%d)", c.Method, c.Path, c.Status)
					}
				}
			})
		}
	}
}

// TestE2EPlacesFakeRuleIsReal runs the flag-fall of a DM between players
// with the bot blind to its place (payloads without context and owners,
// as before user installs): it posts the final board with its own token,
// and the fake refuses it as Discord does.
func TestE2EPlacesFakeRuleIsReal(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			w := newWorld(t, m)
			e := startPlacesBot(t, w)
			w.f.Configure(func(f *discordtest.Fake) { f.HidePlaces = true })
			placeFlagQuiet(t, w, e, places[2])
			if len(e.f.Refused()) == 0 {
				t.Fatal("the bot posted in a DM between users and the fake took it: its rule is not enforced")
			}
		})
	}
}

// placeGame: alice challenges bob, bob accepts by the button, alice moves
// by command, bob by the form, alice offers a draw that bob declines,
// alice looks at /board, /history, /games, /leaderboard, bob resigns.
func placeGame(t *testing.T, w *world, e *e2e, pl place) {
	ch := pl.channel
	g := newGame(t, checkMap)
	calls := e.do(e.slash(alice, ch, "challenge", "opponent", userRef(bob), "map", checkMap, "clock", "30m", "color", "white"))
	news := publicNew(calls)
	if len(news) != 1 {
		t.Fatalf("%s: the challenge made %d public messages: %s", pl.name, len(news), text(response(t, calls)))
	}
	pinged(t, news[0], "the challenge", bob.id)
	calls = e.do(e.click(bob, ch, e.f.originalOf(news[0]), idWith(t, news[0], `^c:\d+:accept$`)))
	board := theBoard(t, calls, "accept")
	pinged(t, board, "the first board", alice.id, bob.id)
	if u := viewerLink(board); !strings.HasPrefix(u, viewerBase+"/g/") {
		t.Errorf("%s: the first board's web viewer link is %q", pl.name, u)
	}
	if pl.botAbsent && strings.Contains(board.Path, "/channels/") {
		t.Errorf("%s: the first board went by the bot's token", pl.name)
	}
	// Alice moves by command.
	mv := g.anyMove()
	board = theBoard(t, e.do(e.slash(alice, ch, "move", "move", mv)), "alice's move")
	g.play(mv)
	pinged(t, board, "alice's move", bob.id)
	// Bob moves with the picker, alice by command again.
	e.ch = ch
	id := strings.Split(idWith(t, board, `:pick$`), ":")[1]
	notation, confirm, msg := e.picker(t, g, board, id, "1")
	e.confirm(t, g, notation, confirm, msg)
	mv = g.anyMove()
	board = theBoard(t, e.do(e.slash(alice, ch, "move", "move", mv)), "alice's second move")
	g.play(mv)
	// Alice asks to take her move back; bob refuses.
	ask := response(t, e.do(e.slash(alice, ch, "takeback")))
	pinged(t, ask, "the takeback request", bob.id)
	if news := publicNew(e.do(e.click(bob, ch, e.f.originalOf(ask), idWith(t, ask, `tbno$`)))); len(news) != 1 {
		t.Errorf("%s: refusing the takeback made %d public messages", pl.name, len(news))
	}
	// Bob moves by the form on the board (a form is always the first
	// answer: never deferred), or by command.
	mv = g.anyMove()
	if !w.mode.slow {
		typeID := idWith(t, board, `:type$`)
		form := response(t, e.do(e.click(bob, ch, e.f.originalOf(board), typeID)))
		if typ, _ := form.Payload["type"].(float64); typ != 9 {
			t.Fatalf("Type a move: answer of type %v, want the form (9)", form.Payload["type"])
		}
		board = theBoard(t, e.do(e.modalSubmit(bob, ch, typeID, mv)), "bob's move by the form")
	} else {
		board = theBoard(t, e.do(e.slash(bob, ch, "move", "move", mv)), "bob's move")
	}
	g.play(mv)
	pinged(t, board, "bob's move", alice.id)
	// A draw offered and declined.
	offer := response(t, e.do(e.slash(alice, ch, "draw")))
	pinged(t, offer, "the draw offer", bob.id)
	e.do(e.click(bob, ch, e.f.originalOf(offer), idWith(t, offer, `drawno$`)))
	// The private views.
	for _, name := range []string{"board", "history", "games", "leaderboard", "profile", "puzzle", "help"} {
		if r := response(t, e.do(e.slash(alice, ch, name))); flags(r) != 64 {
			t.Errorf("%s: /%s answered publicly: %s", pl.name, name, text(r))
		}
	}
	// Bob resigns: the final board pings both.
	ask = response(t, e.do(e.slash(bob, ch, "resign")))
	calls = e.do(e.click(bob, ch, e.f.originalOf(ask), idWith(t, ask, `resignyes$`)))
	end := theBoard(t, calls, "resign")
	pinged(t, end, "the resignation", alice.id, bob.id)
	// Anyone present reviews it, privately; the record too.
	for _, action := range []string{"review", "record"} {
		r := response(t, e.do(e.click(carol, ch, e.f.originalOf(end), idWith(t, end, `:`+action+`$`))))
		if flags(r) != 64 {
			t.Errorf("%s: %s of the finished game answered publicly", pl.name, action)
		}
	}
	// A game aborted before its first move.
	chal := response(t, e.do(e.slash(alice, ch, "challenge", "opponent", userRef(bob), "map", checkMap, "color", "white")))
	theBoard(t, e.do(e.click(bob, ch, e.f.originalOf(chal), idWith(t, chal, `^c:\d+:accept$`))), "accept")
	if r := response(t, e.do(e.slash(alice, ch, "abort"))); strings.Contains(text(r), "refuse") {
		t.Errorf("%s: /abort: %s", pl.name, text(r))
	}
	// The game counted on its place's ladder.
	lb := text(response(t, e.do(e.slash(alice, ch, "leaderboard", "game", "tank"))))
	global := strings.Contains(lb, "global ladder")
	if global != pl.botAbsent || !strings.Contains(lb, "<@"+alice.id+">") {
		t.Errorf("%s: /leaderboard after the game: %q (want the global ladder: %v)", pl.name, lb, pl.botAbsent)
	}
}

// placeWithoutApp: in the group DM, alice challenges carol, who has not
// installed the app: she cannot type its commands there (the fake fails a
// test that tries), so she accepts with the button and plays with the
// board's form and picker; each board pings the other.
func placeWithoutApp(t *testing.T, w *world, e *e2e, pl place) {
	ch := pl.channel
	e.ch = ch
	g := newGame(t, checkMap)
	chal := response(t, e.do(e.slash(alice, ch, "challenge", "opponent", userRef(carol), "map", checkMap, "color", "black")))
	pinged(t, chal, "the challenge to carol", carol.id)
	board := theBoard(t, e.do(e.click(carol, ch, e.f.originalOf(chal), idWith(t, chal, `^c:\d+:accept$`))), "carol accepts")
	pinged(t, board, "the first board", alice.id, carol.id)
	id := strings.Split(idWith(t, board, `:pick$`), ":")[1]
	// Carol (White) moves with the picker.
	mover := func() who { return map[bool]who{true: carol, false: alice}[g.toMove() == alice] }
	if mover() != carol {
		t.Fatalf("carol should play White")
	}
	pick := idWith(t, board, `^g:`+id+`:0:pick$`)
	r := response(t, e.do(e.click(carol, ch, e.f.originalOf(board), pick)))
	msg := e.f.originalOf(r)
	for i := 0; selectMenu(r) != nil && i < 10; i++ {
		sel, _ := selectMenu(r)["custom_id"].(string)
		r = response(t, e.do(e.click(carol, ch, msg, sel, menuValues(t, selectMenu(r))[0])))
	}
	confirm := idWith(t, r, `^g:`+id+`:0:pickok:.+$`)
	notation := pickedRx.FindStringSubmatch(text(r))[1]
	board = theBoard(t, e.do(e.click(carol, ch, msg, confirm)), "carol's picked move")
	g.play(notation)
	pinged(t, board, "carol's move", alice.id)
	mv := g.anyMove()
	board = theBoard(t, e.do(e.slash(alice, ch, "move", "move", mv)), "alice's move")
	g.play(mv)
	pinged(t, board, "alice's move", carol.id)
	// Carol answers by the form.
	typeID := idWith(t, board, `:type$`)
	if !w.mode.slow {
		e.do(e.click(carol, ch, e.f.originalOf(board), typeID))
		mv = g.anyMove()
		board = theBoard(t, e.do(e.modalSubmit(carol, ch, typeID, mv)), "carol's move by the form")
		g.play(mv)
		pinged(t, board, "carol's move by the form", alice.id)
	}
	// Carol resigns with the board's button.
	ask := response(t, e.do(e.click(carol, ch, e.f.originalOf(board), idWith(t, board, `:resign$`))))
	end := theBoard(t, e.do(e.click(carol, ch, e.f.originalOf(ask), idWith(t, ask, `resignyes$`))), "carol resigns")
	pinged(t, end, "carol's resignation", alice.id, carol.id)
}

// placeFlag: a game whose flag falls while nobody is there. With the bot
// in the place, the scheduler posts the final board; without it, the
// final board is held, then shown by the next interaction there (bob's
// /games), pinging both; alice, who asked for notices in her DM with
// the bot, gets it there too.
func placeFlag(t *testing.T, w *world, e *e2e, pl place) {
	ch := pl.channel
	if r := response(t, e.do(e.slash(alice, "bdm", "settings", "dm_notices", true))); !strings.Contains(text(r), "send to our DM") {
		t.Errorf("/settings dm_notices: %s", text(r))
	}
	from := e.f.count()
	placeFlagQuiet(t, w, e, pl)
	dm := 0
	for _, c := range e.f.callsFrom(from) {
		if c.Method == "POST" && strings.HasSuffix(c.Path, "/channels/bdm/messages") && c.Status < 300 && strings.Contains(text(c), "cannot post by itself") {
			dm++
		}
	}
	if pl.botAbsent != (dm == 1) {
		t.Errorf("%s: %d notices in alice's DM with the bot, want %v", pl.name, dm, pl.botAbsent)
	}
	if !pl.botAbsent {
		return
	}
	calls := e.do(e.slash(bob, ch, "games"))
	var shown *call
	for _, c := range publicNew(calls) {
		if strings.Contains(text(c), "While nobody was here") {
			shown = c
		}
	}
	if shown == nil {
		t.Fatalf("%s: the next interaction did not show the held flag-fall", pl.name)
	}
	pinged(t, shown, "the held flag-fall", alice.id, bob.id)
	if !strings.Contains(text(shown), "on time") {
		t.Errorf("%s: the held post is not the flag-fall: %s", pl.name, text(shown))
	}
	// Shown once.
	if again := publicNew(e.do(e.slash(bob, ch, "games"))); len(again) != 0 {
		t.Errorf("%s: the held post was shown twice", pl.name)
	}
}

// placeFlagQuiet starts a 30-minute game where alice moves, then lets 31
// minutes pass (beyond the last interaction's token) and runs the
// scheduler.
func placeFlagQuiet(t *testing.T, w *world, e *e2e, pl place) {
	ch := pl.channel
	g := newGame(t, checkMap)
	calls := e.do(e.slash(alice, ch, "challenge", "opponent", userRef(bob), "map", checkMap, "clock", "30m", "color", "white"))
	chal := response(t, calls)
	calls = e.do(e.click(bob, ch, e.f.originalOf(chal), idWith(t, chal, `^c:\d+:accept$`)))
	theBoard(t, calls, "accept")
	mv := g.anyMove()
	theBoard(t, e.do(e.slash(alice, ch, "move", "move", mv)), "alice's move")
	w.clk.Advance(31 * time.Minute)
	from := e.f.count()
	for range 3 {
		if err := e.b.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	posted := 0
	for _, c := range e.f.callsFrom(from) {
		if c.Method == "POST" && strings.Contains(c.Path, "/channels/"+ch+"/messages") && c.Status < 300 {
			posted++
		}
	}
	if !pl.botAbsent && posted == 0 {
		t.Errorf("%s: the flag-fall was not posted", pl.name)
	}
}

// placeDailyFromDM: the daily puzzle is posted in the server that added
// the bot; alice opens it there with Solve and solves it from her DM with
// the bot.
func placeDailyFromDM(t *testing.T, w *world, e *e2e) {
	ev := e.slash(alice, "c-bot", "server")
	ev = withOption(withOption(ev, "daily_channel", 7, "c-bot", 0), "daily_hour", 4, 16, 0)
	if r := response(t, e.do(asManager(ev))); flags(r) != 64 || !strings.Contains(text(r), "Daily puzzle: <#c-bot> at 16:00 UTC") {
		t.Fatalf("/server daily: %s", text(r))
	}
	w.clk.Advance(56 * time.Minute) // 16:00:05
	from := e.f.count()
	if err := e.b.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	ps := find(e.f.callsFrom(from), "POST", "/channels/c-bot/messages")
	if len(ps) != 1 {
		t.Fatalf("%d daily posts in the server", len(ps))
	}
	day := w.clk.Now().UTC().Format("2006-01-02")
	cb := response(t, e.do(e.click(alice, "c-bot", ps[0].MsgID, idWith(t, ps[0], `^dp:`+day+`$`))))
	if flags(cb) != 64 || !strings.Contains(text(cb), "daily puzzle of "+day) {
		t.Fatalf("Solve: %s", text(cb))
	}
	a, err := e.db.ActivePuzzle(context.Background(), alice.id)
	if err != nil {
		t.Fatal(err)
	}
	pz := shippedPuzzle(t, a.Game, a.PuzzleID)
	for i := 0; i < len(pz.Solution); i += 2 {
		cb = response(t, e.do(e.slash(alice, "bdm", "puzzle", "move", pz.Solution[i])))
		if flags(cb) != 64 || !strings.Contains(text(cb), "Right: ") {
			t.Fatalf("the daily's move %s from the DM with the bot: %s", pz.Solution[i], text(cb))
		}
	}
}

// placeComputerGame: alice plays the computer; its move reaches her and
// pings her: posted by the bot in a place it is in, else as a follow-up
// of her move's interaction (within its 15 minutes).
func placeComputerGame(t *testing.T, w *world, e *e2e, pl place) {
	ch := pl.channel
	g := newGame(t, checkMap)
	calls := e.do(e.slash(alice, ch, "challenge", "level", "1", "map", checkMap, "clock", "30m", "color", "white"))
	theBoard(t, calls, "the game against the computer")
	mv := g.anyMove()
	theBoard(t, e.do(e.slash(alice, ch, "move", "move", mv)), "alice's move")
	from := e.f.count()
	for range 4 {
		if err := e.b.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.b.WaitAI()
	}
	var reply *call
	for _, c := range publicNew(e.f.callsFrom(from)) {
		reply = c
	}
	if reply == nil {
		t.Fatalf("%s: the computer's move did not arrive", pl.name)
	}
	pinged(t, reply, "the computer's move", alice.id)
	if viaToken := strings.Contains(reply.Path, "/webhooks/"); viaToken != pl.botAbsent {
		t.Errorf("%s: the computer's move went by %s", pl.name, reply.Path)
	}
	// Ratings, puzzles and the rest answer privately here too.
	for _, name := range []string{"profile", "games", "leaderboard", "puzzle"} {
		if r := response(t, e.do(e.slash(alice, ch, name))); flags(r) != 64 {
			t.Errorf("%s: /%s answered publicly", pl.name, name)
		}
	}
}
