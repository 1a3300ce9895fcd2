package ai

import (
	"math"

	"github.com/tankbot/tankbot/engine"
)

// Featurer is implemented by searchers whose evaluation is linear in
// counted features (plus terms the tuner leaves alone): Features appends
// the current node's features, side to move minus the other side, and
// Weights gives the evaluation's weights in the same order. Tune fits
// such weights to game results (Texel's method).
type Featurer interface {
	Features(dst []float64) []float64
	Weights() []int
}

// TuneSample is one position of a self-play game: its features, the part
// of its evaluation outside them (Fixed: Evaluate minus features·weights,
// e.g. a mop-up term) and the game's result for the side to move (1 win,
// 0.5 draw, 0 loss).
type TuneSample struct {
	F      []float64
	Fixed  float64
	Result float64
}

// SampleOf makes pos's tuning sample, given the game's result for White.
// Like Texel's method, it takes the features of the quiet position a
// capture quiescence search from pos ends in (the static evaluation
// misreads a position with captures pending). ok is false for positions
// the tuner skips: games without features, a planned phase (the Gungi
// draft), a quiescence line that ends the game.
func SampleOf(pos engine.Position, whiteResult float64) (TuneSample, bool) {
	sp, ok := pos.(engine.Searchable)
	if !ok {
		return TuneSample{}, false
	}
	if pl, ok := pos.(engine.Planner); ok {
		if _, planned := pl.PlanMove(0); planned {
			return TuneSample{}, false
		}
	}
	s := sp.NewSearcher()
	fs, ok := s.(Featurer)
	if !ok || s.Over() != engine.Ongoing {
		return TuneSample{}, false
	}
	_, f, fixed := quietLeaf(s, fs, -inf, inf, 3)
	if f == nil {
		return TuneSample{}, false
	}
	r := whiteResult
	if s.Turn() == engine.Black {
		r = 1 - r
	}
	return TuneSample{F: f, Fixed: fixed, Result: r}, true
}

// quietLeaf is a capture quiescence search (at most left plies, the four
// largest gains at each node) that returns, besides the score, the
// features and the fixed part of the evaluation at the end of its
// principal line, from the point of view of the side to move at this
// node; nil features when the line ends the game.
func quietLeaf(s engine.Searcher, fs Featurer, alpha, beta, left int) (int, []float64, float64) {
	stand := s.Evaluate()
	f := fs.Features(nil)
	lin := 0.0
	for i, w := range fs.Weights() {
		lin += f[i] * float64(w)
	}
	best, bestF, bestFixed := stand, f, float64(stand)-lin
	if left == 0 || stand >= beta {
		return best, bestF, bestFixed
	}
	alpha = max(alpha, stand)
	n := s.Generate()
	var caps []scored
	for i := range n {
		if g := s.Gain(i); g > 0 {
			caps = append(caps, scored{i, g})
		}
	}
	sortScored(caps)
	if len(caps) > 4 {
		caps = caps[:4]
	}
	for _, c := range caps {
		s.Make(c.i)
		var v int
		var cf []float64
		var cfix float64
		if r := s.Over(); r != engine.Ongoing {
			v = WinScore // the mover wins (a capture that loses does not end a game)
			if r == engine.Draw {
				v = 0
			}
		} else {
			v, cf, cfix = quietLeaf(s, fs, -beta, -alpha, left-1)
			v = -v
			for i := range cf {
				cf[i] = -cf[i]
			}
			cfix = -cfix
		}
		s.Unmake()
		if v > best {
			best, bestF, bestFixed = v, cf, cfix
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	return best, bestF, bestFixed
}

// TuneResult is what Tune found.
type TuneResult struct {
	Weights          []int
	K                float64 // the win-probability scale: p = 1/(1+10^(-K·eval/400))
	LossBefore, Loss float64 // mean squared error of p against the results
}

// Tune fits weights (starting from w0) to the samples by minimising the
// mean squared error between the results and the win probability the
// evaluation predicts, Texel's method: first the scale K for w0, then the
// weights by gradient descent (Adam, full batch, epochs passes) with a
// small pull towards w0 (prior: features that rarely occur keep their
// hand-set value).
//
// fixed, when not nil, marks the weights that keep their starting value
// (e.g. the material when the games are too few or too weak to judge it).
func Tune(samples []TuneSample, w0 []int, fixed []bool, epochs int) TuneResult {
	n := len(w0)
	w := make([]float64, n)
	for i, x := range w0 {
		w[i] = float64(x)
	}
	eval := func(s *TuneSample, w []float64) float64 {
		e := s.Fixed
		for i, x := range s.F {
			e += x * w[i]
		}
		return e
	}
	loss := func(w []float64, k float64) float64 {
		sum := 0.0
		for i := range samples {
			p := sigmoid(k * eval(&samples[i], w))
			sum += (samples[i].Result - p) * (samples[i].Result - p)
		}
		return sum / float64(max(1, len(samples)))
	}
	// K by golden-section search on the starting weights.
	lo, hi := 0.05, 5.0
	for range 60 {
		m1, m2 := lo+(hi-lo)*0.382, lo+(hi-lo)*0.618
		if loss(w, m1) < loss(w, m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	k := (lo + hi) / 2
	res := TuneResult{K: k, LossBefore: loss(w, k)}
	const (
		rate  = 1.0 // centi-pawns per step
		beta1 = 0.9
		beta2 = 0.999
		prior = 5e-9 // pull towards w0, per squared centi-pawn
	)
	m, v := make([]float64, n), make([]float64, n)
	g := make([]float64, n)
	c := math.Ln10 / 400 * k
	for ep := 1; ep <= epochs; ep++ {
		clear(g)
		for i := range samples {
			s := &samples[i]
			p := sigmoid(k * eval(s, w))
			d := -2 * (s.Result - p) * p * (1 - p) * c
			for j, x := range s.F {
				if x != 0 {
					g[j] += d * x
				}
			}
		}
		for j := range g {
			if j < len(fixed) && fixed[j] {
				continue
			}
			g[j] = g[j]/float64(max(1, len(samples))) + 2*prior*(w[j]-float64(w0[j]))
			m[j] = beta1*m[j] + (1-beta1)*g[j]
			v[j] = beta2*v[j] + (1-beta2)*g[j]*g[j]
			mh := m[j] / (1 - math.Pow(beta1, float64(ep)))
			vh := v[j] / (1 - math.Pow(beta2, float64(ep)))
			w[j] -= rate * mh / (math.Sqrt(vh) + 1e-12)
		}
	}
	res.Weights = make([]int, n)
	for i, x := range w {
		res.Weights[i] = int(math.Round(x))
		w[i] = float64(res.Weights[i])
	}
	res.Loss = loss(w, k)
	return res
}

// sigmoid is the win probability of an evaluation e (centi-pawns) already
// multiplied by K.
func sigmoid(e float64) float64 { return 1 / (1 + math.Pow(10, -e/400)) }
