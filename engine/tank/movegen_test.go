package tank

import "testing"

// crowded is a 16×16 midgame with pieces mixed among the obstacles and a few
// wrecks, for benchmarks.
const crowded = "...hs..ms.cs......./.#..##...ms..hs.../.#.ls##ls...ls##.../.#..#..Mne....ls.../.......##...Lnw.../...Hn.#####..##../..##..xMs.......#./..###...ls..Ln..../...........###../.#...Ln......##../.##..#####....../.......##..Mn..../...........#..#./...##.....##..#./..........##..#./..Hn..Mn.Cn..Ln..... w 20"

func benchPos(b *testing.B, s string) *Position {
	b.Helper()
	p, err := StartPosition(s)
	if err != nil {
		p, err = ParseTFEN(s)
	}
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func benchGenerate(b *testing.B, p *Position) {
	bd := p.b.clone()
	sc := bd.sc()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		sc.list = bd.generate(sc.list[:0])
		n = len(sc.list)
	}
	b.ReportMetric(float64(n), "moves")
}

// BenchmarkGenerateBasic16 is the full legal move list of the basic16
// start (target: under 25 µs).
func BenchmarkGenerateBasic16(b *testing.B) { benchGenerate(b, benchPos(b, "basic16")) }

func BenchmarkGenerateBasic20(b *testing.B) { benchGenerate(b, benchPos(b, "basic20")) }

func BenchmarkGenerateCrowded(b *testing.B) { benchGenerate(b, benchPos(b, crowded)) }

// BenchmarkLegalMovesBasic16 is the public API (with the []engine.Move
// boxing).
func BenchmarkLegalMovesBasic16(b *testing.B) {
	p := benchPos(b, "basic16")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.LegalMoves()
	}
}

func BenchmarkCountBasic16(b *testing.B) {
	bd := benchPos(b, "basic16").b.clone()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = bd.count()
	}
}

// BenchmarkPerft3Basic16 reports leaves/s (target: 20 million).
func BenchmarkPerft3Basic16(b *testing.B) {
	p := benchPos(b, "basic16")
	b.ReportAllocs()
	var n uint64
	for i := 0; i < b.N; i++ {
		n = p.Perft(3)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

func BenchmarkPerft2Basic20(b *testing.B) {
	p := benchPos(b, "basic20")
	var n uint64
	for i := 0; i < b.N; i++ {
		n = p.Perft(2)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

func BenchmarkParseTFEN(b *testing.B) {
	s := benchPos(b, "basic20").Encode()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseTFEN(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeTFEN(b *testing.B) {
	p := benchPos(b, "basic20")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.Encode()
	}
}

func BenchmarkAnnounceCrowded(b *testing.B) {
	p := benchPos(b, crowded)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.Announce()
	}
}

// TestCountMatchesGenerate checks bulk counting against the generator on
// every position of a few random games.
func TestCountMatchesGenerate(t *testing.T) {
	for _, s := range []string{"basic16", "basic20", crowded} {
		p, err := StartPosition(s)
		if err != nil {
			p = mustParse(t, s)
		}
		bd := p.b.clone()
		if c, g := bd.count(), len(bd.generate(nil)); c != uint64(g) {
			t.Errorf("%s: count %d, generate %d", s, c, g)
		}
	}
}

func TestCountAllocatesNothing(t *testing.T) {
	bd := mustParse(t, crowded).b.clone()
	bd.count() // warm the scratch space
	if a := testing.AllocsPerRun(20, func() { bd.count() }); a != 0 {
		t.Errorf("count allocates %.1f times per call", a)
	}
}

// BenchmarkMovesBasic16 is the concrete legal move list (one allocation).
func BenchmarkMovesBasic16(b *testing.B) {
	p := benchPos(b, "basic16")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.Moves()
	}
}
