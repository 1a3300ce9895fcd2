package director

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

var t0 = time.Date(2026, 6, 1, 18, 0, 0, 0, time.UTC)

// world is one simulated deployment: a database, a clock and the
// directors of the instances sharing them.
type world struct {
	t    *testing.T
	loc  string
	fc   *clock.Fake
	st   []*store.Store
	ds   []*Director
	next int64 // fake game ids
}

func newWorld(t *testing.T, loc string, instances int) *world {
	w := &world{t: t, loc: loc, fc: clock.NewFake(t0), next: 1000}
	for range instances {
		w.open()
	}
	return w
}

func (w *world) open() {
	s, err := store.Open(context.Background(), w.loc, store.WithNow(w.fc.Now))
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { s.Close() })
	w.st = append(w.st, s)
	w.ds = append(w.ds, &Director{Store: s, Now: w.fc.Now})
}

// restart closes every instance and opens them again on the same database.
func (w *world) restart() {
	n := len(w.st)
	for _, s := range w.st {
		s.Close()
	}
	w.st, w.ds = nil, nil
	for range n {
		w.open()
	}
}

func (w *world) d() *Director { return w.ds[0] }

// startGames claims every pending board with a game, as the bot does.
func (w *world) startGames(id int64, ps []tournament.Pairing) {
	for _, p := range ps {
		if p.Result != tournament.Pending {
			continue
		}
		w.next++
		if err := w.d().SetGame(context.Background(), id, p.Round, p.Board, w.next); err != nil {
			w.t.Fatal(err)
		}
		// A second instance claiming the same board loses.
		if len(w.ds) > 1 {
			if err := w.ds[1].SetGame(context.Background(), id, p.Round, p.Board, w.next+500); !errors.Is(err, tournament.ErrStaleRound) {
				w.t.Fatalf("second claim of round %d board %d: %v", p.Round, p.Board, err)
			}
		}
	}
}

// advanceRace has every instance call Advance at once: exactly one pairs.
func (w *world) advanceRace(id int64, after int) ([]tournament.Pairing, bool) {
	w.t.Helper()
	type res struct {
		ps       []tournament.Pairing
		finished bool
		err      error
	}
	out := make([]res, len(w.ds))
	var wg sync.WaitGroup
	for i, d := range w.ds {
		wg.Go(func() {
			ps, fin, err := d.Advance(context.Background(), id, after)
			out[i] = res{ps, fin, err}
		})
	}
	wg.Wait()
	won := -1
	for i, r := range out {
		switch {
		case r.err == nil:
			if won >= 0 {
				w.t.Fatalf("instances %d and %d both advanced", won, i)
			}
			won = i
		case errors.Is(r.err, tournament.ErrStaleRound), errors.Is(r.err, tournament.ErrFinished):
		default:
			w.t.Fatalf("advance on instance %d: %v", i, r.err)
		}
	}
	if won < 0 {
		w.t.Fatal("no instance advanced")
	}
	return out[won].ps, out[won].finished
}

// result is a deterministic game result for a board.
func result(p tournament.Pairing) tournament.Result {
	switch (p.Round*7 + p.Board*3 + len(p.White)) % 5 {
	case 0, 1:
		return tournament.WhiteWins
	case 2, 3:
		return tournament.BlackWins
	}
	return tournament.Draw
}

func (w *world) create(f tournament.Format, rounds, n int) int64 {
	ctx := context.Background()
	ev, err := w.d().Create(ctx, store.Tournament{Guild: "g", Channel: "c", Creator: "org", Kind: "tank", Variant: "classic", Clock: "1d", Rated: true},
		tournament.Settings{Format: f, SwissRounds: rounds, RoundLength: 48 * time.Hour})
	if err != nil {
		w.t.Fatal(err)
	}
	for i := range n {
		if err := w.ds[i%len(w.ds)].Join(ctx, ev.Row.ID, fmt.Sprintf("u%d", i+1), 1800-float64(25*i)); err != nil {
			w.t.Fatal(err)
		}
	}
	return ev.Row.ID
}

