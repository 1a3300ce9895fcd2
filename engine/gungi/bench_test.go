package gungi

import "testing"

// midgame is a crowded position from a seeded random game after the quick
// start: towers, both hands full, 376 legal moves (most of them drops).
const midgame = "f.n....s(fl)/sgygbg(cw)../p.p.(pl)mlg(py)/(wk)..C..K../..g....../K.W.....P/P.P.P.P../...(GS)(BW).(CS)G./.F(GYL)..MG.(FYS) b wb G2L2S1T1N2P4/G1L1S2T1N1P4 58"

func TestMidgameMoveCount(t *testing.T) {
	if n := len(mustDecode(t, midgame).legalMoves()); n != 376 {
		t.Errorf("midgame has %d legal moves, want 376", n)
	}
}

func BenchmarkLegalMovesMidgame(b *testing.B) {
	p := mustDecode(b, midgame)
	buf := make([]Move, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.generate(buf[:0], false)
	}
	b.ReportMetric(float64(len(buf)), "moves")
}

func BenchmarkLegalMovesMidgameInCheck(b *testing.B) {
	// White in check with a full hand: every candidate drop is tested.
	p := mustDecode(b, "........m/........./........./........./....(ppc)..../........./........./........./....M.... w wb G6L4S4Y2K2B1T1W2F2C2N2P9/-")
	buf := make([]Move, 0, 512)
	for b.Loop() {
		buf = p.generate(buf[:0], false)
	}
	b.ReportMetric(float64(len(buf)), "moves")
}

// BenchmarkPerft3Quick reports leaves/s after the quick start's draft
// (target: 5 million).
func BenchmarkPerft3Quick(b *testing.B) {
	p := mustDecode(b, quickGFEN)
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n += p.Perft(3)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}
