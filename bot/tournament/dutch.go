package tournament

import "errors"

// errTooWide: the round's weights need more bits than the matching holds.
var errTooWide = errors.New("tournament: Dutch weights too wide")

// The FIDE Dutch system (C.04.3) as weighted matching. Every criterion of
// C.04.3 in priority order becomes a field of one wide edge weight, most
// important first: a pairing of the whole round that is complete (all
// players but a bye-eligible one paired), then the most pairs and the
// highest scores paired inside the current bracket and the next, the
// bye-assignee's unplayed games (C.9), colour preferences (C.10–C.13:
// absolute imbalance, absolute, mild and strong preferences), and repeated
// floaters and their scores (C.14–C.21). Brackets are settled from the top
// score down: after a maximum-weight matching of the whole round, the
// bracket's moved-down players, exchanges (fewest, smallest differences of
// bracket numbers) and transpositions (the top half's players take the
// highest-ranked opponents still allowing the optimum) are fixed one
// player at a time by nudging edge weights and matching again, so the
// optimum of every later criterion is kept. This is the approach of
// bbpPairings, the reference used to check it (docs/tournaments.md).

// dPlayer is what the Dutch weights need of a player.
type dPlayer struct {
	*swissPlayer
	sc        int // score in half points
	imbalance int // |White − Black| over played games
	repeated  Colour
	hasRep    bool
	absPref   bool
	strong    bool
	pref      Colour
	hasPref   bool
	played    int
	float     [3]int // float1, float2 rounds back: 0 none, 1 down, 2 up
	eligible  bool   // may receive the pairing-allocated bye
}

const (
	floatNone = iota
	floatDown
	floatUp
)