// TestSimulatedSwiss runs an 8-player Swiss of 3 rounds on two instances
// sharing a SQLite file (and on PostgreSQL): bad commands refused, a
// withdrawal in round 2, a game adjudicated at the round-2 deadline, a
// restart in the middle of round 2, and racing round starts.
func TestSimulatedSwiss(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			loc := b.New(t)
			if b.Name == "sqlite" {
				loc = filepath.Join(t.TempDir(), "tank.db")
			}
			simulateSwiss(t, newWorld(t, loc, 2))
		})
	}
}

func simulateSwiss(t *testing.T, w *world) {
	ctx := context.Background()
	id := w.create(tournament.Swiss, 3, 8)
	snapshot := func() string {
		row, es, ps, err := w.st[0].TournamentState(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%+v %+v %+v", *row, es, ps)
	}
	before := snapshot()
	if err := w.ds[1].Join(ctx, id, "u3", 1500); !errors.Is(err, tournament.ErrAlreadyJoined) {
		t.Fatalf("join twice: %v", err)
	}
	if _, err := w.d().Start(ctx, id, tournament.Actor{ID: "u1"}); !errors.Is(err, tournament.ErrNotOrganiser) {
		t.Fatalf("non-organiser start: %v", err)
	}
	if err := w.d().Cancel(ctx, id, tournament.Actor{ID: "u2"}); !errors.Is(err, tournament.ErrNotOrganiser) {
		t.Fatalf("non-organiser cancel: %v", err)
	}
	if err := w.d().Leave(ctx, id, "stranger"); !errors.Is(err, tournament.ErrNotEntered) {
		t.Fatalf("leave without entering: %v", err)
	}
	if _, err := w.d().Withdraw(ctx, id, "u1"); !errors.Is(err, tournament.ErrNotRunning) {
		t.Fatalf("withdraw before the start: %v", err)
	}
	if after := snapshot(); after != before {
		t.Fatalf("refused commands changed the database:\n%s\n%s", before, after)
	}
	ps, err := w.d().Start(ctx, id, tournament.Actor{ID: "org"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.ds[1].Start(ctx, id, tournament.Actor{ID: "org"}); !errors.Is(err, tournament.ErrNotSignUp) {
		t.Fatalf("second start: %v", err)
	}
	if len(ps) != 4 || ps[0].White != "u1" || ps[0].Black != "u5" {
		t.Fatalf("round 1: %+v", ps)
	}
	w.startGames(id, ps)
	for _, p := range ps {
		if _, err := w.d().RecordGame(ctx, w.game(id, p), result(p)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := w.ds[1].Advance(ctx, id, 1); err != nil {
		t.Fatal(err)
	}
	ev, _ := w.d().Load(ctx, id)
	ps = ev.T.Rounds[1]
	w.startGames(id, ps)
	// Round 2: u8 withdraws (their game is forfeited), two games finish,
	// then the instances restart, and the last game is still running at
	// the deadline.
	dec, err := w.d().Withdraw(ctx, id, "u8")
	if err != nil || len(dec) != 1 {
		t.Fatalf("withdraw: %+v %v", dec, err)
	}
	ev, _ = w.d().Load(ctx, id)
	var open []tournament.Pairing
	for _, p := range ev.T.Rounds[1] {
		if p.Result == tournament.Pending {
			open = append(open, p)
		}
	}
	if len(open) != 3 {
		t.Fatalf("round 2 after the withdrawal: %d open games", len(open))
	}
	for _, p := range open[:2] {
		if err := w.ds[1].Record(ctx, id, p.Round, p.Board, result(p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.d().Record(ctx, id, open[0].Round, open[0].Board, result(open[0])); err != nil {
		t.Fatalf("the same result again: %v", err)
	}
	w.restart()
	if _, _, err := w.d().Advance(ctx, id, 2); !errors.Is(err, tournament.ErrRoundNotOver) {
		t.Fatalf("advance with a game running: %v", err)
	}
	w.fc.Advance(47 * time.Hour)
	if got, err := w.d().Adjudicate(ctx, id, nil); err != nil || got != nil {
		t.Fatalf("adjudication before the deadline: %+v %v", got, err)
	}
	w.fc.Advance(time.Hour)
	due, _ := w.st[0].DueTournaments(ctx, w.fc.Now())
	if len(due) != 1 || due[0].ID != id {
		t.Fatalf("due tournaments at the deadline: %+v", due)
	}
	got, err := w.d().Adjudicate(ctx, id, func(p tournament.Pairing) (tournament.Result, error) {
		// Black is to move and has moved before: Black loses on time.
		return tournament.Adjudicate(tournament.Black, true, true), nil
	})
	if err != nil || len(got) != 1 || got[0].Result != tournament.WhiteWins {
		t.Fatalf("adjudicated %+v %v", got, err)
	}
	ps, _ = w.advanceRace(id, 2)
	for _, p := range ps {
		if p.White == "u8" || p.Black == "u8" {
			t.Fatalf("withdrawn u8 paired in round 3: %+v", p)
		}
	}
	if len(ps) != 4 || !ps[3].IsBye() {
		t.Fatalf("round 3 with 7 players: %+v", ps)
	}
	w.startGames(id, ps)
	for _, p := range ps {
		if p.Result == tournament.Pending {
			if _, err := w.ds[1].RecordGame(ctx, w.game(id, p), result(p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, fin := w.advanceRace(id, 3); !fin {
		t.Fatal("not finished after round 3")
	}
	ev, _ = w.d().Load(ctx, id)
	if ev.T.Status != tournament.Finished || ev.Row.Status != "finished" {
		t.Fatalf("status %s", ev.T.Status)
	}
	st := ev.T.Standings()
	total := 0.0
	for _, s := range st {
		total += s.Points
	}
	// 4 games a round in rounds 1–2 (one forfeited), 3 games and a bye in round 3.
	if total != 4+4+3+1 {
		t.Errorf("points handed out %.1f, want 12", total)
	}
	for _, s := range st {
		if (s.Player == "u8") != s.Withdrawn {
			t.Errorf("standing %+v: only u8 withdrew", s)
		}
	}
	for _, s := range st {
		t.Logf("%d. %s %.1f BH-1 %.1f SB %.2f wins %d games %d withdrawn %v", s.Rank, s.Player, s.Points, s.BuchholzCut1, s.SonnebornBerger, s.Wins, s.Games, s.Withdrawn)
	}
	if err := w.d().Cancel(ctx, id, tournament.Actor{ID: "org"}); !errors.Is(err, tournament.ErrFinished) {
		t.Fatalf("cancel after the end: %v", err)
	}
}

// game is the game started on a board, read back from the store.
func (w *world) game(id int64, p tournament.Pairing) int64 {
	ev, err := w.d().Load(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	g := ev.T.Rounds[p.Round-1][p.Board-1].GameID
	if g == 0 {
		w.t.Fatalf("round %d board %d has no game", p.Round, p.Board)
	}
	return g
}

// playRound records every pending board of the current round (byes and
// forfeits are already decided) and advances.
func (w *world) playRound(id int64) ([]tournament.Pairing, bool) {
	ctx := context.Background()
	ev, err := w.d().Load(ctx, id)
	if err != nil {
		w.t.Fatal(err)
	}
	ps := ev.T.Rounds[ev.T.Round-1]
	w.startGames(id, ps)
	for _, p := range ps {
		if p.Result == tournament.Pending {
			if _, err := w.d().RecordGame(ctx, w.game(id, p), result(p)); err != nil {
				w.t.Fatal(err)
			}
		}
	}
	return w.advanceRace(id, ev.T.Round)
}

// TestSimulatedRoundRobin: 5 players, so 5 rounds with one resting each
// round; a restart after round 2 and a withdrawal in round 3 whose
// remaining games become forfeits.
func TestSimulatedRoundRobin(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, filepath.Join(t.TempDir(), "rr.db"), 2)
	id := w.create(tournament.RoundRobin, 0, 5)
	if _, err := w.d().Start(ctx, id, tournament.Actor{ID: "mod", ManageServer: true}); err != nil {
		t.Fatal(err)
	}
	rests := map[string]int{}
	for r := 1; ; r++ {
		if r == 3 {
			w.restart()
			if _, err := w.ds[1].Withdraw(ctx, id, "u2"); err != nil {
				t.Fatal(err)
			}
		}
		ev, _ := w.d().Load(ctx, id)
		for _, p := range ev.T.Rounds[r-1] {
			if p.IsBye() {
				rests[p.White]++
				if p.Result != tournament.Bye && p.Result != tournament.DoubleForfeit {
					t.Fatalf("rest scored %s", p.Result)
				}
			}
			if r > 3 && (p.White == "u2" || p.Black == "u2") && !p.IsBye() && p.Result != tournament.WhiteForfeit && p.Result != tournament.BlackForfeit {
				t.Fatalf("round %d: withdrawn u2's game %+v not forfeited", r, p)
			}
		}
		w.fc.Advance(time.Hour)
		if _, fin := w.playRound(id); fin {
			if r != 5 {
				t.Fatalf("finished after %d rounds", r)
			}
			break
		}
	}
	for i := 1; i <= 5; i++ {
		if rests[fmt.Sprint("u", i)] != 1 {
			t.Errorf("rests %v: everyone rests once", rests)
		}
	}
	ev, _ := w.d().Load(ctx, id)
	met := map[[2]string]int{}
	for _, r := range ev.T.Rounds {
		for _, p := range r {
			if !p.IsBye() {
				a, b := min(p.White, p.Black), max(p.White, p.Black)
				met[[2]string{a, b}]++
			}
		}
	}
	if len(met) != 10 {
		t.Errorf("%d distinct pairs, want 10", len(met))
	}
	st := ev.T.Standings()
	for _, s := range st {
		t.Logf("%d. %s %.1f direct %.1f SB %.2f wins %d", s.Rank, s.Player, s.Points, s.Direct, s.SonnebornBerger, s.Wins)
	}
}

// TestSimulatedKnockout: 6 players, the top two seeds have byes, a draw
// goes to Black, and the final produces a champion.
func TestSimulatedKnockout(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, filepath.Join(t.TempDir(), "ko.db"), 2)
	id := w.create(tournament.Knockout, 0, 6)
	ps, err := w.d().Start(ctx, id, tournament.Actor{ID: "org"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 || ps[0].White != "u1" || !ps[0].IsBye() || ps[2].White != "u2" || !ps[2].IsBye() {
		t.Fatalf("round 1: %+v", ps)
	}
	rounds := 0
	for {
		rounds++
		if rounds == 2 {
			w.restart()
		}
		if _, fin := w.playRound(id); fin {
			break
		}
		if rounds > 3 {
			t.Fatal("a 6-player knockout runs past 3 rounds")
		}
	}
	ev, _ := w.d().Load(ctx, id)
	if rounds != 3 || len(ev.T.Rounds) != 3 || len(ev.T.Rounds[2]) != 1 {
		t.Fatalf("%d rounds: %+v", rounds, ev.T.Rounds)
	}
	final := ev.T.Rounds[2][0]
	st := ev.T.Standings()
	if st[0].Player != final.Winner() || st[1].Reached != 3 || st[0].Reached != 4 {
		t.Fatalf("champion %s, standings %+v", final.Winner(), st)
	}
	draws := 0
	for r, round := range ev.T.Rounds[:2] {
		for _, p := range round {
			if p.Result == tournament.Draw {
				draws++
				next := ev.T.Rounds[r+1][p.Board/2+p.Board%2-1]
				if next.White != p.Black && next.Black != p.Black {
					t.Errorf("drawn round %d board %d: Black %s is not in round %d: %+v", r+1, p.Board, p.Black, r+2, next)
				}
			}
		}
	}
	if draws == 0 {
		t.Error("the simulated results have no draw to check the Armageddon rule with")
	}
	for r, round := range ev.T.Rounds {
		for _, p := range round {
			t.Logf("round %d board %d: %s – %s %s", r+1, p.Board, p.White, p.Black, p.Result)
		}
	}
}

// At the sign-up deadline a tournament with enough players starts, one
// without is cancelled; before it nothing happens.
func TestCloseSignUp(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, filepath.Join(t.TempDir(), "su.db"), 1)
	mk := func(n int) int64 {
		ev, err := w.d().Create(ctx, store.Tournament{Guild: "g", Channel: "c", Creator: "org", Kind: "gungi"},
			tournament.Settings{Format: tournament.RoundRobin, RoundLength: time.Hour, SignUpDeadline: t0.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if err := w.d().Join(ctx, ev.Row.ID, fmt.Sprint("x", i), 1500); err != nil {
				t.Fatal(err)
			}
		}
		return ev.Row.ID
	}
	enough, few := mk(3), mk(2)
	for name, c := range map[string]struct {
		row store.Tournament
		s   tournament.Settings
	}{
		"no game":       {store.Tournament{Guild: "g", Creator: "org"}, tournament.Settings{Format: tournament.Knockout, RoundLength: time.Hour}},
		"past deadline": {store.Tournament{Guild: "g", Creator: "org", Kind: "tank"}, tournament.Settings{Format: tournament.Knockout, RoundLength: time.Hour, SignUpDeadline: t0}},
		"bad format":    {store.Tournament{Guild: "g", Creator: "org", Kind: "tank"}, tournament.Settings{Format: "arena", RoundLength: time.Hour}},
	} {
		if _, err := w.d().Create(ctx, c.row, c.s); !errors.Is(err, tournament.ErrBadSettings) {
			t.Errorf("create with %s: %v", name, err)
		}
	}
	if gs, _ := w.st[0].GuildTournaments(ctx, "g"); len(gs) != 2 {
		t.Fatalf("refused creations stored: %d tournaments", len(gs))
	}
	if ps, st, err := w.d().CloseSignUp(ctx, enough); err != nil || st != "" || ps != nil {
		t.Fatalf("before the deadline: %v %v %v", ps, st, err)
	}
	w.fc.Advance(time.Hour)
	if err := w.d().Join(ctx, few, "late", 1500); !errors.Is(err, tournament.ErrSignUpDeadline) {
		t.Fatalf("joining after the deadline: %v", err)
	}
	if ps, st, err := w.d().CloseSignUp(ctx, enough); err != nil || st != tournament.Running || len(ps) != 2 {
		t.Fatalf("with 3 players: %v %v %v", ps, st, err)
	}
	if _, st, err := w.d().CloseSignUp(ctx, few); err != nil || st != tournament.Cancelled {
		t.Fatalf("with 2 players: %v %v", st, err)
	}
	if _, st, err := w.d().CloseSignUp(ctx, few); err != nil || st != "" {
		t.Fatalf("closing again: %v %v", st, err)
	}
	ev, _ := w.d().Load(ctx, few)
	if ev.T.Status != tournament.Cancelled {
		t.Fatalf("status with 2 players: %s", ev.T.Status)
	}
}

// TestDirectorRaces: two instances take the same commands at the same
// time; each takes effect once and the other instance gets the state
// machine's error for the state it finds.
func TestDirectorRaces(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newWorld(t, b.New(t), 2)
			id := w.create(tournament.Knockout, 0, 0)
			race := func(op func(i int, d *Director) error) []error {
				errs := make([]error, len(w.ds))
				var wg sync.WaitGroup
				for i, d := range w.ds {
					wg.Go(func() { errs[i] = op(i, d) })
				}
				wg.Wait()
				return errs
			}
			oneOf := func(what string, errs []error, want error) {
				t.Helper()
				ok, lost := 0, 0
				for _, err := range errs {
					switch {
					case err == nil:
						ok++
					case errors.Is(err, want):
						lost++
					default:
						t.Fatalf("%s: %v", what, err)
					}
				}
				if ok != 1 || lost != len(errs)-1 {
					t.Fatalf("%s: %d succeeded, %d refused (%v)", what, ok, lost, errs)
				}
			}
			for i := range 4 {
				p := fmt.Sprint("r", i)
				oneOf("join "+p, race(func(_ int, d *Director) error { return d.Join(ctx, id, p, 1500) }), tournament.ErrAlreadyJoined)
			}
			oneOf("start", race(func(_ int, d *Director) error {
				_, err := d.Start(ctx, id, tournament.Actor{ID: "org"})
				return err
			}), tournament.ErrNotSignUp)
			oneOf("record", race(func(i int, d *Director) error {
				// Different results from the two instances.
				return d.Record(ctx, id, 1, 1, []tournament.Result{tournament.WhiteWins, tournament.BlackWins}[i%2])
			}), tournament.ErrAlreadyRecorded)
			oneOf("withdraw", race(func(_ int, d *Director) error {
				_, err := d.Withdraw(ctx, id, "r3")
				return err
			}), tournament.ErrAlreadyWithdrawn)
			ev, _ := w.d().Load(ctx, id)
			r3, _ := ev.T.Entrant("r3")
			if len(ev.T.Entrants) != 4 || ev.T.Round != 1 || len(ev.T.Rounds[0]) != 2 || ev.T.Rounds[0][0].Result == tournament.Pending || !r3.Withdrawn {
				t.Fatalf("after the races: %+v %+v", ev.T.Entrants, ev.T.Rounds)
			}
		})
	}
}

// TestTickAndGameOver drives a 4-player knockout only through the
// scheduler's Tick (on two instances at once) and GameOver: the sign-up
// deadline starts it, finished games pair the next round, the round
// deadline adjudicates the game left running, and the final ends it.
func TestTickAndGameOver(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, filepath.Join(t.TempDir(), "tick.db"), 2)
	ev, err := w.d().Create(ctx, store.Tournament{Guild: "g", Channel: "c", Creator: "org", Kind: "camelot"},
		tournament.Settings{Format: tournament.Knockout, RoundLength: 24 * time.Hour, SignUpDeadline: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	id := ev.Row.ID
	for i := range 4 {
		w.d().Join(ctx, id, fmt.Sprint("k", i), 1600-float64(i))
	}
	var judged atomic.Int32
	judge := func(tid int64, p tournament.Pairing) (tournament.Result, error) {
		judged.Add(1)
		if tid != id {
			t.Errorf("judging tournament %d", tid)
		}
		return tournament.Adjudicate(tournament.White, false, true), nil // White never moved
	}
	tick := func() []Update {
		t.Helper()
		var mu sync.Mutex
		var all []Update
		var wg sync.WaitGroup
		for _, d := range w.ds {
			wg.Go(func() {
				us, err := d.Tick(ctx, judge)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				all = append(all, us...)
				mu.Unlock()
			})
		}
		wg.Wait()
		return all
	}
	if us := tick(); len(us) != 0 {
		t.Fatalf("updates before any deadline: %+v", us)
	}
	w.fc.Advance(time.Hour)
	us := tick()
	if len(us) != 1 || len(us[0].Paired) != 2 || us[0].Paired[0].White != "k0" || us[0].Paired[0].Black != "k3" {
		t.Fatalf("at the sign-up deadline: %+v", us)
	}
	w.startGames(id, us[0].Paired)
	// Board 1 finishes; board 2 is still running at the round deadline.
	u, err := w.d().GameOver(ctx, w.game(id, us[0].Paired[0]), tournament.WhiteWins)
	if err != nil || u == nil || u.Paired != nil || u.Finished {
		t.Fatalf("first game over: %+v %v", u, err)
	}
	if u, err := w.d().GameOver(ctx, 424242, tournament.WhiteWins); err != nil || u != nil {
		t.Fatalf("a game outside tournaments: %+v %v", u, err)
	}
	w.fc.Advance(24 * time.Hour)
	us = tick()
	// Both instances tick: one may adjudicate the late game and the other
	// pair the final, so the round's updates are taken together.
	var adjudicated, paired []tournament.Pairing
	for _, u := range us {
		if u.ID != id {
			t.Fatalf("update of tournament %d: %+v", u.ID, u)
		}
		adjudicated = append(adjudicated, u.Adjudicated...)
		paired = append(paired, u.Paired...)
	}
	if judged.Load() < 1 || len(adjudicated) != 1 || adjudicated[0].Result != tournament.BlackForfeit || len(paired) != 1 {
		t.Fatalf("at the round deadline (judged %d): %+v", judged.Load(), us)
	}
	final := paired[0]
	if final.White != "k2" && final.Black != "k2" || final.White != "k0" && final.Black != "k0" {
		t.Fatalf("final %+v: k0 and k2 (who won by forfeit) should meet", final)
	}
	w.startGames(id, paired)
	u, err = w.ds[1].GameOver(ctx, w.game(id, final), tournament.Draw)
	if err != nil || !u.Finished {
		t.Fatalf("final over: %+v %v", u, err)
	}
	ev, _ = w.d().Load(ctx, id)
	if got := fmt.Sprint(ev.T.Podium()); got != fmt.Sprintf("[[%s] [%s] [k3 k1]]", final.Black, final.White) && got != fmt.Sprintf("[[%s] [%s] [k1 k3]]", final.Black, final.White) {
		t.Fatalf("podium %s after a drawn final (Black %s wins)", got, final.Black)
	}
	if us := tick(); len(us) != 0 {
		t.Fatalf("updates after the end: %+v", us)
	}
}

// When the last round ends at its deadline, the adjudicated games are
// ended (Adjudicated) before the tournament finishes (its final post is
// queued by Posts), and a game's end reported afterwards with the result
// the tournament gave it is no error: the tournament being over is not a
// reason to complain about a board it decided itself.
func TestLastRoundDeadlineEndsGamesBeforeStandings(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, filepath.Join(t.TempDir(), "last.db"), 1)
	id := w.create(tournament.Knockout, 0, 2)
	d := w.d()
	var order []string
	d.Adjudicated = func(_ context.Context, tid int64, ps []tournament.Pairing) {
		for _, p := range ps {
			order = append(order, fmt.Sprintf("end board %d %s", p.Board, p.Result))
		}
	}
	d.Posts = func(ev *Event, _ []tournament.Pairing, finished bool) ([]store.Message, error) {
		if finished {
			order = append(order, "standings")
		}
		return nil, nil
	}
	ps, err := d.Start(ctx, id, tournament.Actor{ID: "org"})
	if err != nil {
		t.Fatal(err)
	}
	w.startGames(id, ps)
	w.fc.Advance(49 * time.Hour)
	judge := func(int64, tournament.Pairing) (tournament.Result, error) { return tournament.BlackWins, nil }
	us, err := d.Tick(ctx, judge)
	if err != nil || len(us) != 1 || !us[0].Finished {
		t.Fatalf("tick at the last deadline: %+v %v", us, err)
	}
	if got := strings.Join(order, "; "); got != "end board 1 0-1; standings" {
		t.Fatalf("order %q: the game must end before the final standings", got)
	}
	// The ended game's result comes back through the game-over path.
	u, err := d.GameOver(ctx, w.game(id, ps[0]), tournament.BlackWins)
	if err != nil || u == nil || u.Paired != nil || u.Finished {
		t.Fatalf("the adjudicated game's own end after the finish: %+v %v", u, err)
	}
	// A forfeit's game ends as a plain win: that is the board already
	// decided, not a new result.
	if _, err := d.GameOver(ctx, w.game(id, ps[0]), tournament.WhiteWins); !errors.Is(err, tournament.ErrAlreadyRecorded) {
		t.Fatalf("another result for a decided board: %v", err)
	}
}
