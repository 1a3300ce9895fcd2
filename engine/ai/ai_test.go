package ai

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/gungi"
)

// midgame returns each game's position after 10 seeded ai:1 plies.
func midgame(t testing.TB, r engine.Rules) engine.Position {
	variant := ""
	if r.Name() == "gungi" {
		variant = "quick"
	}
	p, err := r.Start(variant)
	if err != nil {
		t.Fatal(err)
	}
	for ply := range 10 {
		// No time cap: on a loaded machine level 1's 0.5 s would change
		// the moves, and the benchmarks' positions with them.
		res, err := Think(context.Background(), p, Limits{Level: 1, Seed: int64(ply), MoveTime: 1 << 40})
		if err != nil {
			t.Fatal(err)
		}
		if p, err = p.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// Same seed and node budget, same move and node count, also when searches
// run concurrently (each Think has its own tables).
func TestDeterministicAndConcurrent(t *testing.T) {
	for _, r := range games.All() {
		t.Run(r.Name(), func(t *testing.T) {
			p := midgame(t, r)
			lim := Limits{Level: 4, Nodes: 1500, Seed: 11, MoveTime: time.Hour}
			want, err := Think(context.Background(), p, lim)
			if err != nil {
				t.Fatal(err)
			}
			if want.Depth < 1 || want.Nodes < 1 || len(want.PV) == 0 || want.PV[0] != want.Notation {
				t.Errorf("result %+v", want)
			}
			if _, err := p.Play(want.Move); err != nil {
				t.Fatalf("AI move %s illegal: %v", want.Notation, err)
			}
			var wg sync.WaitGroup
			got := make([]Result, 3)
			for i := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i], _ = Think(context.Background(), p, lim)
				}()
			}
			wg.Wait()
			for _, g := range got {
				if g.Notation != want.Notation || g.Nodes != want.Nodes || g.Score != want.Score {
					t.Errorf("got %s (%d nodes, %d), want %s (%d nodes, %d)", g.Notation, g.Nodes, g.Score, want.Notation, want.Nodes, want.Score)
				}
			}
		})
	}
}

func TestCancelledAndOver(t *testing.T) {
	p := midgame(t, games.All()[0])
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Think(ctx, p, Limits{Level: 5}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
	// A finished game: play the win of the first tank tactic.
	for _, tc := range loadTactics(t, "tank") {
		if tc.kind != "win" {
			continue
		}
		q, _ := games.All()[0].Decode(tc.pos)
		res, err := Think(context.Background(), q, Limits{Level: 3})
		if err != nil {
			t.Fatal(err)
		}
		over, _ := q.Play(res.Move)
		if _, err := Think(context.Background(), over, Limits{Level: 3}); !errors.Is(err, ErrGameOver) {
			t.Errorf("finished game: %v", err)
		}
		break
	}
}

func TestLimitsResolve(t *testing.T) {
	for l := 1; l <= Levels; l++ {
		lim := LevelLimits(l)
		if lim.Level != l || lim.Nodes <= 0 || lim.MoveTime <= 0 || lim.MoveTime > 2*time.Second {
			t.Errorf("level %d: %+v", l, lim)
		}
		if l > 1 && lim.Nodes <= LevelLimits(l-1).Nodes {
			t.Errorf("level %d has no more nodes than level %d", l, l-1)
		}
	}
	r := Limits{Level: 5, ClockLeft: 30 * time.Second}.resolve()
	if r.MoveTime != time.Second {
		t.Errorf("30 s left: move time %v, want 1 s", r.MoveTime)
	}
	if r := (Limits{Nodes: 7}).resolve(); r.Level != 3 || r.Nodes != 7 {
		t.Errorf("defaults: %+v", r)
	}
}

// The AI drafts its own army: the Marshal first, a full army of its plan's
// pieces, different armies for different seeds, then ready; the game goes
// on to normal play.
func TestGungiDraft(t *testing.T) {
	armies := map[string]bool{}
	for seed := range int64(4) {
		p, err := gungi.Rules.Start("draft")
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ; ply++ {
			gp := p.(*gungi.Position)
			if !gp.InDraft() {
				break
			}
			if ply > 80 {
				t.Fatal("draft does not end")
			}
			res, err := Think(context.Background(), p, Limits{Level: 3, Seed: seed*1000 + int64(ply)})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Planned {
				t.Errorf("draft move %s not planned", res.Notation)
			}
			if ply < 2 && gungi.Rules.Name() == "gungi" && res.Notation[0] != 'M' {
				t.Errorf("first placement %s is not the Marshal", res.Notation)
			}
			if p, err = p.Play(res.Move); err != nil {
				t.Fatal(err)
			}
		}
		gp := p.(*gungi.Position)
		for _, s := range []engine.Side{engine.White, engine.Black} {
			if n := gp.OnBoard(s); n < 20 || n > gungi.MaxOnBoard {
				t.Errorf("seed %d: %s drafted %d pieces", seed, s, n)
			}
		}
		armies[p.Encode()] = true
		if _, err := Think(context.Background(), p, Limits{Level: 2, Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	if len(armies) < 3 {
		t.Errorf("only %d different drafts from 4 seeds", len(armies))
	}
}

// The search stops early enough for Think to keep its time cap: a fifth of
// the cap (at least 50 ms, at most half of it) is left for the caller and
// for a loaded machine.
func TestSearchDeadlineMargin(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, c := range []struct{ cap, want time.Duration }{
		{1500 * time.Millisecond, 1200 * time.Millisecond},
		{100 * time.Millisecond, 50 * time.Millisecond},
		{10 * time.Millisecond, 5 * time.Millisecond},
		{10 * time.Second, 8 * time.Second},
	} {
		if got := searchDeadline(t0, c.cap).Sub(t0); got != c.want {
			t.Errorf("cap %v: search until %v, want %v", c.cap, got, c.want)
		}
	}
}
