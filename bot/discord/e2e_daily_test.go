package discord

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// The daily puzzle through the fake Discord on the test's clock: a manager
// sets it up with /server; at the hour (UTC) one public post appears in its
// channel (image, game, task, Solve button, no ping), however many
// instances tick; Solve opens it privately; a wrong move is a miss and the
// player may try again; the next day's post names the solvers with the
// time from post to solve. Each day is another game (the server's default
// game): Tank Chess, Camelot, Gungi. The bot restarts between days.
func TestE2EDailyPuzzle(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) { e2eDaily(t, newWorld(t, m)) })
	}
}

func e2eDaily(t *testing.T, w *world) {
	ctx := context.Background()
	e := startBot(t, w)
	f := w.f
	tick := func(bs ...*bot.Bot) []*call {
		t.Helper()
		from := f.count()
		var wg sync.WaitGroup
		for _, b := range bs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := b.Tick(ctx); err != nil {
					t.Errorf("tick: %v", err)
				}
			}()
		}
		wg.Wait()
		return f.callsFrom(from)
	}
	posts := func(calls []*call) []*call { return find(calls, "POST", "/channels/"+dailyChannel+"/messages") }
	setGame := func(game string) {
		t.Helper()
		ev := e.slash(alice, gameChannel, "server", "default_game", game)
		if game == "tank" {
			ev = withOption(withOption(ev, "daily_channel", 7, dailyChannel, 0), "daily_hour", 4, 16, 0)
		}
		r := response(t, e.do(asManager(ev)))
		if flags(r) != 64 || !strings.Contains(text(r), "Daily puzzle: <#"+dailyChannel+"> at 16:00 UTC") {
			t.Fatalf("/server daily: %s", text(r))
		}
	}
	store0 := func() *store.Store { return e.db }
	// solve opens the day's puzzle with its Solve button and plays it:
	// wrong first when miss, then (again after a new click) right.
	solve := func(u who, post *call, day string, miss bool) {
		t.Helper()
		solveID := idWith(t, post, `^dp:`+day+`$`)
		for try := 0; try < 2; try++ {
			calls := e.do(e.click(u, dailyChannel, post.MsgID, solveID))
			cb := response(t, calls)
			if flags(cb) != 64 || len(publicNew(calls)) != 0 || !strings.Contains(text(cb), "daily puzzle of "+day) {
				t.Fatalf("Solve by %s: flags %d %s", u.name, flags(cb), text(cb))
			}
			checkPNG(t, cb)
			a, err := store0().ActivePuzzle(ctx, u.id)
			if err != nil {
				t.Fatal(err)
			}
			pz := shippedPuzzle(t, a.Game, a.PuzzleID)
			if try == 0 && miss {
				cb = response(t, e.do(e.slash(u, gameChannel, "puzzle", "move", wrongMove(t, pz))))
				if flags(cb) != 64 || !strings.Contains(text(cb), "is not the winning move") {
					t.Fatalf("a wrong move: %s", text(cb))
				}
				w.clk.Advance(time.Minute)
				continue
			}
			for i := 0; i < len(pz.Solution); i += 2 {
				cb = response(t, e.do(e.slash(u, gameChannel, "puzzle", "move", pz.Solution[i])))
				if flags(cb) != 64 || !strings.Contains(text(cb), "Right: ") {
					t.Fatalf("%s move %s: %s", pz.ID, pz.Solution[i], text(cb))
				}
			}
			return
		}
	}
	checkPost := func(calls []*call, day, label string) *call {
		t.Helper()
		ps := posts(calls)
		if len(ps) != 1 {
			t.Fatalf("%s: %d daily posts, want 1", day, len(ps))
		}
		p := ps[0]
		checkPNG(t, p)
		if len(p.Notified) != 0 || flags(p) == 64 {
			t.Errorf("the daily post pinged %v (flags %d)", p.Notified, flags(p))
		}
		for _, want := range []string{"Daily puzzle " + day, label, "to play and win in"} {
			if !strings.Contains(text(p), want) {
				t.Fatalf("the daily post lacks %q: %s", want, text(p))
			}
		}
		return p
	}

	setGame("tank")
	// 15:04: nothing before the hour.
	if n := len(posts(tick(e.b))); n != 0 {
		t.Fatalf("%d posts before the hour", n)
	}
	w.clk.Advance(56 * time.Minute) // 16:00:05
	// Two instances on one database tick at once: one post.
	db2, err := store.Open(ctx, w.db)
	if err != nil {
		t.Fatal(err)
	}
	st2 := bot.NewStorage(db2)
	defer st2.Close()
	b2 := bot.New(bot.Config{}, st2, w.clk, e.a, nil)
	// And a second pending event of the day (as two instances saving
	// /server at once may leave): still one post, by the day's key.
	if _, err := db2.Schedule(ctx, store.Event{Kind: "daily", Ref: 777, Due: w.clk.Now().Add(-time.Second), Payload: testGuild}); err != nil {
		t.Fatal(err)
	}
	calls := tick(e.b, b2)
	day1 := checkPost(calls, "2026-01-02", "Tank Chess")
	if strings.Contains(text(day1), "solved by") || strings.Contains(text(day1), "Nobody") {
		t.Errorf("the first post has results: %s", text(day1))
	}
	if n := len(posts(tick(e.b, b2))); n != 0 {
		t.Fatalf("%d more posts the same day", n)
	}
	w.clk.Advance(2 * time.Minute)
	solve(alice, day1, "2026-01-02", false) // 2:05 after the post
	w.clk.Advance(time.Minute)
	solve(bob, day1, "2026-01-02", true) // a miss, then 4:05
	// Solved: Solve again says so.
	r := response(t, e.do(e.click(alice, dailyChannel, day1.MsgID, "dp:2026-01-02")))
	if flags(r) != 64 || !strings.Contains(text(r), "already solved") || !strings.Contains(text(r), "2:05") {
		t.Fatalf("Solve after solving: %s", text(r))
	}

	// Day 2, Camelot, after a restart.
	setGame("camelot")
	e.stop()
	e = startBot(t, w)
	w.clk.Advance(24*time.Hour - 4*time.Minute) // 2026-01-03 16:00:05
	calls = tick(e.b)
	day2 := checkPost(calls, "2026-01-03", "Camelot")
	// Only today's post keeps a live Solve: yesterday's lost it by an edit.
	strip := find(calls, "PATCH", "/channels/"+dailyChannel+"/messages/"+day1.MsgID)
	if len(strip) != 1 || len(customIDs(strip[0])) != 0 || len(strip[0].Notified) != 0 {
		t.Fatalf("yesterday's post: %d edits %v", len(strip), strip)
	}
	if !strings.Contains(text(day2), "The puzzle of 2026-01-02 was solved by 2: alice in 2:05, bob in 4:05 (missed 1×)") {
		t.Fatalf("day 2 results: %s", text(day2))
	}
	// Yesterday's button is over.
	r = response(t, e.do(e.click(carol, dailyChannel, day1.MsgID, "dp:2026-01-02")))
	if flags(r) != 64 || !strings.Contains(text(r), "is over") {
		t.Fatalf("yesterday's Solve: %s", text(r))
	}
	w.clk.Advance(10 * time.Second)
	solve(carol, day2, "2026-01-03", false) // 0:15 after the post (16:00)

	// Day 3, Gungi: nobody solves it.
	setGame("gungi")
	w.clk.Advance(24*time.Hour - 10*time.Second)
	day3 := checkPost(tick(e.b), "2026-01-04", "Gungi")
	if !strings.Contains(text(day3), "solved by 1: carol in 0:15") {
		t.Fatalf("day 3 results: %s", text(day3))
	}
	w.clk.Advance(90 * time.Minute)
	solve(alice, day3, "2026-01-04", true)
	w.clk.Advance(24*time.Hour - 91*time.Minute)
	day4 := checkPost(tick(e.b), "2026-01-05", "Gungi")
	if !strings.Contains(text(day4), "solved by 1: alice in 1:31:05 (missed 1×)") {
		t.Fatalf("day 4 results: %s", text(day4))
	}
	// Four days, four different puzzles.
	rec, err := store0().RecentDailies(ctx, testGuild, 10)
	if err != nil || len(rec) != 4 {
		t.Fatalf("recent: %+v %v", rec, err)
	}
	seen := map[string]bool{}
	for _, p := range rec {
		seen[p.PuzzleID] = true
	}
	if len(seen) != 4 {
		t.Errorf("puzzles repeated: %+v", rec)
	}

	// Turned off: no more posts.
	r = response(t, e.do(asManager(e.slash(alice, gameChannel, "server", "reset", "daily_channel"))))
	if !strings.Contains(text(r), "Daily puzzle: off") {
		t.Fatalf("reset daily: %s", text(r))
	}
	w.clk.Advance(48 * time.Hour)
	if n := len(posts(tick(e.b))); n != 0 {
		t.Fatalf("%d posts after the daily puzzle was turned off", n)
	}
}

// wrongMove is a legal first move of pz that is not its solution and does
// not win at once.
func wrongMove(t *testing.T, pz *puzzle.Puzzle) string {
	t.Helper()
	pos, err := pz.Decode()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range pos.LegalMoves() {
		note := pos.FormatMove(m)
		if note == pz.Solution[0] {
			continue
		}
		after, err := pos.Play(m)
		if err != nil {
			continue
		}
		if w, ok := after.Status().Winner(); ok && w == pos.Turn() {
			continue
		}
		return note
	}
	t.Fatalf("puzzle %s has no wrong move", pz.ID)
	return ""
}
