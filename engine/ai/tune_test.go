package ai

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// Tune recovers weights from results drawn from a known model: the fitted
// weights predict better than the starting ones and land near the truth.
func TestTuneRecoversWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	truth := []float64{100, 300, -40}
	var samples []TuneSample
	for range 6000 {
		f := []float64{float64(rng.IntN(7) - 3), float64(rng.IntN(3) - 1), float64(rng.IntN(5) - 2)}
		e := 0.0
		for i := range f {
			e += f[i] * truth[i]
		}
		r := 0.0
		if rng.Float64() < sigmoid(e) {
			r = 1
		}
		samples = append(samples, TuneSample{F: f, Result: r})
	}
	res := Tune(samples, []int{50, 150, 0}, nil, 800)
	if res.Loss >= res.LossBefore {
		t.Errorf("loss %.5f after, %.5f before", res.Loss, res.LossBefore)
	}
	// The scale K and the weights trade off: compare K·w with the truth.
	for i, w := range res.Weights {
		if got := res.K * float64(w); math.Abs(got-truth[i]) > 0.25*math.Abs(truth[i])+10 {
			t.Errorf("weight %d: K·w = %.1f, truth %.0f (K %.3f, w %d)", i, got, truth[i], res.K, w)
		}
	}
}

// A fixed weight keeps its starting value.
func TestTuneFixed(t *testing.T) {
	samples := []TuneSample{{F: []float64{1, 1}, Result: 1}, {F: []float64{-1, -1}, Result: 0}}
	res := Tune(samples, []int{10, 10}, []bool{true, false}, 100)
	if res.Weights[0] != 10 || res.Weights[1] <= 10 {
		t.Errorf("weights %v: want the first kept at 10, the second raised", res.Weights)
	}
}

// Every game with a Featurer gives samples of a real position, the
// result seen from the side to move.
func TestSampleOf(t *testing.T) {
	for _, name := range []string{"tank", "camelot", "gungi"} {
		p := benchPositions(t, name)[1]
		s, ok := SampleOf(p, 1)
		if !ok || len(s.F) == 0 {
			t.Fatalf("%s: no sample", name)
		}
		want := 1.0
		if p.Turn() == engine.Black {
			want = 0
		}
		if s.Result != want {
			t.Errorf("%s: result %v for the side to move, want %v", name, s.Result, want)
		}
	}
}
