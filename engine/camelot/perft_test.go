package camelot

import "testing"

func start(t testing.TB) *Position {
	t.Helper()
	p, err := ParseCFEN(StartCFEN)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPerftStart(t *testing.T) {
	p := start(t)
	for depth, want := range []uint64{1, 100, 10026} {
		if got := p.Perft(depth); got != want {
			t.Errorf("perft(%d) = %d, want %d", depth, got, want)
		}
	}
}

// BenchmarkPerft3 reports leaves/s from the start (target: 5 million).
func BenchmarkPerft3(b *testing.B) {
	p := start(b)
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n += p.Perft(3)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}
