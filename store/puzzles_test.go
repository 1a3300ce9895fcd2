package store

import (
	"context"
	"errors"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

// plusTen rates a solve +10 for the player and -10 for the puzzle (and the
// reverse for a failure), from 1500 for both when new.
func plusTen(player, pz *Glicko, solved, hinted bool) (Glicko, Glicko) {
	p, q := Glicko{Rating: 1500, RD: 300, Vol: 0.06}, Glicko{Rating: 1500, RD: 300, Vol: 0.06}
	if player != nil {
		p = *player
	}
	if pz != nil {
		q = *pz
	}
	d := -10.0
	if solved {
		d = 10
	}
	p.Rating += d
	q.Rating -= d
	return p, q
}

func TestPuzzles(t *testing.T) { storetest.Run(t, testPuzzles) }

func testPuzzles(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	if _, err := s.ActivePuzzle(ctx, "ann"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no active puzzle: %v", err)
	}
	a := &ActivePuzzle{Player: "ann", Game: "tank", PuzzleID: "t1", Started: t0}
	if err := s.SetActivePuzzle(ctx, a); err != nil {
		t.Fatal(err)
	}
	a.Step, a.Hinted = 1, true
	if err := s.SetActivePuzzle(ctx, a); err != nil {
		t.Fatal(err)
	}
	// A stale update (another answer came first) changes nothing.
	stale := &ActivePuzzle{Player: "ann", PuzzleID: "t1"}
	if err := s.UpdateActivePuzzle(ctx, stale, &ActivePuzzle{Step: 2}); !errors.Is(err, ErrPuzzleMoved) {
		t.Fatalf("stale update: %v", err)
	}
	if err := s.UpdateActivePuzzle(ctx, &ActivePuzzle{Player: "ann", PuzzleID: "t1", Step: 1, Hinted: true}, &ActivePuzzle{Step: 1, Hinted: true}); err != nil {
		t.Fatalf("update: %v", err)
	}
	got, err := s.ActivePuzzle(ctx, "ann")
	if err != nil || got.Step != 1 || !got.Hinted || got.PuzzleID != "t1" || !got.Started.Equal(t0) {
		t.Fatalf("active puzzle: %+v %v", got, err)
	}
	// A hinted solve: counted solved, not clean, the streak broken.
	pr, first, err := s.FinishPuzzle(ctx, got, true, t0, plusTen)
	if err != nil || !first || pr.Solved != 1 || pr.Clean != 0 || pr.Streak != 0 || pr.Rating != 1510 {
		t.Fatalf("first finish: %+v %v %v", pr, first, err)
	}
	// Finishing it again: it is no longer active.
	if _, _, err := s.FinishPuzzle(ctx, got, true, t0, plusTen); !errors.Is(err, ErrPuzzleMoved) {
		t.Fatalf("finish twice: %v", err)
	}
	// The same puzzle again: ends it, rates nothing.
	a = &ActivePuzzle{Player: "ann", Game: "tank", PuzzleID: "t1", Started: t0}
	_ = s.SetActivePuzzle(ctx, a)
	pr, first, err = s.FinishPuzzle(ctx, a, false, t0, plusTen)
	if err != nil || first || pr.Rating != 1510 || pr.Failed != 0 {
		t.Fatalf("second attempt rated: %+v %v %v", pr, first, err)
	}
	// Two clean solves: a streak of 2.
	for _, id := range []string{"t2", "t3"} {
		a = &ActivePuzzle{Player: "ann", Game: "tank", PuzzleID: id, Started: t0}
		_ = s.SetActivePuzzle(ctx, a)
		if pr, _, err = s.FinishPuzzle(ctx, a, true, t0, plusTen); err != nil {
			t.Fatal(err)
		}
	}
	if pr.Streak != 2 || pr.BestStreak != 2 || pr.Clean != 2 || pr.Solved != 3 || pr.Rating != 1530 {
		t.Fatalf("after two clean solves: %+v", pr)
	}
	tried, err := s.PuzzlesTried(ctx, "ann", "tank")
	if err != nil || len(tried) != 3 || !tried["t2"] {
		t.Fatalf("tried: %v %v", tried, err)
	}
	a = &ActivePuzzle{Player: "ann", Game: "gungi", PuzzleID: "g1", Started: t0}
	_ = s.SetActivePuzzle(ctx, a)
	if _, _, err = s.FinishPuzzle(ctx, a, false, t0, plusTen); err != nil {
		t.Fatal(err)
	}
	all, err := s.PuzzleRatings(ctx, "ann")
	if err != nil || len(all) != 2 || all[0].Game != "gungi" || all[0].Failed != 1 || all[0].Rating != 1490 {
		t.Fatalf("ratings: %+v %v", all, err)
	}
	var solved, attempts int
	if err := s.r.QueryRowContext(ctx, `SELECT solved, attempts FROM puzzle_stats WHERE puzzle_id=?`, "t1").Scan(&solved, &attempts); err != nil || solved != 1 || attempts != 1 {
		t.Fatalf("puzzle stats of t1: %d/%d %v", solved, attempts, err)
	}
	cur, err := s.PuzzleCurrentRatings(ctx, "tank")
	if err != nil || len(cur) != 3 || cur["t1"] == 0 {
		t.Fatalf("current ratings of tank puzzles: %v %v", cur, err)
	}
	if cur, err := s.PuzzleCurrentRatings(ctx, "camelot"); err != nil || len(cur) != 0 {
		t.Fatalf("current ratings of camelot puzzles: %v %v", cur, err)
	}
}

func TestPuzzlePool(t *testing.T) { storetest.Run(t, testPuzzlePool) }

// The pool of a server's mined puzzles: finished games are listed until
// mined, a puzzle joins its server's pool once however often it is found,
// and another server keeps its own.
func testPuzzlePool(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	g, err := s.CreateGame(ctx, newGame("c1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if gs, err := s.UnminedGames(ctx, 10); err != nil || len(gs) != 0 {
		t.Fatalf("an active game is not mined: %v %v", gs, err)
	}
	if err := s.FinishGame(ctx, g.ID, 0, Outcome{"0-1", "resign"}); err != nil {
		t.Fatal(err)
	}
	gs, err := s.UnminedGames(ctx, 10)
	if err != nil || len(gs) != 1 || gs[0].ID != g.ID {
		t.Fatalf("unmined games: %v %v", gs, err)
	}
	p := &PoolPuzzle{Guild: g.Guild, ID: "c1234", Game: "camelot", Line: "c1234\t1\tpos\tA1-A2\t1\t1100\t\tgame", Rating: 1100}
	if n, err := s.MarkMined(ctx, g.ID, []*PoolPuzzle{p, p}, t0); err != nil || n != 1 {
		t.Fatalf("mined: %d new, %v", n, err)
	}
	// Mined again (a crash before the mark, another instance): no copy.
	if n, err := s.MarkMined(ctx, g.ID, []*PoolPuzzle{p}, t0); err != nil || n != 0 {
		t.Fatalf("mined again: %d new, %v", n, err)
	}
	if gs, err := s.UnminedGames(ctx, 10); err != nil || len(gs) != 0 {
		t.Fatalf("a mined game is listed again: %v %v", gs, err)
	}
	ps, err := s.PoolPuzzles(ctx, g.Guild, "camelot")
	if err != nil || len(ps) != 1 || ps[0].Line != p.Line || ps[0].GameID != g.ID || ps[0].Rating != 1100 || !ps[0].Added.Equal(t0) {
		t.Fatalf("pool: %+v %v", ps, err)
	}
	if ps, _ := s.PoolPuzzles(ctx, "other", "camelot"); len(ps) != 0 {
		t.Fatalf("another server's pool: %+v", ps)
	}
	if got, err := s.PoolPuzzle(ctx, "c1234"); err != nil || got.Line != p.Line {
		t.Fatalf("by id: %+v %v", got, err)
	}
	if _, err := s.PoolPuzzle(ctx, "c9999"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}
