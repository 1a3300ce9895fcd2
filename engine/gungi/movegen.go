package gungi

import (
	mbits "math/bits"

	"github.com/tankbot/tankbot/engine"
)

func trailingZeros(w uint64) int { return mbits.TrailingZeros64(w) }

// LegalMoves returns every legal action in a stable order: board moves by
// origin square, then drops by kind and square, then ready.
func (p *Position) LegalMoves() []engine.Move {
	ms := p.legalMoves()
	out := make([]engine.Move, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

func (p *Position) legalMoves() []Move { return p.generate(make([]Move, 0, 128), false) }

// hasLegal reports whether the side to act has any legal action.
func (p *Position) hasLegal() bool {
	var buf [8]Move
	return len(p.generate(buf[:0], true)) > 0
}

// generate appends the legal moves to buf; with first it stops after one.
func (p *Position) generate(buf []Move, first bool) []Move {
	return p.generateSome(buf, first, false)
}

// generateSome is generate; with attacksOnly it lists only the attacks
// (captures), in the same order as among all the moves (quiescence).
func (p *Position) generateSome(buf []Move, first, attacksOnly bool) []Move {
	if p.InDraft() {
		return p.generateDraft(buf, first)
	}
	us, them := p.turn, p.turn.Opponent()
	ms := p.marshal[us]
	if ms == NoSquare || p.marshal[them] == NoSquare {
		return buf // a Marshal is gone: nothing to play (only reachable from odd GFEN)
	}
	// threats are the enemy tops whose pattern covers our Marshal's square
	// (blockers aside). A move other than the Marshal's changes no other
	// enemy top's pattern (a pattern depends on the piece, its tier and
	// the tower below it), so afterwards only these, less one captured or
	// covered on the target square, and an enemy uncovered on the origin
	// square, can attack the Marshal.
	var threats [81]Square
	nt := 0
	check := false
	for w, word := range p.tops[them] {
		for word != 0 {
			i := trailingZeros(word)
			word &= word - 1
			sq := Square(w*64 + i)
			if p.reachFrom(sq).mask.has(ms) {
				threats[nt] = sq
				nt++
				check = check || p.attacks(sq, ms)
			}
		}
	}
	var scratch Position
	// safeAfter tells whether our Marshal is safe on scratch, a move to to
	// (uncovering an enemy on from, when from is a square) played on it.
	safeAfter := func(from, to Square) bool {
		for _, sq := range threats[:nt] {
			if sq != to && scratch.attacks(sq, ms) {
				return false
			}
		}
		return from == NoSquare || scratch.top(from).side() != them || scratch.h[from] == 0 || !scratch.attacks(from, ms)
	}
	// safe tests a candidate by playing it on a scratch copy.
	safe := func(m Move) bool {
		scratch = *p
		scratch.apply(m)
		if m.Piece == Marshal || scratch.marshal[us] != ms {
			return !scratch.attackedBy(scratch.marshal[us], them)
		}
		return safeAfter(m.From, m.To)
	}
	for w, word := range p.tops[us] {
		for word != 0 {
			i := trailingZeros(word)
			word &= word - 1
			from := Square(w*64 + i)
			h := p.h[from]
			mover := p.cell[from][h-1].kind()
			// Only a Marshal move, an answer to check, or leaving a square
			// that uncovers an enemy or opens a line onto our Marshal can
			// expose it.
			test := check || mover == Marshal ||
				(h > 1 && p.cell[from][h-2].side() == them) ||
				(h == 1 && aligned[ms].has(from))
			add := func(m Move) bool {
				if test && !safe(m) {
					return false
				}
				buf = append(buf, m)
				return first
			}
			target := func(to Square) bool {
				th := p.h[to]
				if th == 0 {
					if attacksOnly {
						return false
					}
					return add(Move{KindMove, mover, from, to})
				}
				t := p.cell[to][th-1]
				if t.side() == them && (mover != Fortress || th == 1) {
					if add(Move{KindAttack, mover, from, to}) {
						return true
					}
				}
				if th < 3 && t.kind() != Marshal && mover != Fortress && !attacksOnly {
					return add(Move{KindStack, mover, from, to})
				}
				return false
			}
			r := p.reachFrom(from)
			for _, j := range r.jumps {
				if j.block >= 0 && p.h[j.block] != 0 {
					continue
				}
				if target(j.to) {
					return buf
				}
			}
			for _, ray := range r.rays {
				for _, to := range ray {
					if target(to) {
						return buf
					}
					if p.h[to] != 0 {
						break
					}
				}
			}
		}
	}
	if p.onBoard[us] >= MaxOnBoard || attacksOnly {
		return buf
	}
	var pawnFiles [9]bool
	if p.hand[us][Pawn] > 0 {
		pawnFiles = p.pawnFiles(us)
	}
	var dropSafe [81]uint8 // 0 untested, 1 safe, 2 leaves the Marshal attacked
	lo, hi := 0, 5         // White drops on ranks 1-6, Black on 4-9
	if us == engine.Black {
		lo, hi = 3, 8
	}
	for k := Marshal; k < numKinds; k++ {
		if p.hand[us][k] == 0 {
			continue
		}
		for to := Sq(0, lo); to <= Sq(8, hi); to++ {
			if !p.canDropOn(k, to) || (k == Pawn && pawnFiles[to.File()]) {
				continue
			}
			m := Move{KindDrop, k, NoSquare, to}
			// A drop only adds a piece: it can block or cover a checker,
			// never expose our Marshal, and whether it does depends on the
			// square alone, so each square is tested once.
			if check {
				if dropSafe[to] == 0 {
					scratch = *p
					scratch.push(to, mkPiece(k, us))
					dropSafe[to] = 2
					if safeAfter(NoSquare, to) {
						dropSafe[to] = 1
					}
				}
				if dropSafe[to] != 1 {
					continue
				}
			}
			if k == Pawn && p.dropGivesMate(m) {
				continue
			}
			buf = append(buf, m)
			if first {
				return buf
			}
		}
	}
	return buf
}

// canDropOn applies the stacking rules of §2 to a drop of kind k on to.
func (p *Position) canDropOn(k Kind, to Square) bool {
	th := p.h[to]
	if th == 0 {
		return true
	}
	return th < 3 && k != Fortress && p.cell[to][th-1].kind() != Marshal
}

// pawnFiles marks the files holding a pawn of side s at any tier.
func (p *Position) pawnFiles(s engine.Side) [9]bool {
	var f [9]bool
	pc := mkPiece(Pawn, s)
	for sq := Square(0); sq < 81; sq++ {
		for i := 0; i < int(p.h[sq]); i++ {
			if p.cell[sq][i] == pc {
				f[sq.File()] = true
			}
		}
	}
	return f
}

// dropGivesMate reports whether the pawn drop m checkmates.
func (p *Position) dropGivesMate(m Move) bool {
	them := p.turn.Opponent()
	mt := p.marshal[them]
	if mt == NoSquare {
		return false
	}
	// The pawn's pattern on its tier must cover the Marshal to give check
	// at all: most drops are rejected here without playing them.
	if !reaches[p.turn][Pawn][p.h[m.To]][m.To].mask.has(mt) {
		return false
	}
	next := *p
	next.apply(m)
	if !next.attacks(m.To, mt) {
		return false
	}
	return !next.hasLegal()
}

// generateDraft lists the placements and ready of §5.
func (p *Position) generateDraft(buf []Move, first bool) []Move {
	us, them := p.turn, p.turn.Opponent()
	if p.ready[us] {
		return buf
	}
	check := p.inCheck(us)
	oppReady := p.ready[them]
	mt := p.marshal[them]
	var pawnFiles [9]bool
	if p.hand[us][Pawn] > 0 {
		pawnFiles = p.pawnFiles(us)
	}
	lo := 0
	if us == engine.Black {
		lo = 6
	}
	kinds := Kinds
	if p.hand[us][Marshal] > 0 {
		kinds = Kinds[:1] // the Marshal comes first
	}
	if p.onBoard[us] < MaxOnBoard {
		for _, k := range kinds {
			if p.hand[us][k] == 0 {
				continue
			}
			for to := Sq(0, lo); to <= Sq(8, lo+2); to++ {
				if !p.canDropOn(k, to) || (k == Pawn && pawnFiles[to.File()]) {
					continue
				}
				m := Move{KindDrop, k, NoSquare, to}
				if check || (oppReady && mt != NoSquare) {
					next := *p
					next.apply(m)
					if next.inCheck(us) || (oppReady && next.attacks(to, mt)) {
						continue
					}
				}
				buf = append(buf, m)
				if first {
					return buf
				}
			}
		}
	}
	if p.marshal[us] != NoSquare && !check {
		buf = append(buf, ReadyMove)
	}
	return buf
}

// Perft counts the leaf positions depth actions deep.
func (p *Position) Perft(depth int) uint64 { return perft(*p, depth) }

// perft takes the position by value: with a pointer, escape analysis
// moves every node's copy of the recursion to the heap.
func perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var buf [512]Move
	moves := p.generate(buf[:0], false)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		next := p
		next.apply(m)
		n += perft(next, depth-1)
	}
	return n
}

// Play returns the position after a legal move, or an *engine.Error saying
// why the move is not legal.
func (p *Position) Play(m engine.Move) (engine.Position, error) {
	mv, ok := m.(Move)
	if !ok {
		if pm, ok2 := m.(*Move); ok2 && pm != nil {
			mv, ok = *pm, true
		}
	}
	if !ok {
		return nil, errorf(CodeForeignMove, "")
	}
	if mv.Kind == KindComplete {
		return p.playComplete(mv)
	}
	if !p.isLegal(mv) {
		return nil, p.explain(mv)
	}
	next := *p
	next.apply(mv)
	return &next, nil
}

// isLegal reports whether mv is one of the legal moves.
func (p *Position) isLegal(mv Move) bool {
	for _, m := range p.legalMoves() {
		if m == mv {
			return true
		}
	}
	return false
}