// bitsFor is how many bits hold x.
func bitsFor(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// add64 and sub64 are a word's sum and difference with carry/borrow.
func add64(a, b, c uint64) (uint64, uint64) {
	s := a + b + c
	return s, (a&b | (a|b)&^s) >> 63
}

func sub64(a, b, br uint64) (uint64, uint64) {
	d := a - b - br
	return d, (^a&b | ^(a^b)&d) >> 63
}

// builder packs a weight field by field, most significant first.
type builder struct{ w wt }

func (b *builder) shift(k int) {
	if k == 0 {
		return
	}
	for k >= 64 {
		copy(b.w[1:], b.w[:maxWords-1])
		b.w[0] = 0
		k -= 64
	}
	if k == 0 {
		return
	}
	for i := maxWords - 1; i > 0; i-- {
		b.w[i] = b.w[i]<<k | b.w[i-1]>>(64-k)
	}
	b.w[0] <<= k
}

// addAt adds v·2^pos.
func (b *builder) addAt(v uint64, pos int) {
	i, s := pos/64, pos%64
	lo, hi := v<<s, uint64(0)
	if s > 0 {
		hi = v >> (64 - s)
	}
	var c uint64
	for k := i; k < maxWords; k++ {
		var add uint64
		switch k {
		case i:
			add = lo
		case i + 1:
			add = hi
		}
		if add == 0 && c == 0 {
			if k > i+1 {
				break
			}
			continue
		}
		sum, c1 := add64(b.w[k], add, c)
		b.w[k], c = sum, c1
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

type dutch struct {
	ps          []*dPlayer // sorted: score, then pairing number
	played      int        // rounds played
	lastRound   bool       // pairing the final round
	sgBits      int
	sgShift     int
	shiftOf     map[int]int // score → bit offset of its score group
	topThresh   int         // half points a topscorer exceeds
	byeScore    int
	singleBye   bool
	unplayedRnk map[int]int
	compat      []bool
	n           int
}

func (d *dutch) compatible(a, b *dPlayer) bool {
	if a.met[b.id] {
		return false
	}
	if !a.absPref || !b.absPref || a.pref != b.pref {
		return true
	}
	return d.lastRound && (a.sc > d.topThresh || b.sc > d.topThresh)
}

func (d *dutch) byeCand(p *dPlayer) bool { return p.eligible && p.sc <= d.byeScore }

func prefCompatible(a, b *dPlayer) bool { return !a.hasPref || !b.hasPref || a.pref != b.pref }

// edge is the weight of h (ranked higher) meeting l, with l in the
// current bracket or the next.
func (d *dutch) edge(hi, li int, cur, next bool) wt {
	h, l := d.ps[hi], d.ps[li]
	if !d.compat[hi*d.n+li] {
		return wt{}
	}
	var b builder
	b.addAt(1+b2u(!d.byeCand(h))+b2u(!d.byeCand(l)), 0)
	b.shift(d.sgBits)
	b.addAt(b2u(cur), 0)
	b.shift(d.sgShift)
	if cur {
		b.addAt(1, d.shiftOf[h.sc])
	}
	b.shift(d.sgBits)
	b.addAt(b2u(next), 0)
	b.shift(d.sgShift)
	if next {
		b.addAt(1, d.shiftOf[h.sc])
	}
	b.shift(2 * d.sgBits)
	if d.singleBye {
		if h.sc == d.byeScore {
			b.addAt(uint64(d.unplayedRnk[h.played]), 0)
		}
		if l.sc == d.byeScore {
			b.addAt(uint64(d.unplayedRnk[l.played]), 0)
		}
	}
	// Colour preferences (C.10–C.13), only inside the current bracket.
	p, o := l, h
	b.shift(d.sgBits)
	b.addAt(b2u(cur && (p.imbalance <= 1 || o.imbalance <= 1 || p.pref != o.pref)), 0)
	b.shift(d.sgBits)
	var rep bool
	if p.imbalance == o.imbalance {
		rep = !p.hasRep || !o.hasRep || p.repeated != o.repeated
	} else {
		x := p
		if p.imbalance > o.imbalance {
			x = o
		}
		rep = !x.hasRep || x.repeated != 1-p.pref
	}
	b.addAt(b2u(cur && (!p.absPref || !o.absPref || p.pref != o.pref || rep)), 0)
	b.shift(d.sgBits)
	b.addAt(b2u(cur && prefCompatible(p, o)), 0)
	b.shift(d.sgBits)
	b.addAt(b2u(cur && (!p.strong && !p.absPref || !o.strong && !o.absPref || p.absPref && o.absPref || p.pref != o.pref)), 0)
	for back := 1; back <= 2; back++ {
		if d.played < back {
			break
		}
		b.shift(d.sgBits)
		if cur {
			b.addAt(b2u(l.float[back] == floatDown), 0)
			b.addAt(b2u(h.sc <= l.sc && h.float[back] == floatDown), 0)
		}
		b.shift(d.sgBits)
		b.addAt(b2u(cur && !(h.sc > l.sc && l.float[back] == floatUp)), 0)
	}
	for back := 1; back <= 2; back++ {
		if d.played < back {
			break
		}
		b.shift(d.sgShift)
		if cur {
			if l.float[back] == floatDown {
				b.addAt(1, d.shiftOf[l.sc])
			}
			if h.float[back] == floatDown {
				b.addAt(1, d.shiftOf[h.sc])
			}
		}
		b.shift(d.sgShift)
		if cur && !(l.float[back] == floatUp && h.sc > l.sc) {
			b.addAt(1, d.shiftOf[h.sc])
		}
	}
	b.shift(3*d.sgBits + 1)
	return b.w
}

// totalBits is how wide edge's weights get, with room for sums.
func (d *dutch) totalBits() int {
	t := 2 + 2*d.sgBits + 2*d.sgShift + 2*d.sgBits + 4*d.sgBits
	for back := 1; back <= 2; back++ {
		if d.played >= back {
			t += 2*d.sgBits + 2*d.sgShift
		}
	}
	return t + 3*d.sgBits + 1 + bitsFor(d.n) + 4
}

// pairFIDE pairs the round: pairs are White then Black.
func pairFIDE(ps []*swissPlayer, first Colour, t *Tournament) (pairs [][2]string, bye string, err error) {
	d := &dutch{n: len(ps), played: len(t.Rounds), lastRound: len(t.Rounds) >= t.SwissRounds-1}
	d.topThresh = d.played // half points: more than half of played rounds
	floats := t.floatHistory()
	for _, p := range ps {
		p.prepare()
		dp := &dPlayer{swissPlayer: p, sc: int(p.score*2 + 0.5), eligible: !p.hadBye && !p.fwin, played: len(p.colours)}
		w := 0
		for _, c := range p.colours {
			if c == White {
				w++
			} else {
				w--
			}
		}
		dp.imbalance = abs(w)
		nc := len(p.colours)
		if nc >= 2 && p.colours[nc-1] == p.colours[nc-2] {
			dp.hasRep, dp.repeated = true, p.colours[nc-1]
		}
		lower := White
		if w > 0 {
			lower = Black
		}
		switch {
		case dp.imbalance > 1:
			dp.pref, dp.hasPref = lower, true
		case dp.hasRep:
			dp.pref, dp.hasPref = 1-dp.repeated, true
		case dp.imbalance > 0:
			dp.pref, dp.hasPref = lower, true
		case nc > 0:
			dp.pref, dp.hasPref = 1-p.colours[nc-1], true
		}
		dp.absPref = dp.imbalance > 1 || dp.hasRep
		dp.strong = !dp.absPref && dp.imbalance > 0
		dp.float = floats[p.id]
		d.ps = append(d.ps, dp)
	}
	n := d.n
	d.compat = make([]bool, n*n)
	for i := range n {
		for j := range n {
			if i != j {
				d.compat[i*n+j] = d.compatible(d.ps[i], d.ps[j])
			}
		}
	}
	// Score groups and their bit offsets, lowest score first.
	d.shiftOf = map[int]int{}
	maxSize := 0
	for i := n - 1; i >= 0; {
		j := i
		for j >= 0 && d.ps[j].sc == d.ps[i].sc {
			j--
		}
		size := i - j
		d.shiftOf[d.ps[i].sc] = d.sgShift
		d.sgShift += bitsFor(size)
		maxSize = max(maxSize, size)
		i = j
	}
	d.sgBits = bitsFor(maxSize)
	nw := (d.totalBits() + 63) / 64
	if nw > maxWords {
		return nil, "", errTooWide
	}
	m := newMatcher(n, nw)
	set := func(i, j int, w wt) {
		// Doubled: the matching's duals stay integers.
		var b builder
		b.w = w
		b.shift(1)
		m.set(i, j, b.w)
	}
	top := d.ps[0].sc
	for i := range n {
		for j := 0; j < i; j++ {
			if n%2 == 1 {
				var b builder
				if d.compat[i*n+j] {
					b.addAt(1+b2u(!d.ps[i].eligible)+b2u(!d.ps[j].eligible), 0)
					b.shift(d.sgShift)
					b.addAt(uint64(d.shiftOf[d.ps[i].sc]+d.shiftOf[d.ps[j].sc]), 0)
					b.shift(d.sgBits)
					b.addAt(b2u(d.ps[i].sc >= top), 0)
				}
				set(i, j, b.w)
			} else {
				set(i, j, d.edge(j, i, false, false))
			}
		}
	}
	mate := m.solve()
	unmatched := -1
	for v, w := range mate {
		if w < 0 {
			if unmatched >= 0 || !d.ps[v].eligible {
				return nil, "", ErrNoPairing
			}
			unmatched = v
		}
	}
	if n%2 == 1 {
		if unmatched < 0 {
			return nil, "", ErrNoPairing
		}
		d.byeScore = d.ps[unmatched].sc
		if d.byeScore >= top {
			d.singleBye = true
			for v := 0; v < n && d.ps[v].sc >= top; v++ {
				if mate[v] >= 0 && d.ps[mate[v]].sc < top {
					d.singleBye = false
					break
				}
			}
		}
		var counts []int
		for _, p := range d.ps {
			if p.sc == d.byeScore {
				counts = append(counts, p.played)
			}
		}
		sortDesc(counts)
		d.unplayedRnk = map[int]int{}
		for r, c := range counts {
			d.unplayedRnk[c] = r
		}
		for i := range n {
			for j := 0; j < i; j++ {
				set(i, j, d.edge(j, i, false, false))
			}
		}
	}

	// The bracket loop.
	zero := wt{}
	finalize := func(a, b int) {
		for v := range n {
			if v != a {
				m.set(a, v, zero)
			}
			if v != b {
				m.set(b, v, zero)
			}
		}
		var one builder
		one.addAt(2, 0)
		m.set(a, b, one.w)
		// Settled: later matchings leave the pair out.
		m.off[a], m.off[b] = true, true
	}
	matched := make([]bool, n)
	final := make([]int, n)
	for i := range final {
		final[i] = -1
	}
	var byIdx []int // vertex of each player in the brackets
	next := 0
	for next < n && d.ps[next].sc >= top {
		byIdx = append(byIdx, next)
		next++
	}
	sgBegin := 0
	sgBeginV := 0
	stable := mate
	for len(byIdx) > 1 || next < n {
		nextBegin := len(byIdx)
		nextBeginV := sgBeginV + (nextBegin - sgBegin)
		groupStart := next
		for next < n && d.ps[next].sc >= d.ps[groupStart].sc {
			byIdx = append(byIdx, next)
			next++
		}
		np := len(byIdx)
		base := make([][]wt, np)
		for li := sgBegin; li < np; li++ {
			base[li] = make([]wt, li)
			for si := 0; si < li; si++ {
				base[li][si] = d.edge(byIdx[si], byIdx[li], li < nextBegin, li >= nextBegin)
				set(byIdx[li], byIdx[si], base[li][si])
			}
		}
		baseAt := func(li, si int) wt {
			if base[li] == nil {
				return wt{}
			}
			return base[li][si]
		}
		inCur := func(v int) bool { return v >= sgBeginV && v < nextBeginV }
		// st is v's mate, v itself when unpaired (the bye).
		st := func(v int) int {
			if stable[v] < 0 {
				return v
			}
			return stable[v]
		}
		// setPlus gives an edge of the bracket its base weight plus add
		// (a preference among equal optima); no edge stays no edge.
		setPlus := func(li, si int, add uint64) {
			w := baseAt(li, si)
			if w == (wt{}) {
				return
			}
			b := builder{w: w}
			b.addAt(add, 0)
			set(byIdx[li], byIdx[si], b.w)
		}
		m.nw = nw
		stable = m.solve()

		// Moved-down players: which of them are paired in this bracket.
		var mdScore, remaining, remainingMatched int
		for pi := 0; pi < sgBegin; pi++ {
			if pi == 0 || d.ps[byIdx[pi]].sc < mdScore {
				mdScore = d.ps[byIdx[pi]].sc
				remaining, remainingMatched = 0, 0
				for k := pi; k < np && d.ps[byIdx[k]].sc >= mdScore; k++ {
					remaining++
					if inCur(st(byIdx[k])) {
						remainingMatched++
					}
				}
			}
			if remainingMatched == 0 {
				continue
			}
			v := byIdx[pi]
			if remaining <= remainingMatched {
				matched[v] = true
				continue
			}
			remaining--
			if !inCur(st(v)) {
				for oi := sgBegin; oi < nextBegin; oi++ {
					setPlus(oi, pi, 1)
				}
				stable = m.solve()
			}
			if inCur(st(v)) {
				matched[v] = true
				remainingMatched--
				for oi := sgBegin; oi < nextBegin; oi++ {
					setPlus(oi, pi, uint64(nextBegin-sgBegin)+1)
				}
			}
		}
		// Their opponents: the highest-ranked still allowing the optimum.
		for pi := 0; pi < sgBegin; pi++ {
			v := byIdx[pi]
			if !matched[v] {
				continue
			}
			addend := uint64(np)
			best := -1
			for oi := nextBegin - 1; oi >= sgBegin; oi-- {
				ov := byIdx[oi]
				if matched[ov] {
					continue
				}
				if w := baseAt(oi, pi); w != (wt{}) {
					setPlus(oi, pi, addend)
					addend++
					best = ov
				}
			}
			if stable[v] != best {
				stable = m.solve()
			}
			mv := stable[v]
			matched[mv] = true
			final[v], final[mv] = mv, v
			finalize(v, mv)
		}
		// The remainder: the bracket's resident players paired inside it.
		var rem []int
		remPairs := 0
		for pi := sgBegin; pi < nextBegin; pi++ {
			v := byIdx[pi]
			if matched[v] || st(v) < sgBeginV {
				continue
			}
			rem = append(rem, pi)
			if st(v) < v {
				remPairs++
			}
		}
		ewc := func(si, li, sri int) (wt, bool) {
			w := baseAt(li, si)
			if w == (wt{}) {
				return w, false
			}
			var b builder
			b.w = w
			// Fewest exchanges, then the smallest differences of bracket
			// numbers: fields below the base weight's criteria.
			flag := uint64(0)
			if sri < remPairs {
				flag = 1
			}
			b.addAt(flag, 2*d.sgBits+1)
			b.subAt(uint64(sri), 1)
			return b.w, true
		}
		setEWC := func(si, li, sri int, delta int) {
			w, ok := ewc(si, li, sri)
			if !ok {
				set(byIdx[li], byIdx[si], w)
				return
			}
			var b builder
			b.w = w
			if delta > 0 {
				b.addAt(uint64(delta), 0)
			} else if delta < 0 {
				b.subAt(uint64(-delta), 0)
			}
			set(byIdx[li], byIdx[si], b.w)
		}
		for a, li := range rem {
			for sri, si := range rem[:a] {
				setEWC(si, li, sri, 0)
			}
		}
		stable = m.solve()
		upper := func(pi int) bool { // paired with someone below it in the bracket
			v := byIdx[pi]
			s := st(v)
			return s > v && s < nextBeginV
		}
		exchanges := 0
		for k := 0; k < remPairs && k < len(rem); k++ {
			if !upper(rem[k]) {
				exchanges++
			}
		}
		// Lowest players of the top half to move down, where possible.
		left := exchanges
		for k := remPairs - 1; k >= 0 && left > 0; k-- {
			pi := rem[k]
			if upper(pi) {
				for _, li := range rem[k+1:] {
					setEWC(pi, li, k, -1)
				}
				stable = m.solve()
			}
			ex := !upper(pi)
			if ex {
				left--
			}
			for _, li := range rem[k+1:] {
				if ex {
					base[li][pi] = wt{}
				}
				setEWC(pi, li, k, 0)
			}
		}
		// Highest players of the bottom half to move up, where possible.
		left = exchanges
		for k := remPairs; k < len(rem) && left > 1; k++ {
			pi := rem[k]
			already := upper(pi)
			if !already {
				for _, li := range rem[k+1:] {
					setEWC(pi, li, k, 1)
				}
				stable = m.solve()
			}
			if upper(pi) {
				left--
				for _, oi := range rem[:k] {
					base[pi][oi] = wt{}
					set(byIdx[pi], byIdx[oi], wt{})
				}
				for oi := nextBegin; oi < np; oi++ {
					base[oi][pi] = wt{}
					set(byIdx[oi], byIdx[pi], wt{})
				}
			}
			if !already {
				for _, li := range rem[k+1:] {
					setEWC(pi, li, k, 0)
				}
			}
		}
		for a, si := range rem {
			for _, li := range rem[a+1:] {
				if !upper(si) || upper(li) {
					base[li][si] = wt{}
				}
				set(byIdx[si], byIdx[li], base[li][si])
			}
		}
		// Transpositions: each of the top half takes the highest-ranked
		// opponent still allowing the optimum.
		for _, pi := range rem {
			v := byIdx[pi]
			if !upper(pi) {
				continue
			}
			addend := uint64(0)
			best := -1
			for k := len(rem) - 1; k >= 0; k-- {
				oi := rem[k]
				if oi <= pi || matched[byIdx[oi]] {
					continue
				}
				if w := base[oi][pi]; w != (wt{}) {
					setPlus(oi, pi, addend)
					best = byIdx[oi]
				}
				addend++
			}
			// The current optimum already gives v its most preferred
			// opponent: it stays optimal with the new weights.
			if stable[v] != best {
				stable = m.solve()
			}
			mv := stable[v]
			matched[v], matched[mv] = true, true
			final[v], final[mv] = mv, v
			finalize(v, mv)
		}
		// The next bracket: the unpaired, moved down, and the next group.
		var nb []int
		sgBegin = 0
		d.singleBye = n%2 == 1 && groupStart < n && d.byeScore >= d.ps[groupStart].sc
		for pi, v := range byIdx {
			if pi < nextBegin && matched[v] {
				continue
			}
			nb = append(nb, v)
			if pi < nextBegin {
				sgBegin++
			}
			if d.singleBye && groupStart < n && d.ps[st(v)].sc < d.ps[groupStart].sc {
				d.singleBye = false
			}
		}
		byIdx = nb
		sgBeginV = nextBeginV
	}
	for v, w := range final {
		if w < 0 {
			if bye != "" {
				return nil, "", ErrNoPairing
			}
			bye = d.ps[v].id
			continue
		}
		if v < w {
			c, _, _ := colours(d.ps[v].swissPlayer, d.ps[w].swissPlayer, first)
			if c == White {
				pairs = append(pairs, [2]string{d.ps[v].id, d.ps[w].id})
			} else {
				pairs = append(pairs, [2]string{d.ps[w].id, d.ps[v].id})
			}
		}
	}
	return pairs, bye, nil
}

// subAt subtracts v·2^pos.
func (b *builder) subAt(v uint64, pos int) {
	var o builder
	o.addAt(v, pos)
	var br uint64
	for k := range maxWords {
		b.w[k], br = sub64(b.w[k], o.w[k], br)
	}
}

func sortDesc(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// floatHistory is each player's float one and two rounds back (FIDE
// A.4): a point without a game counts as a float down; a game against a
// higher (lower) score before that round as a float up (down).
func (t *Tournament) floatHistory() map[string][3]int {
	out := map[string][3]int{}
	played := len(t.Rounds)
	bye := t.byePoints()
	score := map[string]float64{}
	for ri, r := range t.Rounds {
		back := played - ri
		before := make(map[string]float64, len(score))
		for k, v := range score {
			before[k] = v
		}
		for _, pr := range r {
			if pr.IsBye() {
				if pr.Result == Bye {
					score[pr.White] += bye
					if back <= 2 {
						f := out[pr.White]
						f[back] = floatDown
						out[pr.White] = f
					}
				}
				continue
			}
			ws, bs := pr.Result.Points()
			score[pr.White] += ws
			score[pr.Black] += bs
			if back > 2 {
				continue
			}
			fw, fb := out[pr.White], out[pr.Black]
			if !pr.Result.Played() {
				if ws > 0 {
					fw[back] = floatDown
				}
				if bs > 0 {
					fb[back] = floatDown
				}
			} else if before[pr.White] > before[pr.Black] {
				fw[back], fb[back] = floatDown, floatUp
			} else if before[pr.White] < before[pr.Black] {
				fw[back], fb[back] = floatUp, floatDown
			}
			out[pr.White], out[pr.Black] = fw, fb
		}
	}
	return out
}
