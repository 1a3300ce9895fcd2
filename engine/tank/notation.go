package tank

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tankbot/tankbot/engine"
)

// Move notation (rules §10): canonical `E2 > E5N`, `G8 > G8NE (K12)`,
// `I15 > OFF`. Input is forgiving: any case; `>`, `-`, `+`, `,` or spaces
// between parts; the facing may be omitted when it does not change; the
// target may be written `(K12)`, `xK12` or just `K12`; announcement
// suffixes are ignored.

type token struct {
	word string // upper-case word ("NE", "OFF", "X") when sq is not set
	sq   Square
	isSq bool
	text string
}

func lexMove(s string) ([]token, error) {
	u := asciiUpper(s) // byte for byte, so indices into u are indices into s
	toks := make([]token, 0, 8)
	for i := 0; i < len(u); {
		ch := u[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '>' || ch == '-' || ch == '+' || ch == ',' || ch == '(' || ch == ')':
			i++
			continue
		case ch >= 'A' && ch <= 'Z':
		case ch >= '0' && ch <= '9':
			return nil, syntaxErr(s, "a rank number must follow a file letter")
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return nil, syntaxErr(s, "unexpected character "+strconv.QuoteRune(r))
		}
		j := i
		for j < len(u) && u[j] >= 'A' && u[j] <= 'Z' {
			j++
		}
		k := j
		for k < len(u) && u[k] >= '0' && u[k] <= '9' {
			k++
		}
		if k == j {
			toks = append(toks, token{word: u[i:j], text: s[i:j]})
			i = j
			continue
		}
		if j-1 > i {
			toks = append(toks, token{word: u[i : j-1], text: s[i : j-1]})
		}
		if k-j > 3 {
			return nil, syntaxErr(s, "rank number "+u[j:k]+" is too long")
		}
		r, _ := strconv.Atoi(u[j:k])
		toks = append(toks, token{isSq: true, sq: Square{File: int(u[j-1] - 'A'), Rank: r - 1}, text: s[j-1 : k]})
		i = k
	}
	return toks, nil
}

// asciiUpper upper-cases ASCII letters only: strings.ToUpper may change
// the byte length of other characters.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// cutSuffix splits off the announcement a player may append (rules §10:
// + CHECK, - ESCAPE, +- both) and refuses any other ending made of those
// marks ("++", "+-+-", "!"), which would otherwise read as separators.
func cutSuffix(s string) (string, *engine.Error) {
	end := len(s)
	for end > 0 && strings.IndexByte(" \t+-!?", s[end-1]) >= 0 {
		end--
	}
	mark := strings.Join(strings.Fields(s[end:]), "")
	switch mark {
	case "", "+", "-", "+-":
		return s[:end], nil
	}
	return "", engine.Errorf(CodeSuffix, Messages[CodeSuffix], strconv.Quote(mark))
}

func parseDir(w string) (Dir, bool) {
	for d, n := range dirNames {
		if w == n {
			return Dir(d), true
		}
	}
	return 0, false
}

// moveSpec is what a player wrote, before it is matched to a legal move.
type moveSpec struct {
	from, to, target        Square
	facing                  Dir
	hasTo, hasFacing, hasTg bool
	escape                  bool
}

func parseSpec(s string) (moveSpec, error) {
	var sp moveSpec
	body, serr := cutSuffix(s)
	if serr != nil {
		return sp, serr
	}
	toks, err := lexMove(body)
	if err != nil {
		return sp, err
	}
	if len(toks) == 0 {
		return sp, syntaxErr(s, "it is empty")
	}
	if !toks[0].isSq {
		return sp, syntaxErr(s, "it must start with the square of the piece, like E2")
	}
	sp.from = toks[0].sq
	state := 1 // 1: want destination, 2: after destination, 3: after target
	for _, t := range toks[1:] {
		switch {
		case state == 1 && !t.isSq && t.word == "OFF":
			sp.escape = true
			state = 4
		case state == 1 && t.isSq:
			sp.to, sp.hasTo = t.sq, true
			state = 2
		case state == 1:
			return sp, syntaxErr(s, "expected the destination square or OFF, not "+t.text)
		case state == 2 && !t.isSq:
			w := t.word
			if strings.HasSuffix(w, "X") && w != "X" {
				w = strings.TrimSuffix(w, "X") // "NEXK12": facing then target marker
			}
			if w == "X" {
				continue
			}
			d, ok := parseDir(w)
			if !ok || sp.hasFacing {
				return sp, syntaxErr(s, "expected a facing (N, NE, E, SE, S, SW, W, NW) or a target, not "+t.text)
			}
			sp.facing, sp.hasFacing = d, true
		case state == 2:
			sp.target, sp.hasTg = t.sq, true
			state = 3
		case state == 4 && t.isSq:
			sp.target, sp.hasTg = t.sq, true
		case state == 4 && t.word == "X":
		default:
			return sp, syntaxErr(s, "unexpected "+t.text+" at the end")
		}
	}
	if state == 1 {
		return sp, syntaxErr(s, "the destination is missing, like "+squareName(sp.from)+" > "+squareName(Square{sp.from.File, sp.from.Rank + 1})+"N")
	}
	return sp, nil
}

