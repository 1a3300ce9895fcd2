// Package rating implements the Glicko-2 rating system (Mark E. Glickman,
// "Example of the Glicko-2 system", 2013) the way tankbot uses it: every
// rated game is its own rating period for both players, and a player's
// rating deviation grows with the time since their last rated game before
// the game is counted (see Decay). It is pure math: no I/O, no clock.
package rating

import (
	"fmt"
	"math"
	"time"
)

// System constants. Tau 0.5 is the value of Glickman's worked example and
// lies in his recommended range (0.3–1.2); smaller values keep volatility
// steadier.
const (
	DefaultRating     = 1500.0
	DefaultRD         = 350.0
	DefaultVolatility = 0.06
	Tau               = 0.5
	// MaxRD caps the deviation: an absent player is never less known than a
	// new one.
	MaxRD = 350.0
	// ProvisionalRD: ratings with a deviation above it are shown as
	// provisional ("1500?") and listed after established ones.
	ProvisionalRD = 110.0
	// Period is the length of the rating period used for inactivity: each
	// whole or partial Period without a rated game adds volatility² to the
	// player's variance (Glickman's step 6 applied to idle periods).
	Period = 24 * time.Hour

	scale   = 173.7178 // Glicko-2 scale factor
	epsilon = 0.000001 // convergence tolerance of the volatility iteration
)

// Rating is a player's Glicko-2 state on the Glicko scale.
type Rating struct {
	Rating     float64 // μ on the Glicko scale (1500 = average new player)
	RD         float64 // rating deviation
	Volatility float64 // σ
}

// New is the rating of a player who has never played a rated game.
func New() Rating {
	return Rating{Rating: DefaultRating, RD: DefaultRD, Volatility: DefaultVolatility}
}

// Provisional reports whether the rating is too uncertain to be shown as
// established.
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// String shows the rating rounded, with "?" when provisional: "1523",
// "1500?".
func (r Rating) String() string {
	s := fmt.Sprintf("%d", int(math.Round(r.Rating)))
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Score is a game's result for one player: 1 win, 0.5 draw, 0 loss.
type Score float64

const (
	Loss Score = 0
	Draw Score = 0.5
	Win  Score = 1
)

// Result is one game against an opponent within a rating period.
type Result struct {
	Opponent Rating
	Score    Score
}

// Decay returns r as it stands after idle has passed since its last rated
// game: the deviation grows as in Glickman's step 6 for each rating period
// (fractions count proportionally), capped at MaxRD. Rating and volatility
// do not change.
func Decay(r Rating, idle time.Duration) Rating {
	if idle <= 0 {
		return r
	}
	periods := float64(idle) / float64(Period)
	phi := r.RD / scale
	phi = math.Sqrt(phi*phi + periods*r.Volatility*r.Volatility)
	r.RD = math.Min(phi*scale, MaxRD)
	return r
}

// Update returns the player's rating after a rating period with the given
// results (Glickman's steps 1–8). With no results only the deviation grows
// by one period.
func Update(p Rating, results []Result) Rating {
	mu := (p.Rating - DefaultRating) / scale
	phi := p.RD / scale
	sigma := p.Volatility
	if len(results) == 0 {
		p.RD = math.Min(math.Sqrt(phi*phi+sigma*sigma)*scale, MaxRD)
		return p
	}
	// Steps 3 and 4: estimated variance v and improvement Δ.
	var vinv, sum float64
	for _, r := range results {
		muj := (r.Opponent.Rating - DefaultRating) / scale
		phij := r.Opponent.RD / scale
		g := gfn(phij)
		e := efn(mu, muj, phij)
		vinv += g * g * e * (1 - e)
		sum += g * (float64(r.Score) - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: new volatility (Illinois algorithm).
	sigma = volatility(delta, phi, v, sigma)
	// Steps 6 and 7.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return Rating{
		Rating:     muNew*scale + DefaultRating,
		RD:         math.Min(phiNew*scale, MaxRD),
		Volatility: sigma,
	}
}

// Game rates one game between a and b (score is a's) as a rating period of
// its own for both, each first decayed by its idle time. It returns the new
// ratings.
func Game(a, b Rating, idleA, idleB time.Duration, score Score) (Rating, Rating) {
	a, b = Decay(a, idleA), Decay(b, idleB)
	return Update(a, []Result{{b, score}}), Update(b, []Result{{a, 1 - score}})
}

func gfn(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func efn(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-gfn(phij)*(mu-muj))) }

// volatility is step 5 of the paper: the root of f by the Illinois
// algorithm.
func volatility(delta, phi, v, sigma float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
