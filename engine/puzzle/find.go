package puzzle

import (
	"errors"
	"fmt"

	"github.com/tankbot/tankbot/engine"
)

// Options bound a search for a puzzle.
type Options struct {
	MaxDepth int // deepest win looked for, in solver moves (1..MaxDepth)
	// MinDepth skips shallower wins (0 or 1: none skipped): a position
	// with a win within MinDepth-1 moves is refused with ErrShallow
	// before the deeper search.
	MinDepth int
	// Forcing, when above 0, first asks for a forcing win within
	// MaxDepth (the defender never has more than Forcing replies) and
	// refuses the position with ErrNoWin without one: a quick filter
	// before the exact search, for runs looking for deep puzzles.
	Forcing int
	Budget  int64 // positions one proof may visit; 0 means no bound
	// AllowDraft accepts Gungi positions still in the draft (the puzzle is
	// then tagged "draft"). Off, they are skipped.
	AllowDraft bool
	// Strict, above 0, holds the solver's later steps (after a defender
	// reply) to Verify's deeper test already while the line is chosen:
	// the move must be the only one winning within the moves left plus
	// Strict. Among the defender's equally long replies the first whose
	// continuation passes is taken, so a line Verify(pz, Strict, …)
	// would refuse at a later step is not picked while another one passes.
	// The first step keeps the plain test (its deeper check is Verify's,
	// and by far its most expensive part).
	Strict int
}

// Reasons a position is not a puzzle (Find returns them wrapped).
var (
	ErrNoWin    = errors.New("no forced win within the depth")
	ErrShallow  = errors.New("a win faster than the least depth asked")
	ErrSecond   = errors.New("a second solution")
	ErrForced   = errors.New("the solver has a single legal move")
	ErrDraft    = errors.New("the game is still in its draft")
	ErrOver     = errors.New("the game is over")
	ErrNoSearch = errors.New("the game offers no search interface")
)

// drafter is implemented by positions of games with a draft (Gungi).
type drafter interface{ InDraft() bool }

// newSearch returns a prover rooted at pos.
func newSearch(pos engine.Position, budget int64) (*prover, error) {
	if pos.Status().Over() {
		return nil, ErrOver
	}
	sp, ok := pos.(engine.Searchable)
	if !ok {
		return nil, ErrNoSearch
	}
	// Camelot: a side without a move loses, which Over does not see. In
	// Tank Chess a live CLT can always turn and in Gungi a side without a
	// move is checkmated (Over sees it) or stalemated (a draw, never a win).
	game := pos.Rules().Name()
	p := newProver(sp.NewSearcher(), game == "camelot", budget)
	p.gainWins = game == "tank"
	return p, nil
}

// Find looks for a puzzle in pos: the shortest forced win for the side to
// move within opt.MaxDepth of its moves, every solver move the only one that
// wins within the moves left, the defender always choosing the reply that
// resists longest. It does not run the deeper Verify: the generator does.
func Find(pos engine.Position, opt Options) (*Puzzle, error) {
	draft := false
	if d, ok := pos.(drafter); ok && d.InDraft() {
		if !opt.AllowDraft {
			return nil, ErrDraft
		}
		draft = true
	}
	p, err := newSearch(pos, opt.Budget)
	if err != nil {
		return nil, err
	}
	maxD := max(1, min(opt.MaxDepth, MaxDepth))
	if opt.Forcing > 0 {
		ok := p.forcing(maxD, opt.Forcing)
		if p.aborted {
			return nil, ErrBudget
		}
		if !ok {
			return nil, ErrNoWin
		}
		p.nodes, p.killer = 0, [engine.SearchPlies]uint32{}
	}
	if opt.MinDepth > 1 {
		if opt.MinDepth > maxD {
			return nil, ErrNoWin
		}
		if n := p.minWin(opt.MinDepth - 1); n > 0 {
			return nil, ErrShallow
		}
		if p.aborted {
			return nil, ErrBudget
		}
	}
	n := p.minWin(maxD)
	if p.aborted {
		return nil, ErrBudget
	}
	if n == 0 {
		return nil, ErrNoWin
	}
	if p.s.Generate() < 2 {
		return nil, ErrForced
	}
	var line []string
	if err := p.build(pos, n, 0, opt.Strict, &line); err != nil {
		return nil, err
	}
	pz := &Puzzle{Game: pos.Rules().Name(), Depth: n, Position: pos.Encode(), Solution: line}
	if err := describe(pz, draft); err != nil {
		return nil, err
	}
	return pz, nil
}

// build appends the solution from the current node (solver to move, a win
// within n and none faster) to line: the unique winning move, then the
// defender's longest resistance (among equally long ones, the first in the
// generator's order whose continuation is itself unique). extra is how
// much slower another move may not win at this step (0 at the first
// step; Options.Strict at the later ones, strict).
func (p *prover) build(pos engine.Position, n, extra, strict int, line *[]string) error {
	cnt := p.s.Generate()
	win := -1
	for i := range cnt {
		if p.moveWins(i, n+extra) {
			if extra > 0 && !p.moveWins(i, n) {
				if p.aborted {
					return ErrBudget
				}
				return fmt.Errorf("%w at move %d: %s wins within %d", ErrSecond, len(*line)+1, pos.FormatMove(p.s.Move(i)), n+extra)
			}
			if win >= 0 {
				return fmt.Errorf("%w at move %d: %s and %s", ErrSecond, len(*line)+1, pos.FormatMove(p.s.Move(win)), pos.FormatMove(p.s.Move(i)))
			}
			win = i
		}
		if p.aborted {
			return ErrBudget
		}
	}
	if win < 0 {
		return ErrNoWin
	}
	m := p.s.Move(win)
	next, err := pos.Play(m)
	if err != nil {
		return fmt.Errorf("puzzle: the engine refused its own move %s: %w", pos.FormatMove(m), err)
	}
	*line = append(*line, pos.FormatMove(m))
	p.make(win)
	defer p.unmake()
	if next.Status().Over() {
		return nil
	}
	// The defender's replies, longest resistance first.
	cnt = p.s.Generate()
	res := make([]int, cnt)
	longest := -1
	for j := range cnt {
		res[j] = p.resistance(j, n-1)
		if p.aborted {
			return ErrBudget
		}
		longest = max(longest, res[j])
	}
	if longest > n-1 || longest < 0 {
		return fmt.Errorf("puzzle: inconsistent proof (reply resists %d of %d)", longest, n-1)
	}
	var lastErr error
	for j := range cnt {
		if res[j] != longest {
			continue
		}
		r := p.s.Move(j)
		after, err := next.Play(r)
		if err != nil {
			return fmt.Errorf("puzzle: the engine refused its own move %s: %w", next.FormatMove(r), err)
		}
		sub := append(append([]string(nil), *line...), next.FormatMove(r))
		if after.Status().Over() {
			*line = sub
			return nil
		}
		p.make(j)
		err = p.build(after, longest, strict, strict, &sub)
		p.unmake()
		if err == nil {
			*line = sub
			return nil
		}
		if errors.Is(err, ErrBudget) {
			return err
		}
		lastErr = err
	}
	return lastErr
}