func syntaxErr(s, why string) *engine.Error {
	return engine.Errorf(CodeSyntax, Messages[CodeSyntax], strconv.Quote(s), why)
}

// ParseMove reads a move as a player writes it and matches it to a legal
// move; the error says why nothing matched and lists close alternatives.
func (p *Position) ParseMove(s string) (engine.Move, error) {
	m, err := p.ParseTankMove(s)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// ParseTankMove is ParseMove with the concrete type.
func (p *Position) ParseTankMove(s string) (Move, error) {
	if p.Status().Over() {
		return Move{}, errGameOver()
	}
	sp, err := parseSpec(s)
	if err != nil {
		return Move{}, err
	}
	for _, sq := range []Square{sp.from, sp.to, sp.target} {
		if !p.b.onBoard(sq) {
			return Move{}, engine.Errorf(CodeBadSquare, Messages[CodeBadSquare], squareName(sq))
		}
	}
	m := Move{From: sp.from, To: sp.to, Facing: sp.facing, Target: sp.target, HasTarget: sp.hasTg, Escape: sp.escape}
	if !sp.hasFacing {
		m.Facing = p.At(sp.from).Piece.Facing
	}
	m = normalize(m)
	if !sp.escape || !sp.hasTg {
		b := p.b.work()
		_, ok := b.find(m)
		b.release()
		if ok {
			return m, nil
		}
	}
	legal := p.moves()
	if sp.escape && sp.hasTg {
		return Move{}, p.withAlternatives(engine.Errorf(CodeEscapeNoFire, Messages[CodeEscapeNoFire]), m, legal)
	}
	return Move{}, p.explain(m, legal)
}

// illegal explains why a Move given to Play is not legal.
func (p *Position) illegal(m Move) error {
	return p.explain(normalize(m), p.moves())
}

// explain says why m (not among legal) is illegal, with alternatives.
func (p *Position) explain(m Move, legal []Move) *engine.Error {
	e := p.reason(m, legal)
	return p.withAlternatives(e, m, legal)
}

func (p *Position) reason(m Move, legal []Move) *engine.Error {
	fail := func(code string, args ...string) *engine.Error {
		return engine.Errorf(code, Messages[code], args...)
	}
	if !p.b.onBoard(m.From) || (!m.Escape && (!p.b.onBoard(m.To) || (m.HasTarget && !p.b.onBoard(m.Target)))) {
		return fail(CodeIllegal, m.String())
	}
	c := p.At(m.From)
	pc := c.Piece
	switch {
	case c.Obstacle || pc.Kind == None:
		return fail(CodeNoPiece, squareName(m.From))
	case pc.Wreck:
		return fail(CodeWreckPiece, squareName(m.From))
	case pc.Side != p.b.turn:
		return fail(CodeNotYours, squareName(m.From))
	}
	if m.Escape {
		if pc.Kind != CLT {
			return fail(CodeOnlyCLT, squareName(m.From), pc.Kind.String())
		}
		return fail(CodeNoEscape, squareName(m.From))
	}
	if m.To == m.From && m.Facing == pc.Facing {
		return fail(CodeSamePose, pc.Kind.String(), squareName(m.From))
	}
	reachable, square := false, false
	for _, l := range legal {
		if !l.Escape && l.From == m.From && l.To == m.To {
			square = true
			if l.Facing == m.Facing {
				reachable = true
				break
			}
		}
	}
	if !square {
		// No facing helps: the square itself is too far or walled off.
		return fail(CodeOutOfReach, pc.Kind.String(), squareName(m.From), strconv.Itoa(pc.Kind.Stats().Speed), squareName(m.To))
	}
	if !reachable {
		return fail(CodeUnreachable, pc.Kind.String(), squareName(m.From), strconv.Itoa(pc.Kind.Stats().Speed), squareName(m.To), m.Facing.String())
	}
	if m.HasTarget {
		if e := p.shotReason(pc, m); e != nil {
			return e
		}
	}
	return fail(CodeIllegal, m.String())
}

// shotReason explains why the piece pc, having moved as m, cannot destroy
// m.Target.
func (p *Position) shotReason(pc Piece, m Move) *engine.Error {
	fail := func(code string, args ...string) *engine.Error {
		return engine.Errorf(code, Messages[code], args...)
	}
	at := func(s Square) Cell {
		if s == m.From {
			return Cell{} // the shooter drove away from its square
		}
		return p.At(s)
	}
	T := m.Target
	if T == m.To {
		return fail(CodeSelfTarget)
	}
	tc := at(T)
	switch {
	case tc.Obstacle || tc.Piece.Kind == None:
		return fail(CodeNoTarget, squareName(T))
	case tc.Piece.Wreck:
		return fail(CodeWreckTarget, squareName(T))
	case tc.Piece.Side == pc.Side:
		return fail(CodeOwnTarget, squareName(T))
	}
	st := pc.Kind.Stats()
	dx, dy := T.File-m.To.File, T.Rank-m.To.Rank
	adx, ady := abs(dx), abs(dy)
	line := dx == 0 || dy == 0 || adx == ady
	dist := max(adx, ady)
	var d Dir
	if line {
		for k := Dir(0); k < 8; k++ {
			if df, dr := k.Delta(); df == sign(dx) && dr == sign(dy) {
				d = k
			}
		}
	}
	if st.Indirect {
		if !line || d != m.Facing || dist < 3 || dist > 5 {
			return fail(CodeMortarRange, squareName(T))
		}
	} else {
		inArc := line && (d == m.Facing || (st.Turret && (d == m.Facing.Left() || d == m.Facing.Right())))
		if !inArc {
			return fail(CodeOutOfArc, squareName(T), pc.Kind.String(), squareName(m.To), m.Facing.String())
		}
		if dist == 1 {
			return fail(CodeAdjacent, squareName(T), squareName(m.To))
		}
		df, dr := d.Delta()
		for k := 1; k < dist; k++ {
			s := Square{m.To.File + df*k, m.To.Rank + dr*k}
			if !at(s).Empty() {
				return fail(CodeBlocked, squareName(m.To), squareName(T), squareName(s))
			}
		}
	}
	tp := tc.Piece
	ts := tp.Kind.Stats()
	side, armour := "side", ts.Side
	switch d {
	case tp.Facing.Opposite():
		side, armour = "front", ts.Front
	case tp.Facing:
		side, armour = "rear", ts.Rear
	}
	if st.Gun <= armour {
		return fail(CodeWeakShot, st.Short, strconv.Itoa(st.Gun), ts.Short, side, strconv.Itoa(armour))
	}
	return nil
}

// withAlternatives adds up to five legal moves close to m: the same
// piece's moves first (nearest destination, facing and target), then
// moves of the nearest pieces.
func (p *Position) withAlternatives(e *engine.Error, m Move, legal []Move) *engine.Error {
	type scored struct {
		s int
		n string
	}
	want := m.To
	if m.Escape {
		want = m.From
		if p.b.turn == engine.White {
			want.Rank = p.b.h
		} else {
			want.Rank = -1
		}
	}
	var all []scored
	for _, l := range legal {
		s := 1000 * chebyshev(l.From, m.From)
		if l.Escape != m.Escape {
			s += 50
		}
		if !l.Escape {
			s += 10 * chebyshev(l.To, want)
			fd := int((l.Facing - m.Facing) & 7)
			s += min(fd, 8-fd)
			if l.HasTarget != m.HasTarget || (m.HasTarget && l.Target != m.Target) {
				s += 5
			}
		}
		all = append(all, scored{s, l.String()})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].s != all[j].s {
			return all[i].s < all[j].s
		}
		return all[i].n < all[j].n
	})
	for i := 0; i < len(all) && i < 5; i++ {
		e.Alternatives = append(e.Alternatives, all[i].n)
	}
	return e
}

func chebyshev(a, b Square) int { return max(abs(a.File-b.File), abs(a.Rank-b.Rank)) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
