package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

// Only the current board is live (issue 32): games played with no pause
// between moves through two bot instances sharing one database (SQLite
// file, PostgreSQL) against the fake Discord, plain, under Discord's global
// limit (50 bot-token requests per second of the fake's clock, which stands
// still while the games are played), with injected 429s on message edits,
// and with both. Each move is sent as soon as the previous one is saved, while the
// previous answer (and the record of its message id) may still be in
// flight. Once the outbox has drained, no board but each game's newest may
// have components, as the fake saw the messages.
func TestBoardsOnlyCurrentLive(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: plays games through two instances")
	}
	for _, b := range storetest.Backends() {
		modes := []string{"plain", "global-limit", "injected-429", "global-limit+injected-429"}
		if b.Name == "postgres" {
			// Without and with both limits: the single ones ran on SQLite
			// (the game plays cost the time under -race).
			modes = []string{"plain", "global-limit+injected-429"}
		}
		for _, mode := range modes {
			t.Run(b.Name+"/"+mode, func(t *testing.T) { testBoardsOnlyCurrentLive(t, b, mode) })
		}
	}
}

// instance is one bot and its adapter on the shared database.
type instance struct {
	a  *Adapter
	b  *bot.Bot
	db *store.Store
}

func testBoardsOnlyCurrentLive(t *testing.T, backend storetest.Backend, mode string) {
	// Two games at a time: more, under -race on a small machine, miss the
	// 3-second first answer, and a board whose answer failed is one the
	// bot never learns of (nothing to strip).
	const nGames, nMoves, atOnce = 4, 16, 2
	ctx := context.Background()
	f := newFakeDiscord(t)
	clk := clock.NewFake(time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC))
	f.Now = clk.Now
	// The adapter gives its first answer ResponseWindow of wall time: a
	// minute, as in the e2e world, so that a busy CPU does not change what
	// is sent (the fake checks Discord's 3 s on its clock, which stands
	// still here).
	f.ResponseWindow = time.Minute
	loc := backend.New(t)
	logs := &syncBuffer{}
	var ins []*instance
	var events *harness // builds every interaction (unique ids and tokens)
	for k := range 2 {
		db, err := store.Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, f, FromStore(db), logs, 10*time.Second)
		h.a.onDone = nil // interactions are answered synchronously here
		h.a.opts.Now = clk.Now
		log := slog.New(NewRedactingHandler(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}), testToken)).With("instance", k)
		b := bot.New(bot.Config{}, bot.NewStorage(db), clk, h.a, log)
		if err := h.a.StartHTTP(ctx, b); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			_ = h.a.Close(cctx)
			_ = db.Close()
		})
		ins = append(ins, &instance{a: h.a, b: b, db: db})
		if events == nil {
			events = h
		}
	}
	if strings.Contains(mode, "global-limit") {
		f.SetGlobalLimit(discordtest.DiscordGlobalLimit)
	}
	if strings.Contains(mode, "injected-429") {
		// The next 40 bot-token message edits are refused (route limit).
		f.RateLimitNext("PATCH", "/channels/", 0.25, 40)
	}
	var evMu sync.Mutex
	event := func(mk func() map[string]any) *discordgo.Interaction {
		evMu.Lock()
		ev := mk()
		evMu.Unlock()
		raw, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var i discordgo.Interaction
		if err := json.Unmarshal(raw, &i); err != nil {
			t.Fatal(err)
		}
		return &i
	}
	// The schedulers run beside the games, as serve's loop does.
	stop := make(chan struct{})
	var ticking sync.WaitGroup
	for _, in := range ins {
		ticking.Go(func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
				_ = in.b.Tick(ctx)
			}
		})
	}
	var played sync.WaitGroup
	gameIDs := make([]int64, nGames)
	slots := make(chan struct{}, atOnce)
	for n := range nGames {
		played.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			channel := fmt.Sprint(600 + n)
			// Players of their own: one pending challenge per pair.
			white := who{fmt.Sprint(3000 + 2*n), fmt.Sprint("white", n)}
			black := who{fmt.Sprint(3001 + 2*n), fmt.Sprint("black", n)}
			ins[0].a.interaction(event(func() map[string]any {
				return events.slash(white, channel, "challenge", "opponent", userRef(black), "game", "tank", "color", "white", "thread", false)
			}))
			ch, err := ins[0].db.PendingChallenges(ctx, black.id)
			if err != nil || len(ch) == 0 {
				t.Errorf("game %d: no pending challenge (%v)", n, err)
				return
			}
			var cid int64
			for _, c := range ch {
				if c.Channel == channel {
					cid = c.ID
				}
			}
			ins[1].a.interaction(event(func() map[string]any {
				return events.click(black, channel, f.NewID(), "c:"+strconv.FormatInt(cid, 10)+":accept")
			}))
			games, err := ins[1].db.ChannelGames(ctx, channel)
			if err != nil || len(games) != 1 {
				t.Errorf("game %d: %d games in channel %s (%v)", n, len(games), channel, err)
				return
			}
			row := games[0]
			gameIDs[n] = row.ID
			g := newGameIn(t, "tank", row.Position)
			rng := rand.New(rand.NewPCG(uint64(n), 32))
			var inflight sync.WaitGroup
			for k := range nMoves {
				mv := g.randomMove(rng)
				u := white
				if g.pos.Turn() == engine.Black {
					u = black
				}
				in := ins[k%2]
				i := event(func() map[string]any { return events.slash(u, channel, "move", "move", mv) })
				inflight.Go(func() { in.a.interaction(i) })
				// The next move goes as soon as this one is saved: its
				// answer may still be on its way.
				deadline := time.Now().Add(eventWait)
				for {
					cur, err := in.db.Game(ctx, row.ID)
					if err == nil && cur.Ply == row.Ply+k+1 {
						break
					}
					if time.Now().After(deadline) {
						t.Errorf("game %d: move %d (%s by %s) was not saved", n, k+1, mv, u.name)
						inflight.Wait()
						return
					}
					time.Sleep(time.Millisecond)
				}
				g.play(mv)
			}
			inflight.Wait()
		})
	}
	played.Wait()
	close(stop)
	ticking.Wait()
	if t.Failed() {
		return
	}
	// Drain: the clock moves a second per pass (the global limit's window
	// and the strips' retry_after run on it) until no strip is pending.
	passes := 0
	for ; passes < 600; passes++ {
		clk.Advance(time.Second)
		for _, in := range ins {
			_ = in.b.Tick(ctx)
		}
		if pendingStrips(t, ins[0].db) == 0 {
			break
		}
	}
	if n := pendingStrips(t, ins[0].db); n != 0 {
		ob, _ := ins[0].db.Outbox(ctx)
		for _, e := range ob {
			if e.Kind == store.OutboxStrip && e.State == store.OutboxPending {
				t.Logf("pending strip %+v", e)
			}
		}
		t.Logf("clock %v; logs: %s", clk.Now(), grepLines(logs.String(), `"level":"(WARN|ERROR)"`))
		t.Fatalf("%d strip posts still pending after %d passes", n, passes)
	}
	live, boards, strips := liveOldBoards(f.CallsFrom(0), f)
	t.Logf("%s: %d games × %d moves, %d board messages, %d strip edits, %d global 429s, drained in %d passes",
		mode, nGames, nMoves, boards, strips, f.GlobalRefused(), passes)
	if boards < nGames*nMoves {
		t.Logf("logs: %s", grepLines(logs.String(), `"level":"(WARN|ERROR)"`))
		t.Fatalf("only %d board messages seen for %d moves", boards, nGames*nMoves)
	}
	if len(live) != 0 {
		for _, l := range live {
			id := l[strings.LastIndex(l, " ")+1:]
			for _, c := range f.CallsFrom(0) {
				if c.MsgID == id || strings.Contains(c.Path, id) || strings.HasSuffix(c.Path, "@original") && f.Original(strings.Split(c.Path, "/")[5]) == id {
					t.Logf("%s: %s %s %d comps=%v", id, c.Method, c.Path, c.Status, customIDsOf(data(c)))
				}
			}
		}
		for _, id := range gameIDs {
			bs, _ := ins[0].db.Boards(ctx, id)
			t.Logf("game %d boards %+v", id, bs)
		}
		t.Logf("logs: %s", grepLines(logs.String(), `"level":"(WARN|ERROR)"`))
		t.Fatalf("%d old boards still have components: %v", len(live), live)
	}
	if n, err := ins[1].db.SupersededLive(ctx); n != 0 || err != nil {
		t.Fatalf("the database still counts %d superseded live boards (%v)", n, err)
	}
	ob, err := ins[0].db.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ob {
		if e.Kind == store.OutboxStrip && e.State != store.OutboxSent {
			t.Errorf("strip post %d is %s: %s", e.ID, e.State, e.LastError)
		}
	}
	for _, id := range gameIDs {
		if bs, _ := ins[0].db.Boards(ctx, id); len(bs) < nMoves {
			t.Errorf("game %d: %d boards recorded", id, len(bs))
		}
	}
}

