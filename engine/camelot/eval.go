package camelot

import (
	"math/bits"

	"github.com/tankbot/tankbot/engine"
)

// The evaluation is linear in a few counts of each side (side to move
// minus the other): evalWeights, fitted to self-play results by `tankbot
// tune --game camelot` (docs/ai.md). A side reduced to one piece cannot
// win, so its attacking features count only with two pieces or more.
//
//	fMan, fKnight  its pieces (material)
//	fCastle        its pieces inside the enemy castle (half a win)
//	fNear0..fNear2 its pieces 0, 1, 2 steps from the enemy castle (outside it)
//	fProgress      the sum over its farther pieces of 15 minus their distance
//	fTempo         1 for the side to move
const (
	fMan = iota
	fKnight
	fCastle
	fNear0
	fNear1
	fNear2
	fProgress
	fTempo
	numFeatures
)

// evalWeights are the evaluation's weights, in centi-pawns (a Man ≈ 100).
var evalWeights = [numFeatures]int{100, 170, 160, 60, 45, 30, 3, 8}

// attackClass[side][sq] is the attacking feature a piece of side on sq
// counts in (fCastle, fNear0..2 or fProgress) and attackUnits its units
// (1, or 15 minus the distance for fProgress).
var attackClass, attackUnits = func() (c, u [2][numSq]int) {
	for side := engine.White; side <= engine.Black; side++ {
		target := castleOf[side.Opponent()][0]
		for sq := range numSq {
			dr := abs(sq/files - target/files)
			df := min(abs(sq%files-5), abs(sq%files-6))
			d := max(dr, df)
			switch {
			case inCastle(sq, side.Opponent()):
				c[side][sq], u[side][sq] = fCastle, 1
			case d <= 2:
				c[side][sq], u[side][sq] = fNear0+d, 1
			default:
				c[side][sq], u[side][sq] = fProgress, 15-d
			}
		}
	}
	return c, u
}()

// attackBonus is a piece's attacking term by side and square, from the
// weights.
var attackBonus = func() (t [2][numSq]int) {
	for side := range 2 {
		for sq := range numSq {
			t[side][sq] = evalWeights[attackClass[side][sq]] * attackUnits[side][sq]
		}
	}
	return t
}()

// Evaluate scores the position for the side to move (see evalWeights).
func (s *searcher) Evaluate() int {
	p := s.pos()
	var score, count, attack [2]int
	occ := s.occ[s.Ply]
	for word := 0; word < len(occ); word++ {
		for occ[word] != 0 {
			sq := word*64 + bits.TrailingZeros64(occ[word])
			occ[word] &= occ[word] - 1
			c := p.board[sq]
			side := pieceSide(c)
			count[side]++
			if isKnight(c) {
				score[side] += evalWeights[fKnight]
			} else {
				score[side] += evalWeights[fMan]
			}
			attack[side] += attackBonus[side][sq]
		}
	}
	for side := range 2 {
		if count[side] >= 2 {
			score[side] += attack[side]
		}
	}
	t := p.turn
	return score[t] - score[t.Opponent()] + evalWeights[fTempo]
}

// Features adds the node's features (side to move minus the other side)
// to dst, for the tuner (ai.Featurer).
func (s *searcher) Features(dst []float64) []float64 {
	p := s.pos()
	var f [2][numFeatures]float64
	var count [2]int
	var att [2][numFeatures]float64
	for sq := range numSq {
		c := p.board[sq]
		if c <= 0 {
			continue
		}
		side := pieceSide(c)
		count[side]++
		if isKnight(c) {
			f[side][fKnight]++
		} else {
			f[side][fMan]++
		}
		att[side][attackClass[side][sq]] += float64(attackUnits[side][sq])
	}
	for side := range 2 {
		if count[side] >= 2 {
			for i := range numFeatures {
				f[side][i] += att[side][i]
			}
		}
	}
	us := p.turn
	f[us][fTempo] = 1
	for i := range numFeatures {
		dst = append(dst, f[us][i]-f[us.Opponent()][i])
	}
	return dst
}

// Weights are the evaluation's weights, in Features' order.
func (s *searcher) Weights() []int { return evalWeights[:] }
