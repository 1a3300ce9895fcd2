// Package puzzle finds, verifies and serves tactical puzzles for every game
// tankbot plays: positions where the side to move has a forced win within a
// few of its own moves, and every move of the solution is the only one that
// wins that fast. It is pure (no I/O): the proofs run over each game's own
// move generator through engine.Searcher, so there is no second copy of any
// rule here.
package puzzle

import (
	"errors"

	"github.com/tankbot/tankbot/engine"
)

// MaxDepth is the deepest puzzle, in solver moves.
const MaxDepth = 5

// ErrBudget is returned when a proof needs more positions than its budget:
// the question stays open and the position is not used.
var ErrBudget = errors.New("puzzle: search budget exhausted")

// prover answers "does the side to move win within n of its own moves?"
// exactly: an AND/OR search where the solver needs one winning move and
// every defender reply must be answered. A transposition table keeps, per
// position with the solver to move, the shortest proven win and the longest
// proven non-win (win within n is monotone in n).
type prover struct {
	s       engine.Searcher
	tt      map[uint64]ttEntry
	nodes   int64
	budget  int64 // 0: none
	aborted bool
	// leafGen: a game where a side may be left without a move that Over
	// does not see (Camelot); the leaves must then generate.
	leafGen bool
	// gainWins: the game's Gain marks every move that ends the game in
	// the mover's favour with at least winGain (Tank Chess: an escape or a
	// shot at the CLT), so only those need playing to find a win in one.
	gainWins bool
	ply      int
	killer   [engine.SearchPlies]uint32
	order    [engine.SearchPlies][]ordered
	quiet    [engine.SearchPlies][]ordered
}

// winGain is the Gain the games give a move that wins at once.
const winGain = 10000

type ttEntry struct {
	win   int8 // shortest win proven (0: none)
	noWin int8 // longest depth proven not to win
}

type ordered struct {
	i     int
	score int
}

func newProver(s engine.Searcher, leafGen bool, budget int64) *prover {
	return &prover{s: s, tt: make(map[uint64]ttEntry, 1024), leafGen: leafGen, budget: budget}
}

func wonBy(r engine.Result, side engine.Side) bool {
	return (r == engine.WhiteWins && side == engine.White) || (r == engine.BlackWins && side == engine.Black)
}

// The budget counts made moves and generated move lists: the two costs of
// a proof (a Camelot leaf generates as often as it makes).
func (p *prover) count() {
	p.nodes++
	if p.budget > 0 && p.nodes > p.budget {
		p.aborted = true
	}
}

func (p *prover) make(i int) {
	p.count()
	p.s.Make(i)
	p.ply++
}

func (p *prover) generate() int {
	p.count()
	return p.s.Generate()
}

func (p *prover) unmake() {
	p.s.Unmake()
	p.ply--
}

// ended is the result at the current node as the board decides it,
// counting a side to move without a move when the game needs generation to
// see it.
func (p *prover) ended() engine.Result {
	r := p.s.Over()
	if r == engine.Ongoing && p.leafGen && p.generate() == 0 {
		r = p.s.NoMoves()
	}
	return r
}

// sorted orders the moves of the current node: the killer, then the moves
// with a gain (captures, wins) by gain, then the quiet ones in the
// generator's order. Only the few moves with a gain are sorted: sorting
// hundreds of Tank Chess moves at every node cost more than the search.
func (p *prover) sorted(n int) []ordered {
	ms := p.order[p.ply][:0]
	qs := p.quiet[p.ply][:0]
	k := p.killer[p.ply]
	for i := range n {
		sc := p.s.Gain(i)
		if k != 0 && p.s.Key(i) == k {
			sc = 1 << 30
		}
		if sc > 0 {
			// insertion keeps ms sorted by score, stable
			ms = append(ms, ordered{i, sc})
			for j := len(ms) - 1; j > 0 && ms[j-1].score < sc; j-- {
				ms[j], ms[j-1] = ms[j-1], ms[j]
			}
		} else {
			qs = append(qs, ordered{i, sc})
		}
	}
	ms = append(ms, qs...)
	p.order[p.ply], p.quiet[p.ply] = ms, qs
	return ms
}

// win reports whether the side to move (ongoing game) wins within n of its
// own moves.
func (p *prover) win(n int) bool {
	if n <= 0 || p.aborted {
		return false
	}
	h := p.s.Hash()
	e := p.tt[h]
	if e.win > 0 && int(e.win) <= n {
		return true
	}
	if int(e.noWin) >= n {
		return false
	}
	me := p.s.Turn()
	cnt := p.generate()
	if p.immediate(me, cnt) {
		p.store(h, 1, true)
		return true
	}
	if p.aborted {
		return false
	}
	if n == 1 {
		p.store(h, 1, false)
		return false
	}
	ms := p.sorted(cnt)
	for k := range ms {
		i := ms[k].i
		p.make(i)
		ok := false
		if p.s.Over() == engine.Ongoing {
			ok = p.defend(me, n-1)
		}
		p.unmake()
		if p.aborted {
			return false
		}
		if ok {
			p.killer[p.ply] = p.s.Key(i)
			p.store(h, n, true)
			return true
		}
	}
	p.store(h, n, false)
	return false
}

