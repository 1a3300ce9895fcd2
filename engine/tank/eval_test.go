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

// GenerateGains lists exactly Generate's moves with a gain, in order.
func TestGenerateGainsMatchesGenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, v := range Rules.Variants() {
		p0, err := Rules.Start(v.Name)
		if err != nil {
			t.Fatal(err)
		}
		s := p0.(*Position).NewSearcher().(*searcher)
		for ply := 0; ply < 30; ply++ {
			n := s.Generate()
			var want []imove
			for i := range n {
				if s.Gain(i) > 0 {
					want = append(want, s.cur(i))
				}
			}
			all := append([]imove(nil), s.lists[len(s.stack)]...)
			g := s.GenerateGains()
			got := append([]imove(nil), s.lists[len(s.stack)][:max(g, 0)]...)
			if len(got) != len(want) {
				t.Fatalf("%s ply %d: %d gains, want %d", v.Name, ply, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s ply %d: gain move %d is %+v, want %+v", v.Name, ply, i, got[i], want[i])
				}
			}
			s.lists[len(s.stack)] = all
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
