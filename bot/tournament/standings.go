package tournament

// Standing is one line of the standings.
type Standing struct {
	Rank   int
	Player string
	Seed   int     // from 1
	Points float64 // byes included (see byePoints)
	// Tie-breaks (docs/tournaments.md): Buchholz cut-1 is the sum of the
	// opponents' points without the lowest contribution (a bye or an empty
	// round contributes 0); Sonneborn-Berger adds each opponent's points
	// times the points scored against them; Direct is the points scored
	// against the other players still tied when it is applied (0 unless
	// they all met); Wins are games won over the board.
	BuchholzCut1, SonnebornBerger, Direct float64
	Wins                                  int
	Games                                 int // played over the board
	Withdrawn                             bool
	// Reached is, in a knockout, the last round the player was paired in
	// (the champion's is TotalRounds()+1).
	Reached int
}

// TieBreak names a tie-break.
type TieBreak string

const (
	TBBuchholzCut1    TieBreak = "buchholz-cut1"
	TBSonnebornBerger TieBreak = "sonneborn-berger"
	TBDirect          TieBreak = "direct-encounter"
	TBWins            TieBreak = "wins"
)

// TieBreaks is the order ties on points are broken in, per format (then
// by seed). A round-robin, where everyone meets everyone, starts with the
// games between the tied players; Swiss with the strength of opposition.
func TieBreaks(f Format) []TieBreak {
	if f == RoundRobin || f == DoubleRoundRobin {
		return []TieBreak{TBDirect, TBSonnebornBerger, TBWins, TBBuchholzCut1}
	}
	return []TieBreak{TBBuchholzCut1, TBSonnebornBerger, TBDirect, TBWins}
}

// Standings rank the entrants. Swiss and round-robin: by points, then the
// format's tie-breaks, then seed. Knockout: by the round reached (a later
// exit ranks higher, the champion first), then points, then seed.
func (t *Tournament) Standings() []Standing {
	seeds := t.Seeds()
	idx := map[string]int{}
	st := make([]Standing, len(seeds))
	for i, e := range seeds {
		idx[e.Player] = i
		st[i] = Standing{Player: e.Player, Seed: i + 1, Withdrawn: e.Withdrawn}
	}
	// vs[i][j] is what i scored against j, per game (for Direct).
	type game struct {
		opp    int // -1 for a bye
		scored float64
	}
	games := make([][]game, len(seeds))
	for _, r := range t.Rounds {
		for _, p := range r {
			if p.Result == Pending {
				continue
			}
			wi, wok := idx[p.White]
			if p.IsBye() {
				if wok && p.Result == Bye {
					st[wi].Points += t.byePoints()
					games[wi] = append(games[wi], game{-1, t.byePoints()})
					st[wi].Reached = max(st[wi].Reached, p.Round)
				}
				continue
			}
			bi := idx[p.Black]
			ws, bs := p.Result.Points()
			st[wi].Points += ws
			st[bi].Points += bs
			games[wi] = append(games[wi], game{bi, ws})
			games[bi] = append(games[bi], game{wi, bs})
			st[wi].Reached = max(st[wi].Reached, p.Round)
			st[bi].Reached = max(st[bi].Reached, p.Round)
			if p.Result.Played() {
				st[wi].Games++
				st[bi].Games++
				switch p.Result {
				case WhiteWins:
					st[wi].Wins++
				case BlackWins:
					st[bi].Wins++
				}
			}
		}
	}
	if t.Format == Knockout && t.Status == Finished && len(t.Rounds) > 0 {
		last := t.Rounds[len(t.Rounds)-1]
		if len(last) == 1 {
			if w := last[0].Winner(); w != "" {
				st[idx[w]].Reached = len(t.Rounds) + 1
			}
		}
	}
	for i := range st {
		var contrib []float64
		for _, g := range games[i] {
			if g.opp < 0 {
				contrib = append(contrib, 0)
				continue
			}
			op := st[g.opp].Points
			contrib = append(contrib, op)
			st[i].SonnebornBerger += op * g.scored
		}
		// Rounds without a pairing (withdrawn, not yet played) count as 0
		// too, so the cut drops them first.
		for len(contrib) < t.Round && t.Format != Knockout {
			contrib = append(contrib, 0)
		}
		sum, low := 0.0, 0.0
		for k, c := range contrib {
			sum += c
			if k == 0 || c < low {
				low = c
			}
		}
		st[i].BuchholzCut1 = sum - low
	}
	order := make([]int, len(st))
	for i := range order {
		order[i] = i
	}
	// Primary keys first; then refine tied groups one tie-break at a time
	// (Direct depends on who is still tied).
	// A knockout ranks by the round reached alone, then by seed (points
	// say nothing: a bye scores, a drawn game goes to Black).
	primary := func(a, b int) bool {
		if t.Format == Knockout {
			return st[a].Reached > st[b].Reached
		}
		return st[a].Points > st[b].Points
	}
	stableSort(order, primary)
	tbs := TieBreaks(t.Format)
	if t.Format == Knockout {
		tbs = nil
	}
	var refine func(group []int, k int)
	refine = func(group []int, k int) {
		if len(group) < 2 || k == len(tbs) {
			stableSort(group, func(a, b int) bool { return st[a].Seed < st[b].Seed })
			return
		}
		key := func(i int) float64 {
			switch tbs[k] {
			case TBBuchholzCut1:
				return st[i].BuchholzCut1
			case TBSonnebornBerger:
				return st[i].SonnebornBerger
			case TBWins:
				return float64(st[i].Wins)
			}
			return st[i].Direct
		}
		if tbs[k] == TBDirect {
			in := map[int]bool{}
			for _, i := range group {
				in[i] = true
			}
			met := map[[2]int]bool{}
			for _, i := range group {
				st[i].Direct = 0
				for _, g := range games[i] {
					if g.opp >= 0 && in[g.opp] {
						st[i].Direct += g.scored
						met[[2]int{min(i, g.opp), max(i, g.opp)}] = true
					}
				}
			}
			if len(met) < len(group)*(len(group)-1)/2 {
				for _, i := range group {
					st[i].Direct = 0
				}
			}
		}
		stableSort(group, func(a, b int) bool { return key(a) > key(b) })
		for i := 0; i < len(group); {
			j := i + 1
			for j < len(group) && key(group[j]) == key(group[i]) {
				j++
			}
			refine(group[i:j], k+1)
			i = j
		}
	}
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && !primary(order[i], order[j]) && !primary(order[j], order[i]) {
			j++
		}
		refine(order[i:j], 0)
		i = j
	}
	out := make([]Standing, len(st))
	for r, i := range order {
		out[r] = st[i]
		out[r].Rank = r + 1
		// Knockout players out in the same round share their place (both
		// losing semi-finalists are third), listed by seed.
		if t.Format == Knockout && r > 0 && out[r].Reached == out[r-1].Reached {
			out[r].Rank = out[r-1].Rank
		}
	}
	return out
}

// Podium is who the final post congratulates, by place: first, second and
// third (in a knockout both losing semi-finalists share third). Empty
// until the tournament is finished.
func (t *Tournament) Podium() [][]string {
	if t.Status != Finished {
		return nil
	}
	var out [][]string
	for _, s := range t.Standings() {
		switch {
		case s.Rank > 3:
			return out
		case len(out) > 0 && t.Format == Knockout && s.Rank == 3 && len(out) == 3:
			out[2] = append(out[2], s.Player)
		default:
			out = append(out, []string{s.Player})
		}
	}
	return out
}
