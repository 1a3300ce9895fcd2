package gungi

import "testing"

func mustDecode(t testing.TB, s string) *Position {
	t.Helper()
	p, err := Decode(s)
	if err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return p
}

func TestPerftStart(t *testing.T) {
	p := mustDecode(t, StartGFEN)
	for depth, want := range map[int]uint64{1: 27, 2: 729} {
		if got := p.Perft(depth); got != want {
			t.Errorf("perft(%d) = %d, want %d", depth, got, want)
		}
	}
}
