package camelot

import (
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// maxAlternatives bounds the moves listed in an error.
const maxAlternatives = 6

// FormatMove writes a move in full notation (§6).
func (p *Position) FormatMove(m engine.Move) string {
	switch v := m.(type) {
	case Move:
		return v.String()
	case *Move:
		if v != nil {
			return v.String()
		}
	}
	return "?"
}

// written is a move as a player typed it: squares and the separators before
// each square after the first.
type written struct {
	text string
	sqs  []int
	seps []byte
}

// readMove splits player input into squares. It accepts any case, spaces,
// and '-', '^', 'x', ':', '*' or nothing between squares.
func readMove(s string) (written, *engine.Error) {
	w := written{text: strings.TrimSpace(s)}
	t := strings.Join(strings.Fields(w.text), "")
	if t == "" || len(t) > 400 {
		return w, errorf(codeSyntax, strings.ToValidUTF8(w.text, "?"))
	}
	sep := byte(0)
	for i := 0; i < len(t); {
		if len(w.sqs) > 0 {
			switch t[i] {
			case '-', '^', 'x', 'X', ':', '*':
				if sep != 0 {
					return w, errorf(codeSyntax, w.text)
				}
				sep = t[i]
				if sep == 'X' {
					sep = 'x'
				}
				i++
				continue
			}
		}
		sq, n, ok := parseSquare(t[i:])
		if !ok {
			return w, unreadable(w, t[i:], sep)
		}
		if sq == noSq {
			return w, errorf(codeNoSquare, strings.ToUpper(t[i:i+n]))
		}
		if len(w.sqs) > 0 {
			w.seps = append(w.seps, sep)
		}
		w.sqs = append(w.sqs, sq)
		sep = 0
		i += n
	}
	if sep != 0 {
		return w, errorf(codeTrailing, w.text, strconv.QuoteRune(rune(sep)))
	}
	if len(w.sqs) < 2 {
		return w, errorf(codeSyntax, w.text)
	}
	return w, nil
}

// unreadable says what stopped readMove at rest: marks after the last
// square ("E7-E8+", "E8xE10!!"), a character that has no place in a move
// (quoted as the character it is), or else the general syntax.
func unreadable(w written, rest string, sep byte) *engine.Error {
	text := strings.ToValidUTF8(w.text, "?")
	if len(w.sqs) > 0 && sep == 0 && !strings.ContainsAny(rest, "0123456789") {
		return errorf(codeTrailing, text, strconv.Quote(strings.ToValidUTF8(rest, "?")))
	}
	for _, r := range rest {
		if !isMoveChar(r) {
			return errorf(codeBadChar, text, strconv.QuoteRune(r))
		}
	}
	return errorf(codeSyntax, text)
}

// isMoveChar reports whether r can appear in a move: square letters and
// digits, and the separators readMove accepts.
func isMoveChar(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune("-^x:*", r)
}

// ParseMove reads a move: the full route (any valid route with the same
// result names the same move), or the short form FROM-TO / FROMxTO when it
// names one legal move.
func (p *Position) ParseMove(s string) (engine.Move, error) {
	w, err := readMove(s)
	if err != nil {
		return nil, err
	}
	legal := p.legal()
	if len(legal) == 0 {
		return nil, errorf(codeNoMoves)
	}
	from := w.sqs[0]
	c := p.board[from]
	if c == empty || pieceSide(c) != p.turn {
		code := codeNoPiece
		if c != empty {
			code = codeNotYours
		}
		e := errorf(code, squareName(from))
		e.Alternatives = nearest(legal, from, w.sqs[len(w.sqs)-1])
		return nil, e
	}
	to, caps, routeOK := p.simulate(w.sqs)
	if routeOK {
		for _, m := range legal {
			if int(m.from) == from && int(m.to) == to && m.caps == caps {
				return m, nil
			}
		}
	}
	if len(w.sqs) == 2 {
		var cands []Move
		for _, m := range legal {
			if int(m.from) == from && int(m.to) == w.sqs[1] {
				cands = append(cands, m)
			}
		}
		if w.seps[0] == 'x' {
			cands = filter(cands, Move.IsCapture)
		}
		if len(cands) == 1 {
			return cands[0], nil
		}
		if len(cands) > 1 {
			e := errorf(codeAmbiguous, strings.ToUpper(w.text), joinMoves(cands))
			e.Alternatives = names(cands)
			return nil, e
		}
	}
	return nil, p.explain(w, legal, to, caps, routeOK)
}

// simulate follows a written route on the board: single steps, canters over
// own pieces and jumps over enemy ones (removed at once), canters never after
// a jump. It returns the end square and the captured set.
func (p *Position) simulate(sqs []int) (int, [3]uint64, bool) {
	var caps [3]uint64
	b := p.board
	side := p.turn
	b[sqs[0]] = empty
	jumped := false
	for i := 1; i < len(sqs); i++ {
		a, z := sqs[i-1], sqs[i]
		df, dr := z%files-a%files, z/files-a/files
		if b[z] != empty || (df == 0 && dr == 0) {
			return 0, caps, false
		}
		if abs(df) <= 1 && abs(dr) <= 1 {
			if len(sqs) != 2 {
				return 0, caps, false
			}
			continue
		}
		if (df != 0 && abs(df) != 2) || (dr != 0 && abs(dr) != 2) {
			return 0, caps, false
		}
		mid := a + df/2 + dr/2*files
		mc := b[mid]
		switch {
		case mc == empty:
			return 0, caps, false
		case pieceSide(mc) == side:
			if jumped {
				return 0, caps, false
			}
		default:
			jumped = true
			b[mid] = empty
			caps[mid>>6] |= 1 << (mid & 63)
		}
	}
	return sqs[len(sqs)-1], caps, true
}

func adjacent(a, b int) bool { return abs(a%files-b%files) <= 1 && abs(a/files-b/files) <= 1 }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// explain builds the error for a written move that is not legal, naming the
// rule it breaks and the closest legal moves.
func (p *Position) explain(w written, legal []Move, to int, caps [3]uint64, routeOK bool) *engine.Error {
	from := w.sqs[0]
	last := w.sqs[len(w.sqs)-1]
	_, duty := p.gen()
	fromHere := filter(legal, func(m Move) bool { return int(m.from) == from })
	var e *engine.Error
	switch {
	case duty&dutyLeave != 0 && len(fromHere) == 0:
		e = errorf(codeMustLeave, squareName(int(legal[0].from)), joinMoves(legal))
		e.Alternatives = names(legal)
		return e
	case duty&dutyCapture != 0 && caps == [3]uint64{} && duty&dutyLeave == 0:
		e = errorf(codeMustCapture, joinMoves(legal))
		e.Alternatives = names(legal)
		return e
	case inCastle(from, p.turn.Opponent()):
		if p.castles[p.turn] >= MaxCastleMoves && len(w.sqs) == 2 && inCastle(last, p.turn.Opponent()) {
			e = errorf(codeCastleMoves)
		} else {
			e = errorf(codeStuckInCastle)
		}
	case routeOK && inCastle(last, p.turn) && caps == [3]uint64{}:
		e = errorf(codeOwnCastle)
	case routeOK && caps != [3]uint64{}:
		// A jump chain that stopped early: offer the chains that extend it.
		var longer []Move
		for _, m := range fromHere {
			if m.caps != caps && m.caps[0]&caps[0] == caps[0] && m.caps[1]&caps[1] == caps[1] && m.caps[2]&caps[2] == caps[2] {
				longer = append(longer, m)
			}
		}
		if len(longer) > 0 {
			e = errorf(codeMustContinue, joinMoves(longer))
			e.Alternatives = names(longer)
			return e
		}
		e = errorf(codeIllegal, strings.ToUpper(w.text))
	case routeOK && isKnight(p.board[from]) && !adjacent(from, to):
		charges := filter(fromHere, Move.IsCapture)
		if len(charges) > 0 {
			e = errorf(codeKnightClause, joinMoves(charges))
			e.Alternatives = names(charges)
			return e
		}
		e = errorf(codeIllegal, strings.ToUpper(w.text))
	default:
		e = errorf(codeIllegal, strings.ToUpper(w.text))
	}
	alts := fromHere
	if len(alts) == 0 {
		alts = filter(legal, func(m Move) bool { return int(m.to) == last })
	}
	e.Alternatives = names(alts)
	if len(alts) == 0 {
		e.Alternatives = nearest(legal, from, last)
	}
	return e
}

func filter(ms []Move, keep func(Move) bool) []Move {
	var out []Move
	for _, m := range ms {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

func names(ms []Move) []string {
	n := min(len(ms), maxAlternatives)
	out := make([]string, n)
	for i := range n {
		out[i] = ms[i].String()
	}
	return out
}

// joinMoves lists moves for a message, shortened after maxAlternatives.
func joinMoves(ms []Move) string {
	s := strings.Join(names(ms), " or ")
	if len(ms) > maxAlternatives {
		s += " …"
	}
	return s
}
