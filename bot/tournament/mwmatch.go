package tournament

// A maximum-weight matching on a general graph (Edmonds' blossom
// algorithm with dual variables, after Galil's "Efficient algorithms for
// finding maximum matchings in graphs", 1986), with wide unsigned integer
// weights: the Dutch pairing packs every FIDE criterion into one weight,
// which needs hundreds of bits for a big event. Weights must be even (the
// caller doubles them) so that every dual stays an integer; a weight of
// zero means no edge.

// maxWords bounds a weight's width: 64·maxWords bits.
const maxWords = 16

// wt is a wide unsigned integer, least significant word first; only the
// first nw words of the matcher in use count.
type wt [maxWords]uint64

type matcher struct {
	n, nw    int
	full     int    // vertices in all; n counts those in the current solve
	off      []bool // vertices left out of solve (their pairs are settled)
	weight   []wt   // [i*n+j], symmetric
	edges    [][2]int
	ew       []wt
	endpoint []int
	neighb   [][]int

	mate, label, labelend, inblossom, blossomparent, blossombase, bestedge []int
	blossomchilds, blossomendps, blossombestedges                          [][]int
	hasBestList                                                            []bool
	unused                                                                 []int
	dual                                                                   []wt
	allowedge                                                              []bool
	queue                                                                  []int
	t1, t2                                                                 wt // scratch slacks
}

func newMatcher(n, nw int) *matcher {
	return &matcher{n: n, full: n, nw: nw, weight: make([]wt, n*n), off: make([]bool, n)}
}

func (m *matcher) set(i, j int, w wt) { m.weight[i*m.full+j], m.weight[j*m.full+i] = w, w }

func (m *matcher) isZero(a *wt) bool {
	for i := 0; i < m.nw; i++ {
		if a[i] != 0 {
			return false
		}
	}
	return true
}

func (m *matcher) add(a, b *wt) (r wt) {
	var c uint64
	for i := 0; i < m.nw; i++ {
		r[i], c = add64(a[i], b[i], c)
	}
	return r
}

func (m *matcher) sub(a, b *wt) (r wt) {
	var br uint64
	for i := 0; i < m.nw; i++ {
		r[i], br = sub64(a[i], b[i], br)
	}
	return r
}

