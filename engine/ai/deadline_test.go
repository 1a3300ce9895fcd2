package ai

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// stepClock is a fake clock that moves on by step at every read; the
// search reads it once per checkEvery nodes, so it advances with the work
// done and a test can place the deadline in any phase without sleeping.
type stepClock struct {
	t     time.Time
	step  time.Duration
	reads int
}

func (c *stepClock) now() time.Time {
	c.reads++
	c.t = c.t.Add(c.step)
	return c.t
}

// With a clock that advances by 1 ms per look, a level-5 think with a
// 100 ms cap ends within the cap by that clock in every game: the setup,
// the two-ply pass, every iteration (depth 1 included) and the notation all
// stop at the deadline, and the work done is bounded by the looks.
func TestDeadlineBindsEveryPhase(t *testing.T) {
	for _, r := range games.All() {
		t.Run(r.Name(), func(t *testing.T) {
			p := midgame(t, r)
			c := &stepClock{t: time.Unix(1000, 0), step: time.Millisecond}
			res, err := Think(context.Background(), p, Limits{Level: 5, Nodes: 1 << 40, MoveTime: 100 * time.Millisecond, Now: c.now})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Play(res.Move); err != nil {
				t.Fatalf("illegal move %s: %v", res.Notation, err)
			}
			if res.Elapsed > 100*time.Millisecond {
				t.Errorf("elapsed %v by the fake clock (%d looks), cap 100ms; phases %+v", res.Elapsed, c.reads, res.Phases)
			}
			if limit := int64(c.reads+2) * 2 * checkEvery; res.Nodes > limit {
				t.Errorf("%d nodes for %d looks at the clock: more than %d", res.Nodes, c.reads, limit)
			}
		})
	}
}

// A think request that started before Think was called (Limits.Start)
// counts that time: past the cap, level 5 returns at once with a legal
// move after the cheap check for a win at once (Cut), while level 1, which
// has no two-ply pass, still completes depth 1 to see a win in one.
func TestDeadlineFromStart(t *testing.T) {
	for _, r := range games.All() {
		t.Run(r.Name(), func(t *testing.T) {
			p := midgame(t, r)
			n := int64(len(p.LegalMoves()))
			c := &stepClock{t: time.Unix(1000, 0), step: time.Millisecond}
			start := time.Unix(1000, 0).Add(-2 * time.Second)
			res, err := Think(context.Background(), p, Limits{Level: 5, Nodes: 1 << 40, MoveTime: 1500 * time.Millisecond, Start: start, Now: c.now})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Play(res.Move); err != nil {
				t.Fatalf("illegal move %s: %v", res.Notation, err)
			}
			if !res.Cut || res.Nodes > 2*n+2*checkEvery {
				t.Errorf("level 5 past the cap: cut %v, %d nodes for %d moves", res.Cut, res.Nodes, n)
			}
			res, err = Think(context.Background(), p, Limits{Level: 1, Start: start, Now: c.now})
			if err != nil {
				t.Fatal(err)
			}
			if res.Depth != 1 || res.Cut {
				t.Errorf("level 1 past the cap: depth %d, cut %v; want depth 1 complete", res.Depth, res.Cut)
			}
		})
	}
}

// A clock that never reaches the deadline leaves the node budget to decide:
// the same move and node count as with no cap at all.
func TestFrozenClockDeterministic(t *testing.T) {
	for _, r := range games.All() {
		p := midgame(t, r)
		frozen := func() time.Time { return time.Unix(1000, 0) }
		a, err := Think(context.Background(), p, Limits{Level: 4, Seed: 3, Now: frozen})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Think(context.Background(), p, Limits{Level: 4, Seed: 3, MoveTime: 1 << 60})
		if err != nil {
			t.Fatal(err)
		}
		if a.Notation != b.Notation || a.Nodes != b.Nodes || a.Cut {
			t.Errorf("%s: %s/%d nodes with a frozen clock, %s/%d with no cap (cut %v)", r.Name(), a.Notation, a.Nodes, b.Notation, b.Nodes, a.Cut)
		}
	}
}

// The two-ply pass cut by the deadline halfway keeps every move it did not
// prove losing, the proven-safe ones first: a search cut at depth 1 then
// plays a move checked against the opponent's win at once.
func TestPassCutKeepsSafeFirst(t *testing.T) {
	tested, withProven := 0, 0
	for _, game := range games.Names() {
		for _, tc := range loadTactics(t, game) {
			if tc.kind != "parry" {
				continue
			}
			r, _ := games.Lookup(game)
			p, err := r.Decode(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			root := func(s *search) []scored {
				n := s.s.Generate()
				out := make([]scored, n)
				for i := range n {
					out[i] = scored{i, s.s.Gain(i) * 16}
				}
				sortScored(out)
				return out
			}
			t0 := time.Unix(1000, 0)
			lim := Limits{Level: 5, MoveTime: time.Hour}.resolve()
			full := newSearch(context.Background(), p.(engine.Searchable).NewSearcher(), lim, t0, func() time.Time { return t0 })
			all, _, win := full.immediate(root(full))
			if win >= 0 || full.checked < 4*checkEvery {
				continue // too small to cut halfway at one look per checkEvery nodes
			}
			c := &stepClock{t: t0, step: time.Millisecond}
			cut := newSearch(context.Background(), p.(engine.Searchable).NewSearcher(), lim, t0, c.now)
			cut.deadline = t0.Add(time.Duration(full.checked/checkEvery/2) * time.Millisecond)
			rs := root(cut)
			kept, proven, _ := cut.immediate(rs)
			tested++
			if !cut.cut || cut.checked >= full.checked {
				t.Errorf("%s %s: the pass was not cut (%d of %d nodes)", game, tc.pos, cut.checked, full.checked)
				continue
			}
			safe := map[int]bool{}
			for _, m := range all {
				safe[m.i] = true
			}
			for _, m := range kept[:proven] {
				if !safe[m.i] {
					t.Errorf("%s %s: %s proven safe by the cut pass, not by the full one", game, tc.pos, moveNotation(cut.s, m.i))
				}
			}
			for _, m := range all {
				if !slices.ContainsFunc(kept, func(k scored) bool { return k.i == m.i }) {
					t.Errorf("%s %s: the cut pass dropped the safe move %s", game, tc.pos, moveNotation(cut.s, m.i))
				}
			}
			if proven > 0 {
				withProven++
				if losesAfter(t, p, cut.s.Move(kept[0].i)) {
					t.Errorf("%s %s: the first kept move %s loses at once", game, tc.pos, moveNotation(cut.s, kept[0].i))
				}
			}
		}
	}
	if tested == 0 || withProven == 0 {
		t.Errorf("%d positions cut, %d with a proven-safe move: the test proves nothing", tested, withProven)
	}
}
