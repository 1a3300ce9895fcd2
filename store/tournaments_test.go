package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/storetest"
)

func newTournament(t *testing.T, s *Store, maxPlayers int) *Tournament {
	t.Helper()
	tr, err := s.CreateTournament(context.Background(), Tournament{Guild: "g1", Channel: "c1", Creator: "org", Kind: "tank", Variant: "classic",
		Clock: "1d", Format: "swiss", Rounds: 3, Rated: true, MaxPlayers: maxPlayers, SignUpDeadline: t0.Add(time.Hour), RoundLength: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestTournamentLifecycle(t *testing.T) { storetest.Run(t, testTournamentLifecycle) }

func testTournamentLifecycle(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	s := open(t, loc, nil)
	tr := newTournament(t, s, 3)
	if tr.ID == 0 || tr.Status != "signup" || tr.Round != 0 || !tr.Rated || tr.RoundLength != 24*time.Hour || !tr.SignUpDeadline.Equal(t0.Add(time.Hour)) {
		t.Fatalf("created %+v", tr)
	}
	for i, p := range []string{"a", "b", "c"} {
		if err := s.AddEntrant(ctx, tr.ID, TournamentEntrant{Player: p, Rating: 1500 + float64(i), Joined: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddEntrant(ctx, tr.ID, TournamentEntrant{Player: "a", Rating: 1, Joined: t0}); !errors.Is(err, ErrAlreadyEntered) {
		t.Fatalf("entering twice: %v", err)
	}
	if err := s.AddEntrant(ctx, tr.ID, TournamentEntrant{Player: "d", Rating: 1, Joined: t0}); !errors.Is(err, ErrTournamentFull) {
		t.Fatalf("entering a full tournament: %v", err)
	}
	if err := s.RemoveEntrant(ctx, tr.ID, "zz"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("removing a stranger: %v", err)
	}
	if err := s.RemoveEntrant(ctx, tr.ID, "b"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddEntrant(ctx, tr.ID, TournamentEntrant{Player: "d", Rating: 1400, Joined: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	es, err := s.Entrants(ctx, tr.ID)
	if err != nil || len(es) != 3 || es[0].Player != "a" || es[1].Player != "c" || es[2].Player != "d" || es[2].Rating != 1400 || !es[2].Joined.Equal(t0.Add(time.Minute)) {
		t.Fatalf("entrants %+v %v", es, err)
	}
	r1 := []TournamentPairing{{Round: 1, Board: 1, White: "a", Black: "c"}, {Round: 1, Board: 2, White: "d", Result: "bye"}}
	if err := s.StartRound(ctx, tr.ID, "running", 1, t0.Add(25*time.Hour), r1); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("round 1 from the wrong status: %v", err)
	}
	if err := s.StartRound(ctx, tr.ID, "signup", 1, t0.Add(25*time.Hour), r1); err != nil {
		t.Fatal(err)
	}
	if err := s.StartRound(ctx, tr.ID, "signup", 1, t0.Add(25*time.Hour), r1); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("round 1 twice: %v", err)
	}
	if err := s.AddEntrant(ctx, tr.ID, TournamentEntrant{Player: "e", Rating: 1, Joined: t0}); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("entering after the start: %v", err)
	}
	if err := s.SetPairingGame(ctx, tr.ID, 1, 1, 77); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPairingGame(ctx, tr.ID, 1, 1, 78); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("second game on a board: %v", err)
	}
	if err := s.SetPairingGame(ctx, tr.ID, 1, 9, 78); !errors.Is(err, ErrNotFound) {
		t.Fatalf("game on no board: %v", err)
	}
	id, p, err := s.PairingByGame(ctx, 77)
	if err != nil || id != tr.ID || p.Round != 1 || p.Board != 1 || p.White != "a" {
		t.Fatalf("board of game 77: %d %+v %v", id, p, err)
	}
	if _, _, err := s.PairingByGame(ctx, 5); !errors.Is(err, ErrNotFound) {
		t.Fatalf("board of a stranger game: %v", err)
	}
	if set, err := s.SetPairingResult(ctx, tr.ID, 1, 1, "1-0"); err != nil || !set {
		t.Fatalf("result: %v %v", set, err)
	}
	if set, err := s.SetPairingResult(ctx, tr.ID, 1, 1, "1-0"); err != nil || set {
		t.Fatalf("same result again: %v %v", set, err)
	}
	if _, err := s.SetPairingResult(ctx, tr.ID, 1, 1, "0-1"); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("another result: %v", err)
	}
	if _, err := s.SetPairingResult(ctx, tr.ID, 1, 7, "0-1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("result on no board: %v", err)
	}
	r2 := []TournamentPairing{{Round: 2, Board: 1, White: "c", Black: "d"}, {Round: 2, Board: 2, White: "a", Result: "bye"}}
	if err := s.StartRound(ctx, tr.ID, "running", 2, t0.Add(49*time.Hour), r2); err != nil {
		t.Fatal(err)
	}
	// c withdraws during round 2: the pending game is forfeited with it.
	if err := s.WithdrawEntrant(ctx, tr.ID, "c", 1, nil); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("withdraw at a stale round: %v", err)
	}
	if err := s.WithdrawEntrant(ctx, tr.ID, "c", 2, []TournamentPairing{{Round: 2, Board: 1, Result: "-:+"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.WithdrawEntrant(ctx, tr.ID, "c", 2, nil); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("withdraw twice: %v", err)
	}
	if err := s.WithdrawEntrant(ctx, tr.ID, "zz", 2, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("withdraw a stranger: %v", err)
	}
	due, err := s.DueTournaments(ctx, t0.Add(49*time.Hour))
	if err != nil || len(due) != 1 || due[0].ID != tr.ID {
		t.Fatalf("due at the deadline: %+v %v", due, err)
	}
	if due, _ := s.DueTournaments(ctx, t0.Add(49*time.Hour-time.Second)); len(due) != 0 {
		t.Fatalf("due before the deadline: %+v", due)
	}
	if b.Name == "sqlite" {
		// A restart: a fresh store on the same file reads everything back.
		s.Close()
		s = open(t, loc, nil)
	}
	got, err := s.Tournament(ctx, tr.ID)
	if err != nil || got.Status != "running" || got.Round != 2 || !got.RoundDeadline.Equal(t0.Add(49*time.Hour)) {
		t.Fatalf("after round 2: %+v %v", got, err)
	}
	ps, err := s.Pairings(ctx, tr.ID)
	want := []TournamentPairing{
		{1, 1, "a", "c", 77, "1-0"}, {1, 2, "d", "", 0, "bye"},
		{2, 1, "c", "d", 0, "-:+"}, {2, 2, "a", "", 0, "bye"},
	}
	if err != nil || fmt.Sprint(ps) != fmt.Sprint(want) {
		t.Fatalf("pairings %+v %v, want %+v", ps, err, want)
	}
	row, es2, ps2, err := s.TournamentState(ctx, tr.ID)
	if err != nil || row.Round != 2 || fmt.Sprint(ps2) != fmt.Sprint(want) || len(es2) != 3 {
		t.Fatalf("state in one read: %+v %+v %+v %v", row, es2, ps2, err)
	}
	if _, _, _, err := s.TournamentState(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("state of a missing tournament: %v", err)
	}
	es, _ = s.Entrants(ctx, tr.ID)
	if !es[1].Withdrawn || es[1].WithdrawnRound != 2 || es[0].Withdrawn {
		t.Fatalf("entrants after the withdrawal %+v", es)
	}
	if gs, err := s.GuildTournaments(ctx, "g1"); err != nil || len(gs) != 1 {
		t.Fatalf("guild tournaments %+v %v", gs, err)
	}
	if err := s.FinishTournament(ctx, tr.ID, 1); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("finish at a stale round: %v", err)
	}
	if err := s.FinishTournament(ctx, tr.ID, 2); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTournamentStatus(ctx, tr.ID, "running", "cancelled"); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("cancel a finished tournament: %v", err)
	}
	if err := s.SetTournamentStatus(ctx, 999, "running", "cancelled"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("cancel a missing tournament: %v", err)
	}
	if _, err := s.Tournament(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing tournament: %v", err)
	}
	if gs, _ := s.GuildTournaments(ctx, "g1"); len(gs) != 0 {
		t.Fatalf("finished tournament still listed: %+v", gs)
	}
}

// TestStartRoundRace: two stores on one database (two instances), several
// goroutines each, all try to start every round at once: each round starts
// exactly once and its pairings are stored once.
func TestStartRoundRace(t *testing.T) { storetest.Run(t, testStartRoundRace) }

func testStartRoundRace(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	stores := []*Store{open(t, loc, nil), open(t, loc, nil)}
	tr := newTournament(t, stores[0], 0)
	const rounds, workers = 6, 4
	var wins [rounds + 1]atomic.Int32
	var entered atomic.Int32
	var wg sync.WaitGroup
	for si, s := range stores {
		for w := range workers {
			wg.Go(func() {
				// Both instances sign up the same players: each enters once.
				for i := range 8 {
					err := s.AddEntrant(ctx, tr.ID, TournamentEntrant{Player: fmt.Sprint("p", i), Rating: 1500, Joined: t0})
					if err == nil {
						entered.Add(1)
					} else if !errors.Is(err, ErrAlreadyEntered) && !errors.Is(err, ErrTournamentStale) {
						t.Error(err)
					}
				}
				for r := 1; r <= rounds; r++ {
					from := "running"
					if r == 1 {
						from = "signup"
					}
					ps := []TournamentPairing{{Round: r, Board: 1, White: fmt.Sprintf("s%dw%d", si, w), Black: "x"}}
					post := Message{Channel: "c1", Payload: fmt.Sprintf("round %d by s%dw%d", r, si, w)}
					err := s.StartRound(ctx, tr.ID, from, r, t0, ps, post)
					switch {
					case err == nil:
						wins[r].Add(1)
					case errors.Is(err, ErrTournamentStale):
					default:
						t.Error(err)
					}
					// Wait until someone started round r before trying r+1.
					for try := 0; ; try++ {
						cur, err := s.Tournament(ctx, tr.ID)
						if try > 100000 {
							t.Errorf("round %d never started", r)
							return
						}
						if err != nil {
							t.Error(err)
							return
						}
						if cur.Round >= r {
							break
						}
					}
				}
			})
		}
	}
	wg.Wait()
	for r := 1; r <= rounds; r++ {
		if n := wins[r].Load(); n != 1 {
			t.Errorf("round %d started %d times", r, n)
		}
	}
	ps, err := stores[1].Pairings(ctx, tr.ID)
	if err != nil || len(ps) != rounds {
		t.Fatalf("%d pairings stored (%v), want %d", len(ps), err, rounds)
	}
	// Each round's announcement was queued once, by the instance that
	// started it.
	out, err := stores[1].Outbox(ctx)
	if err != nil || len(out) != rounds {
		t.Errorf("%d announcements queued (%v), want %d", len(out), err, rounds)
	}
	if es, _ := stores[1].Entrants(ctx, tr.ID); int(entered.Load()) != len(es) {
		t.Errorf("%d successful entries, %d entrants", entered.Load(), len(es))
	}
}

// TestEntrantsLimitRace: two instances sign up 12 different players at
// once into a tournament of at most 5: exactly 5 get in.
func TestEntrantsLimitRace(t *testing.T) { storetest.Run(t, testEntrantsLimitRace) }

func testEntrantsLimitRace(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	stores := []*Store{open(t, loc, nil), open(t, loc, nil)}
	tr := newTournament(t, stores[0], 5)
	var in, full atomic.Int32
	var wg sync.WaitGroup
	for i := range 12 {
		s := stores[i%2]
		wg.Go(func() {
			err := s.AddEntrant(ctx, tr.ID, TournamentEntrant{Player: fmt.Sprint("p", i), Rating: 1500, Joined: t0})
			switch {
			case err == nil:
				in.Add(1)
			case errors.Is(err, ErrTournamentFull):
				full.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	es, err := stores[1].Entrants(ctx, tr.ID)
	if err != nil || in.Load() != 5 || full.Load() != 7 || len(es) != 5 {
		t.Fatalf("%d in, %d refused as full, %d stored (%v)", in.Load(), full.Load(), len(es), err)
	}
	seqs := map[string]bool{}
	for _, e := range es {
		seqs[e.Player] = true
	}
	if len(seqs) != 5 {
		t.Fatalf("entrants %+v", es)
	}
}

// TestEntrantNamesAndPosts: an entrant's name (raw, as typed) and computer
// level are stored with the entry and read back; the final standings post
// is queued with the finish, and not when the finish is stale.
func TestEntrantNamesAndPosts(t *testing.T) { storetest.Run(t, testEntrantNamesAndPosts) }

func testEntrantNamesAndPosts(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	tr := newTournament(t, s, 0)
	raw := "*Ann* <@1> \u202e"
	for _, e := range []TournamentEntrant{{Player: "a", Name: raw, Rating: 1500, Joined: t0}, {Player: "ai-1", Name: "Computer 1", AILevel: 3, Rating: 1500, Joined: t0}} {
		if err := s.AddEntrant(ctx, tr.ID, e); err != nil {
			t.Fatal(err)
		}
	}
	_, es, _, err := s.TournamentState(ctx, tr.ID)
	if err != nil || len(es) != 2 || es[0].Name != raw || es[0].AILevel != 0 || es[1].Name != "Computer 1" || es[1].AILevel != 3 {
		t.Fatalf("entrants %+v %v", es, err)
	}
	if err := s.StartRound(ctx, tr.ID, "signup", 1, t0, []TournamentPairing{{Round: 1, Board: 1, White: "a", Black: "ai-1"}},
		Message{Channel: "c1", Payload: "round 1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTournament(ctx, tr.ID, 2, Message{Channel: "c1", Payload: "stale"}); !errors.Is(err, ErrTournamentStale) {
		t.Fatalf("finishing at the wrong round: %v", err)
	}
	if err := s.FinishTournament(ctx, tr.ID, 1, Message{Channel: "c1", Payload: "final"}); err != nil {
		t.Fatal(err)
	}
	out, err := s.Outbox(ctx)
	if err != nil || len(out) != 2 || out[0].Payload != "round 1" || out[1].Payload != "final" || out[0].Nonce == "" || out[0].Nonce == out[1].Nonce {
		t.Fatalf("outbox %+v %v", out, err)
	}
}