func (m *matcher) less(a, b *wt) bool {
	for i := m.nw - 1; i >= 0; i-- {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func (m *matcher) half(a *wt) (r wt) {
	for i := 0; i < m.nw; i++ {
		r[i] = a[i] >> 1
		if i+1 < m.nw {
			r[i] |= a[i+1] << 63
		}
	}
	return r
}

// slack is dual(u) + dual(v) − 2·weight of edge k, never negative; ew
// holds the doubled weights. One pass: the carry of the sum and the
// borrow of the difference run side by side (the result fits).
func (m *matcher) slack(k int) (r wt) {
	m.slackTo(k, &r)
	return r
}

// slackLess tells whether edge a's slack is below edge b's.
func (m *matcher) slackLess(a, b int) bool {
	m.slackTo(a, &m.t1)
	return m.below(&m.t1, b)
}

// below tells whether s is less than edge k's slack.
func (m *matcher) below(s *wt, k int) bool {
	m.slackTo(k, &m.t2)
	return m.less(s, &m.t2)
}

// slackTo writes edge k's slack into r (its first nw words).
func (m *matcher) slackTo(k int, r *wt) {
	e := m.edges[k]
	du, dv, w := &m.dual[e[0]], &m.dual[e[1]], &m.ew[k]
	var c, br uint64
	for i := 0; i < m.nw; i++ {
		var s uint64
		s, c = add64(du[i], dv[i], c)
		r[i], br = sub64(s, w[i], br)
	}
}

func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, t := range m.blossomchilds[b] {
		out = m.leaves(t, out)
	}
	return out
}

func (m *matcher) assignLabel(w, t, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	if t == 1 {
		m.queue = m.leaves(b, m.queue)
	} else if t == 2 {
		base := m.blossombase[b]
		m.assignLabel(m.endpoint[m.mate[base]], 1, m.mate[base]^1)
	}
}

func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.blossombase[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k][0], m.edges[k][1]
	bb, bv, bw := m.inblossom[base], m.inblossom[v], m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.blossombase[b], m.blossomparent[b], m.blossomparent[bb] = base, -1, b
	var path, endps []int
	for bv != bb {
		m.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.blossomchilds[b], m.blossomendps[b] = path, endps
	m.label[b], m.labelend[b] = 1, m.labelend[bb]
	m.dual[b] = wt{}
	for _, v := range m.leaves(b, nil) {
		if m.label[m.inblossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inblossom[v] = b
	}
	bestto := make([]int, 2*m.n)
	for i := range bestto {
		bestto[i] = -1
	}
	consider := func(k int) {
		i, j := m.edges[k][0], m.edges[k][1]
		if m.inblossom[j] == b {
			i, j = j, i
		}
		_ = i
		bj := m.inblossom[j]
		if bj != b && m.label[bj] == 1 {
			if bestto[bj] == -1 {
				bestto[bj] = k
			} else if m.slackLess(k, bestto[bj]) {
				bestto[bj] = k
			}
		}
	}
	for _, bv := range path {
		if !m.hasBestList[bv] {
			for _, v := range m.leaves(bv, nil) {
				for _, p := range m.neighb[v] {
					consider(p / 2)
				}
			}
		} else {
			for _, k := range m.blossombestedges[bv] {
				consider(k)
			}
		}
		m.blossombestedges[bv], m.hasBestList[bv] = nil, false
		m.bestedge[bv] = -1
	}
	var list []int
	for _, k := range bestto {
		if k != -1 {
			list = append(list, k)
		}
	}
	m.blossombestedges[b], m.hasBestList[b] = list, true
	m.bestedge[b] = -1
	for _, k := range list {
		if m.bestedge[b] == -1 {
			m.bestedge[b] = k
		} else if m.slackLess(k, m.bestedge[b]) {
			m.bestedge[b] = k
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func at(s []int, j int) int {
	l := len(s)
	return s[((j%l)+l)%l]
}

func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.blossomchilds[b] {
		m.blossomparent[s] = -1
		if s < m.n {
			m.inblossom[s] = s
		} else if endstage && m.isZero(&m.dual[s]) {
			m.expandBlossom(s, endstage)
		} else {
			for _, v := range m.leaves(s, nil) {
				m.inblossom[v] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		childs, endps := m.blossomchilds[b], m.blossomendps[b]
		entry := m.inblossom[m.endpoint[m.labelend[b]^1]]
		j := 0
		for childs[j] != entry {
			j++
		}
		var jstep, trick int
		if j&1 != 0 {
			j -= len(childs)
			jstep, trick = 1, 0
		} else {
			jstep, trick = -1, 1
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[at(endps, j-trick)^trick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowedge[at(endps, j-trick)/2] = true
			j += jstep
			p = at(endps, j-trick) ^ trick
			m.allowedge[p/2] = true
			j += jstep
		}
		bv := at(childs, j)
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for at(childs, j) != entry {
			bv := at(childs, j)
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			v := -1
			for _, x := range m.leaves(bv, nil) {
				v = x
				if m.label[x] != 0 {
					break
				}
			}
			if m.label[v] != 0 {
				m.label[v] = 0
				m.label[m.endpoint[m.mate[m.blossombase[bv]]]] = 0
				m.assignLabel(v, 2, m.labelend[v])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.blossomchilds[b], m.blossomendps[b] = nil, nil
	m.blossombase[b] = -1
	m.blossombestedges[b], m.hasBestList[b] = nil, false
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.blossomparent[t] != b {
		t = m.blossomparent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.blossomchilds[b], m.blossomendps[b]
	i := 0
	for childs[i] != t {
		i++
	}
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= len(childs)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = at(childs, j)
		p := at(endps, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = at(childs, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]], m.mate[m.endpoint[p^1]] = p^1, p
	}
	m.blossomchilds[b] = append(append([]int(nil), childs[i:]...), childs[:i]...)
	m.blossomendps[b] = append(append([]int(nil), endps[i:]...), endps[:i]...)
	m.blossombase[b] = m.blossombase[m.blossomchilds[b][0]]
}

func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k][0], m.edges[k][1]
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

// solve returns each vertex's mate (-1 for none) in a matching of
// greatest total weight.
func (m *matcher) solve() []int {
	var act []int
	for v := range m.full {
		if !m.off[v] {
			act = append(act, v)
		}
	}
	n := len(act)
	m.n = n
	defer func() { m.n = m.full }()
	m.edges, m.ew = m.edges[:0], m.ew[:0]
	var maxw wt
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w := &m.weight[act[i]*m.full+act[j]]
			if m.isZero(w) {
				continue
			}
			m.edges = append(m.edges, [2]int{i, j})
			m.ew = append(m.ew, m.add(w, w))
			if m.less(&maxw, w) {
				maxw = *w
			}
		}
	}
	ne := len(m.edges)
	m.endpoint = make([]int, 2*ne)
	m.neighb = make([][]int, n)
	for k, e := range m.edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e[0], e[1]
		m.neighb[e[0]] = append(m.neighb[e[0]], 2*k+1)
		m.neighb[e[1]] = append(m.neighb[e[1]], 2*k)
	}
	ints := func(k, v int) []int {
		s := make([]int, k)
		for i := range s {
			s[i] = v
		}
		return s
	}
	m.mate = ints(n, -1)
	m.label = make([]int, 2*n)
	m.labelend = ints(2*n, -1)
	m.inblossom = make([]int, n)
	for i := range m.inblossom {
		m.inblossom[i] = i
	}
	m.blossomparent = ints(2*n, -1)
	m.blossomchilds = make([][]int, 2*n)
	m.blossombase = make([]int, 2*n)
	for i := range m.blossombase {
		if i < n {
			m.blossombase[i] = i
		} else {
			m.blossombase[i] = -1
		}
	}
	m.blossomendps = make([][]int, 2*n)
	m.bestedge = ints(2*n, -1)
	m.blossombestedges = make([][]int, 2*n)
	m.hasBestList = make([]bool, 2*n)
	m.unused = m.unused[:0]
	for i := n; i < 2*n; i++ {
		m.unused = append(m.unused, i)
	}
	m.dual = make([]wt, 2*n)
	for i := 0; i < n; i++ {
		m.dual[i] = maxw
	}
	m.allowedge = make([]bool, ne)
	for range n {
		for i := range m.label {
			m.label[i] = 0
		}
		for i := range m.bestedge {
			m.bestedge[i] = -1
		}
		for i := n; i < 2*n; i++ {
			m.blossombestedges[i], m.hasBestList[i] = nil, false
		}
		clear(m.allowedge)
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighb[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					ks := &m.t1
					if !m.allowedge[k] {
						m.slackTo(k, ks)
						if m.isZero(ks) {
							m.allowedge[k] = true
						}
					}
					if m.allowedge[k] {
						if m.label[m.inblossom[w]] == 0 {
							m.assignLabel(w, 2, p^1)
						} else if m.label[m.inblossom[w]] == 1 {
							base := m.scanBlossom(v, w)
							if base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
								break
							}
						} else if m.label[w] == 0 {
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
					} else if m.label[m.inblossom[w]] == 1 {
						b := m.inblossom[v]
						if m.bestedge[b] == -1 {
							m.bestedge[b] = k
						} else if m.below(ks, m.bestedge[b]) {
							m.bestedge[b] = k
						}
					} else if m.label[w] == 0 {
						if m.bestedge[w] == -1 {
							m.bestedge[w] = k
						} else if m.below(ks, m.bestedge[w]) {
							m.bestedge[w] = k
						}
					}
				}
			}
			if augmented {
				break
			}
			deltatype := 1
			delta := m.dual[0]
			for v := 1; v < n; v++ {
				if m.less(&m.dual[v], &delta) {
					delta = m.dual[v]
				}
			}
			deltaedge, deltablossom := -1, -1
			for v := 0; v < n; v++ {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					d := m.slack(m.bestedge[v])
					if m.less(&d, &delta) {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if m.blossomparent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					s := m.slack(m.bestedge[b])
					d := m.half(&s)
					if m.less(&d, &delta) {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 && m.label[b] == 2 && m.less(&m.dual[b], &delta) {
					delta, deltatype, deltablossom = m.dual[b], 4, b
				}
			}
			for v := 0; v < n; v++ {
				switch m.label[m.inblossom[v]] {
				case 1:
					m.dual[v] = m.sub(&m.dual[v], &delta)
				case 2:
					m.dual[v] = m.add(&m.dual[v], &delta)
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] = m.add(&m.dual[b], &delta)
					case 2:
						m.dual[b] = m.sub(&m.dual[b], &delta)
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				m.allowedge[deltaedge] = true
				i, j := m.edges[deltaedge][0], m.edges[deltaedge][1]
				if m.label[m.inblossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				m.queue = append(m.queue, i)
			case 3:
				m.allowedge[deltaedge] = true
				m.queue = append(m.queue, m.edges[deltaedge][0])
			case 4:
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.blossomparent[b] == -1 && m.blossombase[b] >= 0 && m.label[b] == 1 && m.isZero(&m.dual[b]) {
				m.expandBlossom(b, true)
			}
		}
	}
	out := make([]int, m.full)
	for v := range out {
		out[v] = -1
	}
	for v := range n {
		if m.mate[v] >= 0 {
			out[act[v]] = act[m.endpoint[m.mate[v]]]
		}
	}
	return out
}
