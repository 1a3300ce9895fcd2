package puzzle

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/tankbot/tankbot/engine"
)

// Settings are the generator's per-game search bounds: the deepest win
// looked for and the positions one proof may visit. Tank Chess has hundreds
// of moves a turn, so it searches shallower than Camelot.
type Settings struct {
	MaxDepth int
	Budget   int64
}

// DefaultSettings returns the bounds the shipped collection was made with.
func DefaultSettings(game string) Settings {
	switch game {
	case "tank":
		return Settings{MaxDepth: 2, Budget: 200_000}
	case "gungi":
		return Settings{MaxDepth: 2, Budget: 200_000}
	}
	return Settings{MaxDepth: 2, Budget: 50_000}
}

// Accept runs Find on pos and, when it yields a puzzle, the deeper Verify:
// the generator keeps only what passes both.
func Accept(pos engine.Position, set Settings) (*Puzzle, error) {
	pz, err := Find(pos, Options{MaxDepth: set.MaxDepth, Budget: set.Budget})
	if err != nil {
		return nil, err
	}
	if err := Verify(pz, 1, 4*set.Budget); err != nil {
		return nil, err
	}
	return pz, nil
}

// SelfPlay plays game number k of the self-play run seed in game r and
// returns its positions from the first one past any draft to the last
// ongoing one (the final position is left out). The players are the
// generator's own quick policy over the game's searcher, not engine/ai, so
// the games (and so the collection) depend only on the rules and the seed:
// each takes a win at once seven times out of ten, six times out of ten
// avoids moves that let the opponent win at once, and otherwise mixes the static evaluation's
// best move with random ones, which leaves tactics on the board.
func SelfPlay(r engine.Rules, seed int64, k int, maxPlies int) ([]engine.Position, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(k)*0x9e3779b97f4a7c15+1))
	vs := r.Variants()
	v := vs[k%len(vs)]
	pos, err := r.Start(v.Name)
	if err != nil {
		return nil, err
	}
	var out []engine.Position
	for ply := 0; ply < maxPlies && !pos.Status().Over(); ply++ {
		var m engine.Move
		if d, ok := pos.(drafter); ok && d.InDraft() {
			pl, ok := pos.(engine.Planner)
			if !ok {
				return nil, fmt.Errorf("puzzle: %s draft without a plan", r.Name())
			}
			if m, ok = pl.PlanMove(rng.Int64()); !ok {
				return nil, fmt.Errorf("puzzle: %s draft plan gave no move", r.Name())
			}
		} else {
			out = append(out, pos)
			if m, err = policyMove(pos, rng); err != nil {
				return nil, err
			}
		}
		if pos, err = pos.Play(m); err != nil {
			return nil, fmt.Errorf("puzzle: self-play move refused: %w", err)
		}
	}
	return out, nil
}

// policyMove is the self-play player's choice in pos.
func policyMove(pos engine.Position, rng *rand.Rand) (engine.Move, error) {
	p, err := newSearch(pos, 0)
	if err != nil {
		return nil, err
	}
	s := p.s
	me := s.Turn()
	n := s.Generate()
	if n == 0 {
		return nil, errors.New("puzzle: self-play position without moves")
	}
	type cand struct{ i, score int }
	var wins, safe, all []cand
	for i := range n {
		gain := s.Gain(i)
		p.make(i)
		r := p.ended()
		var c cand
		switch {
		case wonBy(r, me):
			wins = append(wins, cand{i: i})
		case r != engine.Ongoing:
			// a draw or a loss: kept only among "all"
			c = cand{i, -1 << 20}
			all = append(all, c)
		default:
			c = cand{i, gain - s.Evaluate() + rng.IntN(61) - 30}
			all = append(all, c)
			if !p.win(1) {
				safe = append(safe, c)
			}
		}
		p.unmake()
	}
	pick := func(cs []cand) engine.Move {
		if rng.IntN(10) < 6 {
			b := cs[0]
			for _, c := range cs[1:] {
				if c.score > b.score {
					b = c
				}
			}
			return s.Move(b.i)
		}
		return s.Move(cs[rng.IntN(len(cs))].i)
	}
	switch {
	case len(wins) > 0 && rng.IntN(10) < 7:
		return s.Move(wins[rng.IntN(len(wins))].i), nil
	case len(safe) > 0 && rng.IntN(10) < 6:
		return pick(safe), nil
	case len(all) > 0:
		return pick(all), nil
	}
	return s.Move(wins[0].i), nil
}
