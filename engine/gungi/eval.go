package gungi

import (
	mbits "math/bits"

	"github.com/tankbot/tankbot/engine"
)

// The evaluation is linear in a few counts (features) of each side, the
// side to act's minus the other's, plus the mop-up term: evalWeights are
// its weights, fitted to self-play results by `tankbot tune --game gungi`
// (docs/ai.md) and the tables below are built from them, so that
// Evaluate is one pass over the occupied squares and a few bit counts.
//
// Features (index: count for a side):
//
//	fTop+k     its top pieces of kind k (material on the board)
//	fBuried+k  its pieces of kind k under another piece
//	fHand+k    its pieces of kind k in hand
//	fTier      the tiers of its top pieces (0 bottom .. 2 top: reach)
//	fAdvance   the ranks its top pieces (Marshal aside) have advanced
//	fGuard     its tops next to its own Marshal
//	fNear1     enemy tops next to its Marshal
//	fNear2     enemy tops two squares from its Marshal
//	fMarshalUp the ranks its Marshal has left home by
//	fCheck     1 when it is to act and in check (after the draft)
//	fTempo     1 for the side to act
const (
	fTop    = 0
	fBuried = fTop + int(numKinds)
	fHand   = fBuried + int(numKinds)
)

const (
	fTier = fHand + int(numKinds) + iota
	fAdvance
	fGuard
	fNear1
	fNear2
	fMarshalUp
	fCheck
	fTempo
	numFeatures
)

// evalWeights are the fitted weights (centi-pawns per unit of each
// feature; the Marshal's material entries stay 0: losing it is mate).
var evalWeights = [numFeatures]int{
	// top pieces: -, M, G, L, S, Y, K, B, T, W, F, C, N, P
	0, 0, 700, 550, 450, 450, 380, 380, 400, 420, 330, 470, 380, 100,
	// buried
	0, 0, 630, 495, 405, 405, 342, 342, 360, 378, 297, 423, 342, 90,
	// in hand
	0, 0, 560, 440, 360, 360, 304, 304, 320, 336, 264, 376, 304, 80,
	40,  // tier
	4,   // advance
	15,  // guard
	-30, // enemy next to the Marshal
	-15, // enemy two squares away
	-10, // Marshal away from home
	-40, // in check
	10,  // tempo
}

// evalTables are the weights spread over squares and pieces.
type evalTables struct {
	top    [32][3][81]int32 // packed piece, tier index, square: material + tier + advance
	buried [32]int32
	hand   [2][numKinds]int32
	mUp    [2][81]int32 // Marshal's square, by side
}

var evalTab = buildEvalTables(&evalWeights)

func buildEvalTables(w *[numFeatures]int) *evalTables {
	t := &evalTables{}
	for side := engine.White; side <= engine.Black; side++ {
		for k := Marshal; k < numKinds; k++ {
			pc := mkPiece(k, side)
			t.buried[pc] = int32(w[fBuried+int(k)])
			t.hand[side][k] = int32(w[fHand+int(k)])
			for tier := range 3 {
				for sq := Square(0); sq < 81; sq++ {
					v := w[fTop+int(k)] + tier*w[fTier]
					if k != Marshal {
						v += relRank(side, sq) * w[fAdvance]
					}
					t.top[pc][tier][sq] = int32(v)
				}
			}
		}
		for sq := Square(0); sq < 81; sq++ {
			t.mUp[side][sq] = int32(relRank(side, sq) * w[fMarshalUp])
		}
	}
	return t
}

// relRank is sq's rank counted from side's home edge (0..8).
func relRank(side engine.Side, sq Square) int {
	if side == engine.Black {
		return 8 - sq.Rank()
	}
	return sq.Rank()
}

// ring1 and ring2 are the squares at Chebyshev distance 1 and exactly 2.
var ring1, ring2 = func() (r1, r2 [81]bits) {
	for a := Square(0); a < 81; a++ {
		for b := Square(0); b < 81; b++ {
			switch max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank())) {
			case 1:
				r1[a].set(b)
			case 2:
				r2[a].set(b)
			}
		}
	}
	return r1, r2
}()

