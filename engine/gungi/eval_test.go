package gungi

import (
	"math/rand/v2"
	"testing"
)

// Down random games through the searcher: the incremental hash equals the
// one computed from scratch, and the evaluation is its features times its
// weights (the tuner's model) wherever the mop-up term is off.
func TestSearcherHashAndFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	linear := 0
	for g := range 30 {
		start := quickGFEN
		if g%3 == 0 {
			start = StartGFEN // through the draft too
		}
		s := mustDecode(t, start).NewSearcher().(*searcher)
		for ply := 0; ply < 120 && s.Ply < 120; ply++ {
			n := s.Generate()
			if n == 0 {
				break
			}
			s.Make(rng.IntN(n))
			p := s.pos()
			if s.Hash() != p.fullHash() {
				t.Fatalf("game %d ply %d %s: hash %x, from scratch %x", g, ply, p.Encode(), s.Hash(), p.fullHash())
			}
			f := s.Features(nil)
			sum := 0
			for i, w := range s.Weights() {
				sum += int(f[i]) * w
			}
			var mat, score [2]int
			for side := range 2 {
				for k := Marshal; k < numKinds; k++ {
					mat[side] += int(p.hand[side][k]) * kindValue[k]
				}
			}
			for sq := Square(0); sq < 81; sq++ {
				for i := 0; i < int(p.h[sq]); i++ {
					mat[p.cell[sq][i].side()] += kindValue[p.cell[sq][i].kind()]
				}
			}
			if !p.InDraft() {
				mopUp(p, &mat, &score)
			}
			if score != [2]int{} {
				continue
			}
			linear++
			if e := s.Evaluate(); e != sum {
				t.Fatalf("%s: Evaluate %d, features·weights %d", p.Encode(), e, sum)
			}
		}
	}
	if linear < 1000 {
		t.Errorf("only %d positions without mop-up checked", linear)
	}
}

// attackFrom must hold every square whose pattern can reach the target.
func TestAttackFromCoversEveryPattern(t *testing.T) {
	for side := range 2 {
		for k := Marshal; k < numKinds; k++ {
			for tier := range 3 {
				for from := Square(0); from < 81; from++ {
					m := reaches[side][k][tier][from].mask
					for to := Square(0); to < 81; to++ {
						if m.has(to) && !attackFrom[to].has(from) {
							t.Fatalf("%v tier %d on %v reaches %v, outside attackFrom", k, tier+1, from, to)
						}
					}
				}
			}
		}
	}
}
