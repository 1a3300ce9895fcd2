package tournament

import (
	"math/rand/v2"
	"testing"
)

// bestBrute is the greatest matching weight of the small graph w by
// trying every matching.
func bestBrute(n int, w [][]uint64, used []bool) uint64 {
	i := 0
	for i < n && used[i] {
		i++
	}
	if i == n {
		return 0
	}
	used[i] = true
	best := bestBrute(n, w, used) // i unmatched
	for j := i + 1; j < n; j++ {
		if !used[j] && w[i][j] > 0 {
			used[j] = true
			best = max(best, w[i][j]+bestBrute(n, w, used))
			used[j] = false
		}
	}
	used[i] = false
	return best
}

// TestMatcherAgainstBruteForce checks the blossom matching's total weight
// against exhaustive search on random graphs, weights spanning two words.
func TestMatcherAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := range 3000 {
		n := 1 + r.IntN(10)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		m := newMatcher(n, 2)
		for i := range n {
			for j := i + 1; j < n; j++ {
				if r.IntN(3) == 0 {
					continue
				}
				v := uint64(1+r.IntN(12)) * 2
				w[i][j], w[j][i] = v, v
				// The same weight shifted into the upper word and back
				// into the lower: wide arithmetic must carry.
				m.set(i, j, wt{v << 60, v >> 4})
			}
		}
		mate := m.solve()
		var got uint64
		for i, j := range mate {
			if j >= 0 {
				if mate[j] != i || w[i][j] == 0 {
					t.Fatalf("case %d: mate inconsistent", it)
				}
				if i < j {
					got += w[i][j]
				}
			}
		}
		if want := bestBrute(n, w, make([]bool, n)); got != want {
			t.Fatalf("case %d (n=%d): weight %d, want %d", it, n, got, want)
		}
	}
}

// TestDutchWeightsFit checks that the widest weights a Swiss within the
// limits can need (128 players, MaxSwissRounds rounds, so at most
// 2·MaxSwissRounds+1 score groups) fit the matching's words: the score
// fields take the sum, over the score groups, of the bits of each group's
// size, at most best[g][p] for p players in g groups.
func TestDutchWeightsFit(t *testing.T) {
	const players = 128
	groups := 2*MaxSwissRounds + 1
	best := make([][]int, groups+1)
	for g := range best {
		best[g] = make([]int, players+1)
		for p := range best[g] {
			best[g][p] = -1
		}
	}
	best[0][0] = 0
	for g := 1; g <= groups; g++ {
		for p := 1; p <= players; p++ {
			for s := 1; s <= p; s++ {
				if prev := best[g-1][p-s]; prev >= 0 {
					best[g][p] = max(best[g][p], prev+bitsFor(s))
				}
			}
		}
	}
	shift := 0
	for g := 1; g <= groups; g++ {
		shift = max(shift, best[g][players])
	}
	d := &dutch{n: players, played: MaxSwissRounds, sgBits: bitsFor(players), sgShift: shift}
	if bits := d.totalBits(); bits+1 > 64*maxWords {
		t.Fatalf("weights need %d bits (doubled), the matching holds %d", bits+1, 64*maxWords)
	} else {
		t.Logf("widest weights: %d bits of %d", bits+1, 64*maxWords)
	}
}
