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

func BenchmarkPerft3(b *testing.B) {
	p := start(b)
	for b.Loop() {
		p.Perft(3)
	}
}