// immediate reports whether one of the cnt generated moves wins at once
// for me (and makes it the killer). Immediate wins are tried first: cheap,
// and they make most proofs short. In Tank Chess only moves with a winning
// gain can; elsewhere every move is played and the board asked, the
// board's own outcome first and a leaf generation (Camelot's side left
// without a move) only when no move wins on the board.
func (p *prover) immediate(me engine.Side, cnt int) bool {
	found := func(i int) bool {
		p.killer[p.ply] = p.s.Key(i)
		return true
	}
	if p.gainWins {
		for i := range cnt {
			if p.s.Gain(i) < winGain {
				continue
			}
			p.make(i)
			won := wonBy(p.s.Over(), me)
			p.unmake()
			if won {
				return found(i)
			}
		}
		return false
	}
	// The killer first: a refutation often repeats.
	k := p.killer[p.ply]
	for i := range cnt {
		if k == 0 || p.s.Key(i) != k {
			continue
		}
		p.make(i)
		won := wonBy(p.ended(), me)
		p.unmake()
		if won {
			return found(i)
		}
	}
	for i := range cnt {
		p.make(i)
		won := wonBy(p.s.Over(), me)
		p.unmake()
		if won {
			return found(i)
		}
	}
	if !p.leafGen {
		return false
	}
	for i := range cnt {
		p.make(i)
		won := p.s.Over() == engine.Ongoing && p.generate() == 0 && wonBy(p.s.NoMoves(), me)
		p.unmake()
		if won {
			return found(i)
		}
		if p.aborted {
			return false
		}
	}
	return false
}

// defend reports whether every reply of the defender (to move, game
// ongoing) leaves me a win within n of my moves.
func (p *prover) defend(me engine.Side, n int) bool {
	cnt := p.generate()
	if cnt == 0 {
		return wonBy(p.s.NoMoves(), me)
	}
	ms := p.sorted(cnt)
	for k := range ms {
		i := ms[k].i
		p.make(i)
		var ok bool
		if r := p.s.Over(); r != engine.Ongoing {
			ok = wonBy(r, me)
		} else {
			ok = p.win(n)
		}
		p.unmake()
		if p.aborted {
			return false
		}
		if !ok {
			p.killer[p.ply] = p.s.Key(i)
			return false
		}
	}
	return true
}

func (p *prover) store(h uint64, n int, won bool) {
	e := p.tt[h]
	if won {
		if e.win == 0 || int(e.win) > n {
			e.win = int8(n)
		}
	} else if int(e.noWin) < n {
		e.noWin = int8(n)
	}
	p.tt[h] = e
}

// minWin is the smallest n in 1..max with a win within n moves, 0 if none.
func (p *prover) minWin(max int) int {
	for n := 1; n <= max; n++ {
		if p.win(n) {
			return n
		}
		if p.aborted {
			return 0
		}
	}
	return 0
}

// moveWins reports whether move i of the current node (solver to move)
// wins within n: at once, or against every reply within n-1.
func (p *prover) moveWins(i, n int) bool {
	me := p.s.Turn()
	p.make(i)
	defer p.unmake()
	if r := p.ended(); r != engine.Ongoing {
		return wonBy(r, me)
	}
	return n > 1 && p.defend(me, n-1)
}

// resistance is, for the defender to move after a solver move, the number
// of solver moves the win still needs after reply j: 0 when the reply ends
// the game for the solver, 1..max, or max+1 when it does not lose within
// max.
func (p *prover) resistance(j, max int) int {
	me := p.s.Turn().Opponent()
	p.make(j)
	defer p.unmake()
	if r := p.s.Over(); r != engine.Ongoing {
		if wonBy(r, me) {
			return 0
		}
		return max + 1
	}
	for n := 1; n <= max; n++ {
		if p.win(n) {
			return n
		}
	}
	return max + 1
}

// forcing reports whether the side to move wins within n of its moves by a
// forcing line: after each of its moves but the last, the defender has at
// most k replies (a check, a capture the defender must make). It is the
// generator's quick filter for deep puzzles: a true answer is a real
// forced win (every reply was searched), a false one proves nothing, so a
// candidate still goes through the exact search.
func (p *prover) forcing(n, k int) bool {
	me := p.s.Turn()
	cnt := p.generate()
	if p.immediate(me, cnt) {
		return true
	}
	if n == 1 || p.aborted {
		return false
	}
	for i := range cnt {
		p.make(i)
		ok := false
		if p.s.Over() == engine.Ongoing {
			if m := p.generate(); m > 0 && m <= k {
				ok = true
				for j := 0; j < m && ok; j++ {
					p.make(j)
					if r := p.s.Over(); r != engine.Ongoing {
						ok = wonBy(r, me)
					} else {
						ok = p.forcing(n-1, k)
					}
					p.unmake()
				}
			}
		}
		p.unmake()
		if ok || p.aborted {
			return ok && !p.aborted
		}
	}
	return false
}
