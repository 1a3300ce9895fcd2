package puzzle

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// Settings are the generator's per-game search bounds: the depths of the
// wins looked for, the positions one proof may visit and what the deeper
// verification (Verify one move deeper) may cost. The verification bound
// is what keeps the collection test fast: every shipped puzzle verified
// within it when it was made, and verifies within it again (the count is
// the same on every machine).
type Settings struct {
	MinDepth     int
	MaxDepth     int
	Budget       int64
	VerifyBudget int64
	Forcing      int // see Options.Forcing; 0: off
}

// DefaultSettings returns the bounds of the game's depth-1 collection
// runs; deeper runs raise MinDepth and MaxDepth (docs/puzzles.md).
func DefaultSettings(game string) Settings {
	switch game {
	case "tank":
		return Settings{MinDepth: 1, MaxDepth: 2, Budget: 200_000, VerifyBudget: 800_000}
	case "gungi":
		return Settings{MinDepth: 1, MaxDepth: 2, Budget: 200_000, VerifyBudget: 800_000}
	}
	return Settings{MinDepth: 1, MaxDepth: 2, Budget: 50_000, VerifyBudget: 500_000}
}

// DeepSettings returns the bounds of the game's runs for deeper puzzles
// (generate --deep): wins in exactly two moves, positions first filtered
// for a forcing win (the defender never has more than Forcing replies),
// and a verification bound that keeps the collection test fast. Tank Chess
// has no forcing filter (a threatened CLT still leaves the defender
// hundreds of moves), and proving that none of its 300–600 other first
// moves wins within three costs a two-move puzzle hundreds of thousands of
// move lists, so its deep runs find next to nothing (docs/puzzles.md).
func DeepSettings(game string) Settings {
	switch game {
	case "tank":
		return Settings{MinDepth: 2, MaxDepth: 2, Budget: 200_000, VerifyBudget: 100_000}
	case "gungi":
		return Settings{MinDepth: 2, MaxDepth: 2, Budget: 200_000, VerifyBudget: 400_000, Forcing: 4}
	}
	return Settings{MinDepth: 2, MaxDepth: 2, Budget: 200_000, VerifyBudget: 150_000, Forcing: 8}
}

// StrongSettings returns the bounds of the runs over strong self-play
// (generate --ai): wins in one to three moves, every position the ai saw
// a win in proven exactly. The verification bounds keep the collection
// test within minutes: a win in three in Tank Chess whose every other
// first move must be shown not to win in four rarely fits, so its deep
// puzzles are mostly wins in two.
func StrongSettings(game string) Settings {
	switch game {
	case "tank":
		return Settings{MinDepth: 1, MaxDepth: 3, Budget: 300_000, VerifyBudget: 800_000}
	case "gungi":
		return Settings{MinDepth: 1, MaxDepth: 3, Budget: 300_000, VerifyBudget: 800_000}
	}
	return Settings{MinDepth: 1, MaxDepth: 3, Budget: 300_000, VerifyBudget: 800_000}
}

// DeepVerifyBudget bounds the deeper verification of a win in three or
// more: proving that no other first move wins within four costs far
// more than a win in two's check (the shipped Camelot wins in three were
// verified within it when mined).
const DeepVerifyBudget = 3_000_000

// VerifyBound is what the collection test (and the benchmark) allows the
// deeper verification of a shipped puzzle of the game and depth: the
// larger of the game's depth-1 and strong self-play bounds, and for a
// win in three or more DeepVerifyBudget.
func VerifyBound(game string, depth int) int64 {
	b := max(DefaultSettings(game).VerifyBudget, StrongSettings(game).VerifyBudget)
	if depth >= 3 {
		b = max(b, DeepVerifyBudget)
	}
	return b
}

// Accept runs Find on pos and, when it yields a puzzle, the deeper Verify:
// the generator keeps only what passes both.
func Accept(pos engine.Position, set Settings) (*Puzzle, error) {
	pz, err := Find(pos, Options{MinDepth: set.MinDepth, MaxDepth: set.MaxDepth, Budget: set.Budget, Forcing: set.Forcing, Strict: 1})
	if err != nil {
		return nil, err
	}
	if err := Verify(pz, 1, set.VerifyBudget); err != nil {
		return nil, err
	}
	return pz, nil
}