func popAnd(a, b bits) int {
	return mbits.OnesCount64(a[0]&b[0]) + mbits.OnesCount64(a[1]&b[1])
}

// Evaluate scores the position for the side to act (see evalWeights).
func (s *searcher) Evaluate() int {
	p := s.pos()
	t := evalTab
	var score, mat [2]int32 // mat: material at full value, for mopUp
	for side := range 2 {
		for k := General; k < numKinds; k++ {
			if n := int32(p.hand[side][k]); n != 0 {
				score[side] += n * t.hand[side][k]
				mat[side] += n * int32(kindValue[k])
			}
		}
	}
	for w := range 2 {
		word := p.tops[0][w] | p.tops[1][w]
		for word != 0 {
			sq := Square(w*64 + mbits.TrailingZeros64(word))
			word &= word - 1
			n := int(p.h[sq])
			c := &p.cell[sq]
			for i := 0; i < n-1; i++ {
				pc := c[i]
				score[pc.side()] += t.buried[pc]
				mat[pc.side()] += int32(kindValue[pc.kind()])
			}
			pc := c[n-1]
			score[pc.side()] += t.top[pc][n-1][sq]
			mat[pc.side()] += int32(kindValue[pc.kind()])
		}
	}
	for side := engine.White; side <= engine.Black; side++ {
		m := p.marshal[side]
		if m == NoSquare {
			continue
		}
		them := side.Opponent()
		score[side] += t.mUp[side][m] +
			int32(popAnd(p.tops[side], ring1[m])*evalWeights[fGuard]+
				popAnd(p.tops[them], ring1[m])*evalWeights[fNear1]+
				popAnd(p.tops[them], ring2[m])*evalWeights[fNear2])
	}
	var v int
	if !p.InDraft() {
		m := [2]int{int(mat[0]), int(mat[1])}
		sc := [2]int{int(score[0]), int(score[1])}
		mopUp(p, &m, &sc)
		score[0], score[1] = int32(sc[0]), int32(sc[1])
	}
	us := p.turn
	v = int(score[us]-score[us.Opponent()]) + evalWeights[fTempo]
	if !p.InDraft() && s.inCheck() {
		v += evalWeights[fCheck]
	}
	return v
}

// Features adds the position's features (side to act minus the other
// side, see evalWeights) to dst, for the tuner (ai.Featurer).
func (s *searcher) Features(dst []float64) []float64 {
	p := s.pos()
	var f [2][numFeatures]float64
	for side := range 2 {
		for k := General; k < numKinds; k++ {
			f[side][fHand+int(k)] += float64(p.hand[side][k])
		}
	}
	for sq := Square(0); sq < 81; sq++ {
		n := int(p.h[sq])
		if n == 0 {
			continue
		}
		for i := 0; i < n-1; i++ {
			pc := p.cell[sq][i]
			if pc.kind() != Marshal {
				f[pc.side()][fBuried+int(pc.kind())]++
			}
		}
		pc := p.cell[sq][n-1]
		side := pc.side()
		if pc.kind() != Marshal {
			f[side][fTop+int(pc.kind())]++
			f[side][fAdvance] += float64(relRank(side, sq))
		}
		f[side][fTier] += float64(n - 1)
	}
	for side := engine.White; side <= engine.Black; side++ {
		m := p.marshal[side]
		if m == NoSquare {
			continue
		}
		them := side.Opponent()
		f[side][fMarshalUp] += float64(relRank(side, m))
		f[side][fGuard] += float64(popAnd(p.tops[side], ring1[m]))
		f[side][fNear1] += float64(popAnd(p.tops[them], ring1[m]))
		f[side][fNear2] += float64(popAnd(p.tops[them], ring2[m]))
	}
	us := p.turn
	f[us][fTempo] = 1
	if !p.InDraft() && s.inCheck() {
		f[us][fCheck] = 1
	}
	for i := range numFeatures {
		dst = append(dst, f[us][i]-f[us.Opponent()][i])
	}
	return dst
}

// Weights are the evaluation's current weights, in Features' order.
func (s *searcher) Weights() []int { return evalWeights[:] }
