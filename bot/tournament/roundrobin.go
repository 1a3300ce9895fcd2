package tournament

// BergerTable is round r (from 1) of the Berger tables for n players
// (n even; an odd field adds a dummy player n+1, the rest): pairs of
// player numbers, White first, board 1 first. Round 1 is 1–n, 2–(n−1), …;
// each next round renumbers every player k < n to k + n/2 (mod n−1, in
// 1..n−1) and swaps the colours of player n's board, which reproduces the
// published tables (FIDE Handbook C.05, Annex 1).
func BergerTable(n, r int) [][2]int {
	if n < 2 || n%2 == 1 || r < 1 || r > n-1 {
		return nil
	}
	pairs := make([][2]int, n/2)
	for b := range pairs {
		pairs[b] = [2]int{b + 1, n - b}
	}
	for range r - 1 {
		for b := range pairs {
			for s := range 2 {
				if k := pairs[b][s]; k != n {
					pairs[b][s] = (k-1+n/2)%(n-1) + 1
				}
			}
		}
		pairs[0][0], pairs[0][1] = pairs[0][1], pairs[0][0]
	}
	return pairs
}

// pairRoundRobin reads round r off the Berger table; players are numbered
// by seed, a pairing with the dummy is a bye (a rest), and games of
// withdrawn players are forfeits (decided by pair). A double round-robin's
// second cycle plays the first again with colours swapped.
func (t *Tournament) pairRoundRobin(r int) []Pairing {
	seeds := t.Seeds()
	n := len(seeds)
	if n%2 == 1 {
		n++
	}
	swap := false
	if r > n-1 {
		r, swap = r-(n-1), true
	}
	name := func(k int) string {
		if k > len(seeds) {
			return ""
		}
		return seeds[k-1].Player
	}
	var ps, byes []Pairing
	for _, pr := range BergerTable(n, r) {
		w, b := name(pr[0]), name(pr[1])
		if swap {
			w, b = b, w
		}
		switch {
		case w == "":
			byes = append(byes, Pairing{White: b})
		case b == "":
			byes = append(byes, Pairing{White: w})
		default:
			ps = append(ps, Pairing{White: w, Black: b})
		}
	}
	return append(ps, byes...) // the rest on the last board
}
