package tank

import "github.com/tankbot/tankbot/engine"

// The evaluation is linear in a few counts of each side (side to move
// minus the other): evalWeights, fitted to self-play results by `tankbot
// tune --game tank` (docs/ai.md).
//
//	fLT..fHM   its active tanks of each kind (material; the CLT has none:
//	           losing it loses the game, which the search sees)
//	fAdvance   the rows its CLT has advanced from its home edge
//	fEdge      5 minus the rows its CLT still has to cross, when under 5
//	           (a CLT within one drive of the edge is close to escaping)
//	fThreat    the sum over enemy tanks within six squares of its CLT of
//	           seven minus their distance
//	fScreen    its tanks next to its CLT
//	fTempo     1 for the side to move
const (
	fLT = iota
	fMT
	fHT
	fTD
	fHM
	fAdvance
	fEdge
	fThreat
	fScreen
	fTempo
	numFeatures
)

// evalWeights are the evaluation's weights, in centi-pawns (an LT ≈ 100).
var evalWeights = [numFeatures]int{100, 180, 260, 220, 240, 6, 40, -6, 8, 10}

// kindFeature maps a kind to its material feature (-1: the CLT).
var kindFeature = [8]int{CLT: -1, LT: fLT, MT: fMT, HT: fHT, TD: fTD, HM: fHM}

// pieceValue is the material scale (an LT is 100) from the weights: the
// search orders captures by it.
var pieceValue = func() (t [8]int) {
	for k, f := range kindFeature {
		if f >= 0 && k != 0 && k != 7 {
			t[k] = evalWeights[f]
		}
	}
	return t
}()

// features counts the features of both sides in one pass over the cells
// and a second over the pieces found.
func (b *board) features() (f [2][numFeatures]int) {
	var clt [2]int
	clt[0], clt[1] = -1, -1
	var pieces [256]int32 // index<<1 | side; armies have a few dozen tanks
	np := 0
	for i, c := range b.cells {
		if !isPiece(c) || c&wreckBit != 0 {
			continue
		}
		side := cellSide(c)
		k := cellKind(c)
		if k == CLT {
			clt[side] = i
		} else {
			f[side][kindFeature[k]]++
		}
		if np < len(pieces) {
			pieces[np] = int32(i)<<1 | int32(side)
			np++
		}
	}
	for side := engine.White; side <= engine.Black; side++ {
		ci := clt[side]
		if ci < 0 {
			continue
		}
		sq := squareOf[b.stride][ci]
		fl, r := int(sq[0]), int(sq[1])
		dist := b.h - 1 - r // rows to cross before the step off the edge
		if side == engine.Black {
			dist = r
		}
		f[side][fAdvance] += b.h - 1 - dist
		if dist < 5 {
			f[side][fEdge] += 5 - dist
		}
		// Tanks around the CLT: enemies threaten it, friends screen it.
		for _, pc := range pieces[:np] {
			j := int(pc >> 1)
			if j == ci {
				continue
			}
			q := squareOf[b.stride][j]
			d := max(abs(int(q[0])-fl), abs(int(q[1])-r))
			if engine.Side(pc&1) != side {
				if d <= 6 {
					f[side][fThreat] += 7 - d
				}
			} else if d == 1 {
				f[side][fScreen]++
			}
		}
	}
	f[b.turn][fTempo] = 1
	return f
}

// Evaluate scores the board for the side to move (see evalWeights).
func (s *searcher) Evaluate() int {
	f := s.b.features()
	us, them := s.b.turn, s.b.turn.Opponent()
	v := 0
	for i, w := range evalWeights {
		v += w * (f[us][i] - f[them][i])
	}
	return v
}

// Features adds the node's features (side to move minus the other side)
// to dst, for the tuner (ai.Featurer).
func (s *searcher) Features(dst []float64) []float64 {
	f := s.b.features()
	us, them := s.b.turn, s.b.turn.Opponent()
	for i := range numFeatures {
		dst = append(dst, float64(f[us][i]-f[them][i]))
	}
	return dst
}

// Weights are the evaluation's weights, in Features' order.
func (s *searcher) Weights() []int { return evalWeights[:] }
