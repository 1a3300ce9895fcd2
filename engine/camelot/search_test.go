package camelot

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// The searcher's allocation-free generation (routes in a per-ply arena,
// moves played in place) gives the same moves, routes included, as the
// position's own generator, at every ply of random games walked down with
// Make and back up with Unmake; and a move exported by the searcher keeps
// its route after the arena is reused; the kept piece counts and
// occupied squares match the board's.
func TestSearcherMatchesGenerate(t *testing.T) {
	for g := range 12 {
		rng := rand.New(rand.NewPCG(uint64(g), 3))
		start, err := Rules.Start("")
		if err != nil {
			t.Fatal(err)
		}
		s := start.(*Position).NewSearcher().(*searcher)
		var kept []Move
		var keptWant []Move
		depth := 0
		for step := 0; step < 200; step++ {
			p := *s.pos()
			n := 0
			if p.boardOutcome().Result == engine.Ongoing {
				n = s.Generate()
			}
			want := p.generate()
			if n != len(want) && p.boardOutcome().Result == engine.Ongoing {
				t.Fatalf("game %d step %d: searcher %d moves, generate %d", g, step, n, len(want))
			}
			for i := 0; i < n; i++ {
				if got := s.Move(i).(Move); !reflect.DeepEqual(got, want[i]) {
					t.Fatalf("game %d step %d move %d: searcher %+v, generate %+v", g, step, i, got, want[i])
				}
			}
			if n > 0 {
				i := rng.IntN(n)
				kept, keptWant = append(kept, s.Move(i).(Move)), append(keptWant, want[i])
			}
			// Down most of the time, up now and then (the arena of a ply
			// is reused by its next generation).
			if n > 0 && (depth == 0 || rng.IntN(4) != 0) && depth < engine.SearchPlies-2 {
				i := rng.IntN(n)
				s.Make(i)
				next := p.apply(want[i])
				if *next != *s.pos() {
					t.Fatalf("game %d step %d: Make(%d) differs from apply", g, step, i)
				}
				if c := s.counts[s.Ply]; c[engine.White] != next.count(engine.White) || c[engine.Black] != next.count(engine.Black) {
					t.Fatalf("game %d step %d: kept counts %v, board %d/%d", g, step, c, next.count(engine.White), next.count(engine.Black))
				}
				if s.occ[s.Ply] != occupied(next) {
					t.Fatalf("game %d step %d: kept occupancy differs from the board's", g, step)
				}
				if s.Over() != next.boardOutcome().Result {
					t.Fatalf("game %d step %d: Over %v, board %v", g, step, s.Over(), next.boardOutcome().Result)
				}
				depth++
			} else if depth > 0 {
				s.Unmake()
				depth--
			}
		}
		for i := range kept {
			if !reflect.DeepEqual(kept[i], keptWant[i]) {
				t.Fatalf("game %d: exported move %d changed: %+v, want %+v", g, i, kept[i], keptWant[i])
			}
		}
	}
}

// BenchmarkSearcherGenerate measures the searcher's generation in the
// start position (allocations: none once the arena has grown).
func BenchmarkSearcherGenerate(b *testing.B) {
	start, _ := Rules.Start("")
	s := start.(*Position).NewSearcher()
	b.ReportAllocs()
	for b.Loop() {
		s.Generate()
	}
}
