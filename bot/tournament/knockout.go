package tournament

// BracketOrder is the standard seeding of a bracket of size p (a power of
// two): the seeds in bracket order, so that positions 2i and 2i+1 meet in
// round 1 (1 v p, then p/2 v p/2+1, …) and the top seeds can only meet in
// the last rounds.
func BracketOrder(p int) []int {
	order := []int{1}
	for len(order) < p {
		m := 2*len(order) + 1
		next := make([]int, 0, 2*len(order))
		for _, s := range order {
			next = append(next, s, m-s)
		}
		order = next
	}
	return order
}

// bracketSize is the power of two at or above n.
func bracketSize(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// Winner is who goes through from a knockout pairing, "" when no one does
// (both forfeited). A drawn game goes to Black (the "Armageddon" rule:
// White has to win), so a round needs no replay.
func (p Pairing) Winner() string {
	switch p.Result {
	case WhiteWins, WhiteForfeit, Bye:
		return p.White
	case BlackWins, BlackForfeit, Draw:
		return p.Black
	}
	return ""
}

// pairKnockout: round 1 places the seeds by BracketOrder in a bracket of
// the next power of two, the missing seeds being byes for the top seeds;
// later rounds pair the winners of boards 2i−1 and 2i. Every round keeps
// all its boards (an empty one, when both sides forfeited earlier, is a
// double forfeit), so board b of round r feeds board ⌈b/2⌉ of round r+1.
func (t *Tournament) pairKnockout(r int) []Pairing {
	var slots []string
	if r == 1 {
		seeds := t.Seeds()
		for _, s := range BracketOrder(bracketSize(len(seeds))) {
			if s <= len(seeds) {
				slots = append(slots, seeds[s-1].Player)
			} else {
				slots = append(slots, "")
			}
		}
	} else {
		for _, p := range t.Rounds[r-2] {
			slots = append(slots, p.Winner())
		}
	}
	seed := map[string]int{}
	for i, e := range t.Seeds() {
		seed[e.Player] = i + 1
	}
	ps := make([]Pairing, len(slots)/2)
	for i := range ps {
		a, b := slots[2*i], slots[2*i+1]
		switch {
		case a == "":
			ps[i] = Pairing{White: b}
		case b == "":
			ps[i] = Pairing{White: a}
		default:
			// Fewer games with White gets White; on equal counts the
			// better seed does (in round 1 the better seed is first in
			// the bracket; later the upper board's winner may be the
			// worse seed).
			if wa, wb := t.whites(a), t.whites(b); wb < wa || wb == wa && seed[b] < seed[a] {
				a, b = b, a
			}
			ps[i] = Pairing{White: a, Black: b}
		}
	}
	return ps
}

// whites counts a player's games played with White.
func (t *Tournament) whites(player string) int {
	n := 0
	for _, r := range t.Rounds {
		for _, p := range r {
			if p.White == player && p.Result.Played() {
				n++
			}
		}
	}
	return n
}
