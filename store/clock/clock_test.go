package clock

import (
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func TestParseSettings(t *testing.T) {
	cases := []struct {
		in   string
		want Settings
	}{
		{"none", Settings{}},
		{"30m", Settings{Kind: RealTime, Initial: 30 * time.Minute}},
		{"45m", Settings{Kind: RealTime, Initial: 45 * time.Minute}},
		{"10m+5s", Settings{Kind: RealTime, Initial: 10 * time.Minute, Increment: 5 * time.Second}},
		{"1d", Settings{Kind: Correspondence, PerMove: 24 * time.Hour}},
		{"3d", Settings{Kind: Correspondence, PerMove: 72 * time.Hour}},
		{"7d", Settings{Kind: Correspondence, PerMove: 168 * time.Hour}},
		{"12h", Settings{Kind: Correspondence, PerMove: 12 * time.Hour}},
	}
	for _, c := range cases {
		got, err := ParseSettings(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSettings(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if got.String() != c.in {
			t.Errorf("%+v.String() = %q, want %q", got, got.String(), c.in)
		}
	}
	for _, bad := range []string{"x", "10", "0m", "-5m", "1d+5s", "10m+5m", "5s", "99999d", "m", "10m+", "1y"} {
		if s, err := ParseSettings(bad); err == nil {
			t.Errorf("ParseSettings(%q) = %+v, want error", bad, s)
		}
	}
}

func FuzzParseSettings(f *testing.F) {
	for _, s := range []string{"none", "30m", "10m+5s", "3d", "12h", "", "+", "9999999999999999999d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseSettings(s)
		if err != nil {
			return
		}
		back, err := ParseSettings(st.String())
		if err != nil || back != st {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, st, st.String(), back, err)
		}
	})
}

func TestRemainingNeverNegative(t *testing.T) {
	s, _ := ParseSettings("30m")
	st := Start(s, t0)
	if got := st.Remaining(s, 0, t0.Add(time.Hour)); got != 0 {
		t.Fatalf("remaining after an hour = %v, want 0", got)
	}
	if got := st.Remaining(s, 0, t0.Add(-time.Hour)); got != 30*time.Minute {
		t.Fatalf("remaining before the turn start = %v", got)
	}
	if got := st.Remaining(s, 1, t0.Add(time.Hour)); got != 30*time.Minute {
		t.Fatalf("side not to move lost time: %v", got)
	}
	next, spent := st.Apply(s, t0.Add(time.Hour))
	if next.Left[0] != 0 || spent != time.Hour {
		t.Fatalf("apply after flag: %+v spent %v", next, spent)
	}
}

func TestFlagFallExactInstant(t *testing.T) {
	s, _ := ParseSettings("10m+5s")
	st := Start(s, t0)
	d := st.Deadline(s)
	if !d.Equal(t0.Add(10 * time.Minute)) {
		t.Fatalf("deadline %v", d)
	}
	if st.Flagged(s, d.Add(-time.Nanosecond)) {
		t.Fatal("flagged 1ns before the deadline")
	}
	if !st.Flagged(s, d) {
		t.Fatal("not flagged at the deadline")
	}
	if st.Remaining(s, 0, d.Add(-time.Nanosecond)) != time.Nanosecond {
		t.Fatal("remaining 1ns before deadline")
	}
	if (State{}).Flagged(Settings{}, t0.Add(1000*time.Hour)) {
		t.Fatal("untimed game flagged")
	}
}

func TestIncrement(t *testing.T) {
	s, _ := ParseSettings("10m+5s")
	st := Start(s, t0)
	st, spent := st.Apply(s, t0.Add(30*time.Second))
	if spent != 30*time.Second || st.Left[0] != 10*time.Minute-25*time.Second || st.ToMove != 1 || !st.TurnStart.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("after white's move: %+v spent %v", st, spent)
	}
	st, _ = st.Apply(s, t0.Add(90*time.Second))
	if st.Left[1] != 10*time.Minute-55*time.Second || st.ToMove != 0 {
		t.Fatalf("after black's move: %+v", st)
	}
	if got := st.Remaining(s, 0, t0.Add(100*time.Second)); got != 10*time.Minute-25*time.Second-10*time.Second {
		t.Fatalf("running white clock %v", got)
	}
}

func TestCorrespondenceReset(t *testing.T) {
	s, _ := ParseSettings("3d")
	st := Start(s, t0)
	st, _ = st.Apply(s, t0.Add(70*time.Hour))
	if st.Left[0] != 72*time.Hour {
		t.Fatalf("allowance not reset: %v", st.Left[0])
	}
	if !st.Deadline(s).Equal(t0.Add(142 * time.Hour)) {
		t.Fatalf("black's deadline %v", st.Deadline(s))
	}
}

func TestFake(t *testing.T) {
	f := NewFake(t0)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				f.Advance(time.Second)
				_ = f.Now()
			}
		})
	}
	wg.Wait()
	if !f.Now().Equal(t0.Add(800 * time.Second)) {
		t.Fatalf("fake at %v", f.Now())
	}
	f.Set(t0)
	if !f.Now().Equal(t0) {
		t.Fatal("Set")
	}
	var _ Clock = Real{}
	var _ Clock = f
}
