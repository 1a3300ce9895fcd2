package rating

import (
	"math"
	"testing"
	"time"
)

// The worked example of Glickman's "Example of the Glicko-2 system".
func TestGlickmanExample(t *testing.T) {
	p := Rating{1500, 200, 0.06}
	got := Update(p, []Result{
		{Rating{1400, 30, 0.06}, Win},
		{Rating{1550, 100, 0.06}, Loss},
		{Rating{1700, 300, 0.06}, Loss},
	})
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 0.00001 {
		t.Fatalf("got %.2f / RD %.2f / vol %.5f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.RD, got.Volatility)
	}
}

func TestNoGamesGrowsRD(t *testing.T) {
	p := Rating{1500, 200, 0.06}
	got := Update(p, nil)
	// φ* = sqrt(φ² + σ²) on the Glicko-2 scale.
	want := math.Sqrt(math.Pow(200/scale, 2)+0.06*0.06) * scale
	if got.Rating != 1500 || math.Abs(got.RD-want) > 1e-9 {
		t.Fatalf("got %+v want RD %.4f", got, want)
	}
}

func TestDecay(t *testing.T) {
	r := Rating{1800, 50, 0.06}
	if Decay(r, 0) != r || Decay(r, -time.Hour) != r {
		t.Fatal("no idle time must not change the rating")
	}
	day := Decay(r, Period)
	if d := Update(r, nil); math.Abs(day.RD-d.RD) > 1e-9 {
		t.Fatalf("one idle period %.4f, want the paper's no-game step %.4f", day.RD, d.RD)
	}
	q := Decay(r, 90*Period)
	if !(q.RD > ProvisionalRD && q.RD < 130) || q.Rating != 1800 {
		t.Fatalf("after 90 idle days %+v: want provisional again, rating kept", q)
	}
	if Decay(r, 100000*Period).RD != MaxRD {
		t.Fatal("decay must stop at MaxRD")
	}
}

func TestGameSymmetricAndSigns(t *testing.T) {
	a, b := New(), New()
	a2, b2 := Game(a, b, 0, 0, Win)
	if !(a2.Rating > 1500 && b2.Rating < 1500) {
		t.Fatalf("winner %v loser %v", a2, b2)
	}
	if math.Abs((a2.Rating-1500)+(b2.Rating-1500)) > 1e-9 {
		t.Fatalf("equal players must move by the same amount: %v %v", a2, b2)
	}
	if !(a2.RD < 350 && b2.RD < 350) {
		t.Fatal("a game must reduce the deviation of new players")
	}
	d1, d2 := Game(a, b, 0, 0, Draw)
	if math.Abs(d1.Rating-1500) > 1e-9 || math.Abs(d2.Rating-1500) > 1e-9 {
		t.Fatalf("draw between equals moved ratings: %v %v", d1, d2)
	}
	// An upset moves more than an expected result.
	strong := Rating{1900, 60, 0.06}
	weak := Rating{1500, 60, 0.06}
	s1, _ := Game(strong, weak, 0, 0, Win)
	s2, _ := Game(strong, weak, 0, 0, Loss)
	if !(s1.Rating-1900 < 1900-s2.Rating) {
		t.Fatalf("expected win %+.1f vs upset loss %+.1f", s1.Rating-1900, s2.Rating-1900)
	}
}

func TestString(t *testing.T) {
	if s := New().String(); s != "1500?" {
		t.Fatal(s)
	}
	if s := (Rating{1522.6, 80, 0.06}).String(); s != "1523" {
		t.Fatal(s)
	}
}

// Many games keep numbers finite and the deviation in range.
func TestStable(t *testing.T) {
	a, b := New(), Rating{2400, 40, 0.06}
	for i := 0; i < 500; i++ {
		s := Score(float64(i%3) / 2)
		a, b = Game(a, b, time.Duration(i%5)*time.Hour, 0, s)
		for _, r := range []Rating{a, b} {
			if math.IsNaN(r.Rating) || math.IsInf(r.Rating, 0) || r.RD <= 0 || r.RD > MaxRD || r.Volatility <= 0 || math.IsNaN(r.Volatility) {
				t.Fatalf("game %d: %+v", i, r)
			}
		}
	}
}
