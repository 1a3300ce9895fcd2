package tank

import (
	"math/rand/v2"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// The evaluation is its features times its weights (the tuner's model)
// down random games on every shipped map.
func TestEvaluateFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, v := range Rules.Variants() {
		p0, err := Rules.Start(v.Name)
		if err != nil {
			t.Fatal(err)
		}
		s := p0.(*Position).NewSearcher().(*searcher)
		for ply := 0; ply < 40; ply++ {
			f := s.Features(nil)
			sum := 0
			for i, w := range s.Weights() {
				sum += int(f[i]) * w
			}
			if e := s.Evaluate(); e != sum {
				t.Fatalf("%s ply %d: Evaluate %d, features·weights %d", v.Name, ply, e, sum)
			}
			n := s.Generate()
			if n == 0 {
				break
			}
			s.Make(rng.IntN(n))
			if s.Over() != engine.Ongoing {
				break
			}
		}
	}
}
