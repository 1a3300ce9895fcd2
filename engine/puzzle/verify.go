package puzzle

import "fmt"

// Verify proves a puzzle again from scratch, with its own tables, and
// searches one solver move deeper than the generator's uniqueness test:
//
//   - the position is ongoing (and past any draft unless tagged "draft");
//   - the side to move has no win within Depth-1 of its moves;
//   - at each solver step with r moves left, the solution's move wins
//     within r and no other move wins within r+extra (extra >= 0; the
//     generator and the collection test use ShippedExtra's): a faster
//     or equally fast second solution, or one a move slower, fails;
//   - each defender reply resists longest: the solver's move before it
//     was proven to win within r against every reply, and after this one
//     the win still needs r-1 moves, so no reply holds out longer;
//   - the line ends with the solver's winning move.
//
// budget bounds the whole verification, in moves made and move lists
// generated (0: none); running out is an error. The count is the same on
// every machine, so a puzzle the generator verified within a budget
// verifies within it again.
func Verify(pz *Puzzle, extra int, budget int64) error {
	_, err := VerifyCost(pz, extra, budget)
	return err
}

// VerifyCost is Verify that also returns what the verification cost, in
// moves made and move lists generated (the unit of budgets).
func VerifyCost(pz *Puzzle, extra int, budget int64) (cost int64, err error) {
	return VerifySteps(pz, extra, extra, budget)
}

// ShippedExtra is how much deeper than its depth the collection test
// checks a shipped puzzle of game and depth (Verify's extra): first at
// its first solver step, later at the others. Everywhere one move
// deeper, except at the first step of a Tank Chess win in three or
// more: showing that none of its 300–700 other first moves wins within
// four costs tens of millions of move lists (40 million, two and a half
// minutes, for the first one measured), so the test checks that step within
// its own depth — no other first move wins within three — while the
// generator, which runs once, checks it one move deeper like every
// other step (docs/puzzles.md).
func ShippedExtra(game string, depth int) (first, later int) {
	if game == "tank" && depth >= 3 {
		return 0, 1
	}
	return 1, 1
}

// VerifyShipped is Verify with the deeper tests of ShippedExtra: what
// the collection test holds every shipped puzzle to.
func VerifyShipped(pz *Puzzle, budget int64) (int64, error) {
	first, later := ShippedExtra(pz.Game, pz.Depth)
	return VerifySteps(pz, first, later, budget)
}

// VerifySteps is VerifyCost with the first solver step's deeper test
// apart: first there, extra at the later steps.
func VerifySteps(pz *Puzzle, first, extra int, budget int64) (cost int64, err error) {
	var p *prover
	defer func() {
		if p != nil {
			cost = p.nodes
		}
	}()
	pos, err := pz.Decode()
	if err != nil {
		return 0, err
	}
	if d, ok := pos.(drafter); ok && d.InDraft() && !hasTheme(pz, "draft") {
		return 0, fmt.Errorf("puzzle %s: %w", pz.ID, ErrDraft)
	}
	if p, err = newSearch(pos, 0); err != nil {
		return 0, fmt.Errorf("puzzle %s: %w", pz.ID, err)
	}
	if len(pz.Solution) != 2*pz.Depth-1 {
		return 0, fmt.Errorf("puzzle %s: %d moves for depth %d", pz.ID, len(pz.Solution), pz.Depth)
	}
	p.budget = budget
	if pz.Depth > 1 && p.win(pz.Depth-1) {
		return 0, fmt.Errorf("puzzle %s: a win within %d moves exists", pz.ID, pz.Depth-1)
	}
	if p.aborted {
		return 0, fmt.Errorf("puzzle %s: %w", pz.ID, ErrBudget)
	}
	cur := pos
	made := 0
	defer func() {
		for ; made > 0; made-- {
			p.unmake()
		}
	}()
	for k := 0; k < len(pz.Solution); k++ {
		left := pz.Depth - k/2
		note := pz.Solution[k]
		idx, err := indexOf(p.s, cur, note)
		if err != nil {
			return 0, fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, err)
		}
		n := p.generate()
		if k%2 == 0 {
			if !p.moveWins(idx, left) {
				if p.aborted {
					return 0, fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, ErrBudget)
				}
				return 0, fmt.Errorf("puzzle %s move %d: %s does not win within %d", pz.ID, k+1, note, left)
			}
			deeper := extra
			if k == 0 {
				deeper = first
			}
			for i := range n {
				if i != idx && p.moveWins(i, left+deeper) {
					return 0, fmt.Errorf("puzzle %s move %d: second solution %s wins within %d", pz.ID, k+1, cur.FormatMove(p.s.Move(i)), left+deeper)
				}
				if p.aborted {
					return 0, fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, ErrBudget)
				}
			}
		} else if mine := p.resistance(idx, left-1); mine != left-1 && !p.aborted {
			return 0, fmt.Errorf("puzzle %s move %d: after %s the win needs %d moves, not %d", pz.ID, k+1, note, mine, left-1)
		}
		if p.aborted {
			return 0, fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, ErrBudget)
		}
		next, err := cur.Play(p.s.Move(idx))
		if err != nil {
			return 0, fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, err)
		}
		p.make(idx)
		made++
		cur = next
		if o := cur.Status(); o.Over() {
			if k != len(pz.Solution)-1 {
				return 0, fmt.Errorf("puzzle %s: the game ends at move %d of %d", pz.ID, k+1, len(pz.Solution))
			}
			if w, ok := o.Winner(); !ok || w != pos.Turn() {
				return 0, fmt.Errorf("puzzle %s: the line ends %s, not a win for the solver", pz.ID, o.Result)
			}
			return 0, nil
		}
	}
	return 0, fmt.Errorf("puzzle %s: the solution does not end the game", pz.ID)
}

func hasTheme(pz *Puzzle, t string) bool {
	for _, x := range pz.Themes {
		if x == t {
			return true
		}
	}
	return false
}