// SelfPlay plays game number k of the self-play run seed in game r and
// returns its positions from the first one past any draft to the last
// ongoing one (the final position is left out). The players are the
// generator's own quick policy over the game's searcher, not engine/ai, so
// the games (and so the collection) depend only on the rules, the engines'
// evaluations and the seed: each takes a win at once seven times out of
// ten; in Tank Chess it avoids, six times out of ten, moves that let the
// opponent win at once; otherwise it mixes the static evaluation's best
// move (Gungi: with a taste for checks) with random ones, which leaves
// tactics on the board. Games go through the variants in turn (game k plays
// variant k mod their number); Gungi's draft follows the engine's plan.
func SelfPlay(r engine.Rules, seed int64, k int, maxPlies int) ([]engine.Position, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(k)*0x9e3779b97f4a7c15+1))
	vs := r.Variants()
	v := vs[k%len(vs)]
	pos, err := r.Start(v.Name)
	if err != nil {
		return nil, err
	}
	// Camelot's generator allocates; looking for the opponent's wins after
	// each move would triple the cost of its games, so its players do not.
	careful := r.Name() == "tank"
	// Gungi's Marshals hide behind many pieces: without a taste for
	// checks the players almost never mate, so its players like checks.
	checks := r.Name() == "gungi"
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
			if m, err = policyMove(pos, rng, careful, checks); err != nil {
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
func policyMove(pos engine.Position, rng *rand.Rand, careful, checks bool) (engine.Move, error) {
	p, err := newSearch(pos, 0)
	if err != nil {
		return nil, err
	}
	p.leafGen = false // a player's choice, not a proof (see Deviations)
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
		mv := s.Move(i)
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
			if checks && givesCheck(pos, mv, me) {
				c.score += 300
			}
			all = append(all, c)
			if careful && !p.win(1) {
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

// givesCheck reports whether playing m in pos makes the position announce a
// check by side me.
func givesCheck(pos engine.Position, m engine.Move, me engine.Side) bool {
	next, err := pos.Play(m)
	if err != nil {
		return false
	}
	for _, a := range next.Announcements() {
		if a.Kind == engine.AnnounceCheck && a.Side == me {
			return true
		}
	}
	return false
}

// Deviation is a position one move away from a game's: what the game would
// have reached had the side to move played Move instead.
type Deviation struct {
	Move     string // the deviating move, in notation
	Position engine.Position
}

// Deviations lists, for the generator, the moves of pos that hand the
// opponent a win at once (blunders a player could really make), and
// quiet tries more moves drawn at random: the positions after them are
// where puzzles hide. The order is shuffled by seed; at most max are
// returned.
func Deviations(pos engine.Position, seed uint64, quiet, max int) ([]Deviation, error) {
	return DeviationsExcept(pos, seed, quiet, max, nil)
}

// DeviationsExcept is Deviations leaving out the blunders skip reports
// (nil: none), before they are drawn.
func DeviationsExcept(pos engine.Position, seed uint64, quiet, max int, skip func(engine.Position, engine.Move) bool) ([]Deviation, error) {
	p, err := newSearch(pos, 0)
	if err != nil {
		return nil, err
	}
	// Choosing candidates needs no proof: Camelot's rare win by leaving the
	// opponent without a move is not worth a generation at every leaf here.
	p.leafGen = false
	s := p.s
	n := s.Generate()
	rng := rand.New(rand.NewPCG(seed, 0xd1b54a32d192ed03))
	var blunders, others []int
	for i := range n {
		skipped := skip != nil && skip(pos, s.Move(i))
		p.make(i)
		if p.s.Over() == engine.Ongoing {
			if p.win(1) {
				if !skipped {
					blunders = append(blunders, i)
				}
			} else {
				others = append(others, i)
			}
		}
		p.unmake()
	}
	rng.Shuffle(len(blunders), func(a, b int) { blunders[a], blunders[b] = blunders[b], blunders[a] })
	rng.Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
	pick := append(blunders[:min(len(blunders), max)], others[:min(len(others), quiet)]...)
	out := make([]Deviation, 0, len(pick))
	for _, i := range pick {
		m := s.Move(i)
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("puzzle: the engine refused its own move %s: %w", pos.FormatMove(m), err)
		}
		if !next.Status().Over() {
			out = append(out, Deviation{Move: pos.FormatMove(m), Position: next})
		}
	}
	return out, nil
}

// DeepDeviations lists, for runs looking for deep puzzles, the moves of
// pos after which the opponent has no win at once but a forcing win (see
// Options.Forcing) within depth moves: blunders a player could really
// make, one step less obvious than those Deviations finds. The order is
// shuffled by seed; at most max are returned.
func DeepDeviations(pos engine.Position, seed uint64, depth, forcing, max int, budget int64) ([]Deviation, error) {
	p, err := newSearch(pos, budget)
	if err != nil {
		return nil, err
	}
	s := p.s
	n := p.generate()
	var picks []int
	for i := range n {
		p.make(i)
		if p.s.Over() == engine.Ongoing && !p.win(1) && !p.aborted && p.forcing(depth, forcing) {
			picks = append(picks, i)
		}
		p.unmake()
		if p.aborted {
			break
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x94d049bb133111eb))
	rng.Shuffle(len(picks), func(a, b int) { picks[a], picks[b] = picks[b], picks[a] })
	out := make([]Deviation, 0, min(max, len(picks)))
	for _, i := range picks[:min(max, len(picks))] {
		m := s.Move(i)
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("puzzle: the engine refused its own move %s: %w", pos.FormatMove(m), err)
		}
		out = append(out, Deviation{Move: pos.FormatMove(m), Position: next})
	}
	return out, nil
}

// MovesCommander reports whether m moves the side's commander (Tank
// Chess: its CLT). A blunder that drives the commander into fire makes a
// puzzle whose answer is "shoot the piece that just arrived", the
// pattern the earlier collections were full of; runs can leave such
// blunders out (generate --no-commander-blunders).
func MovesCommander(pos engine.Position, m engine.Move) bool {
	tp, ok := pos.(*tank.Position)
	tm, ok2 := m.(tank.Move)
	return ok && ok2 && tp.At(tm.From).Piece.Kind == tank.CLT
}
