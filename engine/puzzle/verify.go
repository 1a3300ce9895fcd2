package puzzle

import "fmt"

// Verify proves a puzzle again from scratch, with its own tables, and
// searches one solver move deeper than the generator's uniqueness test:
//
//   - the position is ongoing (and past any draft unless tagged "draft");
//   - the side to move has no win within Depth-1 of its moves;
//   - at each solver step with r moves left, the solution's move wins
//     within r and no other move wins within r+extra (extra >= 0; the
//     generator and the test use 1): a faster or equally fast second
//     solution, or one a move slower, fails;
//   - each defender reply resists longest: no reply holds out longer;
//   - the line ends with the solver's winning move.
//
// budget bounds each step's search (0: none); running out is an error.
func Verify(pz *Puzzle, extra int, budget int64) error {
	pos, err := pz.Decode()
	if err != nil {
		return err
	}
	if d, ok := pos.(drafter); ok && d.InDraft() && !hasTheme(pz, "draft") {
		return fmt.Errorf("puzzle %s: %w", pz.ID, ErrDraft)
	}
	p, err := newSearch(pos, 0)
	if err != nil {
		return fmt.Errorf("puzzle %s: %w", pz.ID, err)
	}
	if len(pz.Solution) != 2*pz.Depth-1 {
		return fmt.Errorf("puzzle %s: %d moves for depth %d", pz.ID, len(pz.Solution), pz.Depth)
	}
	p.budget = budget
	if pz.Depth > 1 && p.win(pz.Depth-1) {
		return fmt.Errorf("puzzle %s: a win within %d moves exists", pz.ID, pz.Depth-1)
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
			return fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, err)
		}
		n := p.s.Generate()
		p.budget = p.nodes + budget
		if budget == 0 {
			p.budget = 0
		}
		if k%2 == 0 {
			if !p.moveWins(idx, left) {
				return fmt.Errorf("puzzle %s move %d: %s does not win within %d", pz.ID, k+1, note, left)
			}
			for i := range n {
				if i != idx && p.moveWins(i, left+extra) {
					return fmt.Errorf("puzzle %s move %d: second solution %s wins within %d", pz.ID, k+1, cur.FormatMove(p.s.Move(i)), left+extra)
				}
				if p.aborted {
					return fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, ErrBudget)
				}
			}
		} else {
			mine := p.resistance(idx, left-1)
			for j := range n {
				if j != idx && p.resistance(j, left-1) > mine {
					return fmt.Errorf("puzzle %s move %d: %s resists longer than %s", pz.ID, k+1, cur.FormatMove(p.s.Move(j)), note)
				}
				if p.aborted {
					return fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, ErrBudget)
				}
			}
			if mine != left-1 {
				return fmt.Errorf("puzzle %s move %d: after %s the win needs %d moves, not %d", pz.ID, k+1, note, mine, left-1)
			}
		}
		if p.aborted {
			return fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, ErrBudget)
		}
		next, err := cur.Play(p.s.Move(idx))
		if err != nil {
			return fmt.Errorf("puzzle %s move %d: %w", pz.ID, k+1, err)
		}
		p.make(idx)
		made++
		cur = next
		if o := cur.Status(); o.Over() {
			if k != len(pz.Solution)-1 {
				return fmt.Errorf("puzzle %s: the game ends at move %d of %d", pz.ID, k+1, len(pz.Solution))
			}
			if w, ok := o.Winner(); !ok || w != pos.Turn() {
				return fmt.Errorf("puzzle %s: the line ends %s, not a win for the solver", pz.ID, o.Result)
			}
			return nil
		}
	}
	return fmt.Errorf("puzzle %s: the solution does not end the game", pz.ID)
}

func hasTheme(pz *Puzzle, t string) bool {
	for _, x := range pz.Themes {
		if x == t {
			return true
		}
	}
	return false
}