func pendingStrips(t *testing.T, db *store.Store) int {
	t.Helper()
	ob, err := db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ob {
		if e.Kind == store.OutboxStrip && e.State == store.OutboxPending {
			n++
		}
	}
	return n
}

var boardID = regexp.MustCompile(`^g:(\d+):(\d+):`)

// liveOldBoards reads the fake's messages as they stand (the fake applies
// every edit, of any route, to its message): a board is a message whose
// components name a game ("g:<game>:<seq>:..."); it is old when the game
// has a board at a higher seq (or the same seq, created later). It returns
// the old boards that still have components, the board count, and the
// successful edits that stripped a message's components.
func liveOldBoards(calls []*call, f *fakeDiscord) (live []string, boards, strips int) {
	type board struct {
		id         string
		game, seq  int
		order      int
		components int
		board      bool
	}
	var all []board
	for k, m := range f.Messages("") {
		if m.Deleted {
			continue
		}
		// A stripped board names no game any more: its game and seq come
		// from the last version that had buttons.
		b := board{id: m.ID, order: k, components: len(customIDsOf(m.Payload))}
		for _, v := range m.Versions {
			for _, cid := range customIDsOf(v) {
				if sm := boardID.FindStringSubmatch(cid); sm != nil {
					b.game, _ = strconv.Atoi(sm[1])
					b.seq, _ = strconv.Atoi(sm[2])
					b.board = true
				}
			}
		}
		if b.board {
			all = append(all, b)
		}
	}
	for _, c := range calls {
		if c.Status >= 300 || c.Status == 0 || c.Method != "PATCH" {
			continue
		}
		if comps, ok := c.Payload["components"].([]any); ok && len(comps) == 0 {
			strips++
		}
	}
	newest := map[int]board{}
	for _, b := range all {
		if n, ok := newest[b.game]; !ok || b.seq > n.seq || b.seq == n.seq && b.order > n.order {
			newest[b.game] = b
		}
	}
	boards = len(all)
	for _, b := range all {
		if b.components > 0 && newest[b.game].id != b.id {
			live = append(live, fmt.Sprintf("game %d seq %d message %s", b.game, b.seq, b.id))
		}
	}
	slices.Sort(live)
	return live, boards, strips
}

func newGameIn(t *testing.T, kind, pos string) *game {
	t.Helper()
	r, err := games.Lookup(kind)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Decode(pos)
	if err != nil {
		t.Fatal(err)
	}
	return &game{t: t, pos: p}
}

// randomMove is a legal move that does not end the game.
func (g *game) randomMove(rng *rand.Rand) string {
	ms := g.pos.LegalMoves()
	rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	for _, m := range ms {
		if q, err := g.pos.Play(m); err == nil && !q.Status().Over() {
			return g.pos.FormatMove(m)
		}
	}
	g.t.Fatal("no legal move that keeps the game going")
	return ""
}

func grepLines(s, re string) string {
	rx := regexp.MustCompile(re)
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if rx.MatchString(l) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
