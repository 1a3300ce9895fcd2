package puzzle

import (
	"fmt"
	"math/rand/v2"

	"github.com/tankbot/tankbot/engine"
)

// ShortestWin is the miner's cheap screen before a proof: the shortest
// forced win of the side to move within max of its moves (0: none seen),
// searched within budget moves and move lists. Running out of budget
// answers 0: a screen may miss a win, never invent one (the candidate
// still goes through Accept).
func ShortestWin(pos engine.Position, max int, budget int64) int {
	if pos.Status().Over() {
		return 0
	}
	p, err := newSearch(pos, budget)
	if err != nil {
		return 0
	}
	n := p.minWin(max)
	if p.aborted {
		return 0
	}
	return n
}

// ShortestForcingWin is ShortestWin whose deepest step tries only
// forcing first moves: wins within max-1 are looked for in full, a win in
// exactly max only through a first move after which the mover announces
// a check or an escape (engine.Announcement). A full screen spends its
// budget proving that hundreds of quiet first moves do not win
// (docs/puzzles.md); this one spends it on the few forcing ones, and
// misses a win that starts with a quiet move. Like ShortestWin it may
// miss a win, never invent one.
func ShortestForcingWin(pos engine.Position, max int, budget int64) int {
	if pos.Status().Over() || max < 1 {
		return 0
	}
	if max == 1 {
		return ShortestWin(pos, 1, budget)
	}
	p, err := newSearch(pos, budget)
	if err != nil {
		return 0
	}
	if n := p.minWin(max - 1); n > 0 || p.aborted {
		if p.aborted {
			return 0
		}
		return n
	}
	me := p.s.Turn()
	cnt := p.generate()
	for i := range cnt {
		next, err := pos.Play(p.s.Move(i))
		if err != nil || next.Status().Over() || !announcesThreat(next, me) {
			continue
		}
		p.make(i)
		ok := p.defend(me, max-1)
		p.unmake()
		if p.aborted {
			return 0
		}
		if ok {
			return max
		}
		// the defence generated the children's lists; this node's is
		// generated again (the same moves in the same order)
		p.generate()
	}
	return 0
}

// announcesThreat reports whether pos, just reached by a move of me,
// announces a check or an escape by me.
func announcesThreat(pos engine.Position, me engine.Side) bool {
	for _, a := range pos.Announcements() {
		if a.Side == me && (a.Kind == engine.AnnounceCheck || a.Kind == engine.AnnounceEscape) {
			return true
		}
	}
	return false
}

// Screener is a screen's search: the shortest win of the side to move
// within max moves it sees within budget (ShortestWin or
// ShortestForcingWin).
type Screener func(pos engine.Position, max int, budget int64) int

// Screened is a deviation that passed the screen, with the shortest win
// the screen saw for the opponent.
type Screened struct {
	Deviation
	Win int
}

// ScreenDeviations tries up to tries moves of pos drawn at random by
// seed (never a move that ends the game) and returns those after which
// the opponent has a forced win of at least minDepth and at most maxDepth
// moves, as ShortestWin sees it within budget: positions one plausible
// mistake away from the game's, where deep puzzles hide.
func ScreenDeviations(pos engine.Position, seed uint64, tries, minDepth, maxDepth int, budget int64) ([]Screened, error) {
	return ScreenDeviationsCommander(pos, seed, tries, 0, minDepth, maxDepth, budget)
}

// ScreenDeviationsCommander is ScreenDeviations that also tries up to
// commander moves of the mover's commander (MovesCommander: Tank Chess's
// CLT), drawn from the same shuffle, besides the tries moves of other
// pieces. A random move rarely hands over a win in two; a commander
// stepping next to a second line of fire often does (measured in
// docs/puzzles.md). With commander 0 the draw is ScreenDeviations'.
func ScreenDeviationsCommander(pos engine.Position, seed uint64, tries, commander, minDepth, maxDepth int, budget int64) ([]Screened, error) {
	return ScreenDeviationsWith(ShortestWin, pos, seed, tries, commander, minDepth, maxDepth, budget)
}

// ScreenDeviationsWith is ScreenDeviationsCommander with the screen's
// search given.
func ScreenDeviationsWith(screen Screener, pos engine.Position, seed uint64, tries, commander, minDepth, maxDepth int, budget int64) ([]Screened, error) {
	p, err := newSearch(pos, 0)
	if err != nil {
		return nil, err
	}
	s := p.s
	n := s.Generate()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	rng.Shuffle(n, func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
	pick := idx[:min(n, tries)]
	if commander > 0 {
		pick = nil
		others := 0
		for _, i := range idx {
			if MovesCommander(pos, s.Move(i)) {
				if commander > 0 {
					pick = append(pick, i)
					commander--
				}
			} else if others < tries {
				pick = append(pick, i)
				others++
			}
		}
	}
	var out []Screened
	for _, i := range pick {
		m := s.Move(i)
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("puzzle: the engine refused its own move %s: %w", pos.FormatMove(m), err)
		}
		if next.Status().Over() {
			continue
		}
		if w := screen(next, maxDepth, budget); w >= minDepth {
			out = append(out, Screened{Deviation{Move: pos.FormatMove(m), Position: next}, w})
		}
	}
	return out, nil
}
