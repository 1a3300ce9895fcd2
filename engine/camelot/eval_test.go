package camelot

import (
	"math/rand/v2"
	"testing"
)

// The evaluation is its features times its weights (the tuner's model) at
// every node of random games, and the attacking table is the weights'.
func TestEvaluateIsFeaturesTimesWeights(t *testing.T) {
	checked := 0
	for g := range 8 {
		rng := rand.New(rand.NewPCG(uint64(g), 9))
		start, err := Rules.Start("")
		if err != nil {
			t.Fatal(err)
		}
		s := start.(*Position).NewSearcher().(*searcher)
		for ply := 0; ply < 100; ply++ {
			f := s.Features(nil)
			sum := 0
			for i, w := range s.Weights() {
				sum += int(f[i]) * w
			}
			if e := s.Evaluate(); e != sum {
				t.Fatalf("game %d ply %d %s: Evaluate %d, features·weights %d", g, ply, s.pos().Encode(), e, sum)
			}
			checked++
			n := s.Generate()
			if n == 0 || s.Over() != 0 {
				break
			}
			s.Make(rng.IntN(n))
		}
	}
	if checked < 200 {
		t.Errorf("only %d positions checked", checked)
	}
}
