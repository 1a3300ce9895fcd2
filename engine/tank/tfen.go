package tank

import (
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// EscapedField is the optional last TFEN field of a finished game whose
// CLT escaped: the side that is not to move (the one that just moved) has
// won by escape and its CLT is no longer on the board.
const EscapedField = "escaped"

const maxMoveNumber = 1_000_000

var facingNames = [8]string{"n", "ne", "e", "se", "s", "sw", "w", "nw"}

// ParseTFEN reads a position written as `ROWS SIDE [MOVE] [escaped]`
// (rules §9). Errors are *engine.Error values naming the rank and column.
func ParseTFEN(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		// An empty string is a mistake, never a silent request for the default map.
		return nil, tfenErr(CodeTFENEmpty)
	}
	if len(fields) < 2 || len(fields) > 4 {
		return nil, tfenErr(CodeTFENFields, strconv.Itoa(len(fields)))
	}
	rows := strings.Split(fields[0], "/")
	n := len(rows)
	// Read every rank first, so that a board of the wrong shape is named
	// for what it is (too few ranks, not square) rather than by the first
	// rank that happens to disagree with the rank count. The cells go into
	// one buffer; ends[i] is where rank i (from the top) stops.
	cells := make([]byte, 0, min(n, maxSize)*min(n, maxSize)) // n comes from the input: bound it
	ends := make([]int, n)
	for i, row := range rows {
		rank := n - i // 1-based rank as written
		start := len(cells)
		for j := 0; j < len(row); {
			c, size, err := parseToken(row[j:], rank, len(cells)-start)
			if err != nil {
				return nil, err
			}
			cells = append(cells, c)
			j += size
		}
		ends[i] = len(cells)
	}
	width := func(i int) int {
		if i == 0 {
			return ends[0]
		}
		return ends[i] - ends[i-1]
	}
	same := true
	for i := range ends {
		same = same && width(i) == width(0)
	}
	if w := width(0); same && w != n && w >= minSize && w <= maxSize {
		return nil, tfenErr(CodeTFENRankCount, strconv.Itoa(n), strconv.Itoa(w))
	}
	if n < minSize || n > maxSize {
		return nil, tfenErr(CodeTFENSize, strconv.Itoa(n))
	}
	b := newBoard(n, n)
	clts := [2]int{}
	for i := range ends {
		rank := n - i
		if width(i) != n {
			return nil, tfenErr(CodeTFENRankWidth, strconv.Itoa(rank), strconv.Itoa(width(i)), strconv.Itoa(n))
		}
		for col, c := range cells[ends[i]-n : ends[i]] {
			if c&kindMask == byte(CLT) {
				clts[cellSide(c)]++
			}
			b.cells[b.index(col, rank-1)] = c
		}
	}
	switch fields[1] {
	case "w":
		b.turn = engine.White
	case "b":
		b.turn = engine.Black
	default:
		return nil, tfenErr(CodeTFENSide, fields[1])
	}
	moveNo := 1
	rest := fields[2:]
	if len(rest) > 0 && rest[0] != EscapedField {
		v, err := strconv.Atoi(rest[0])
		if err != nil || v < 1 || v > maxMoveNumber {
			return nil, tfenErr(CodeTFENMoveNumber, rest[0])
		}
		moveNo = v
		rest = rest[1:]
	}
	if len(rest) > 0 {
		if rest[0] != EscapedField || len(rest) > 1 {
			return nil, tfenErr(CodeTFENField, rest[0])
		}
		b.escaped = int8(b.turn.Opponent()) + 1
	}
	for side := range clts {
		if clts[side] > 1 {
			return nil, tfenErr(CodeTFENCLTCount, engine.Side(side).String(), strconv.Itoa(clts[side]))
		}
	}
	wrecked := 0
	for _, c := range b.cells {
		if c&wreckBit != 0 && c&kindMask == byte(CLT) {
			wrecked++
		}
	}
	if wrecked > 1 {
		return nil, tfenErr(CodeTFENTwoWrecks)
	}
	if b.escaped != 0 {
		if wrecked > 0 {
			return nil, tfenErr(CodeTFENEscapeWreck)
		}
		if clts[b.turn.Opponent()] != 0 {
			return nil, tfenErr(CodeTFENEscapeCLT, b.turn.Opponent().String())
		}
	}
	return newPosition(b, moveNo), nil
}

// fileName is the letter of a 0-based column, or its number past z.
func fileName(col int) string {
	if col < 26 {
		return string(rune('a' + col))
	}
	return strconv.Itoa(col + 1)
}

// quoteStart quotes the first n characters (runes, not bytes) of s, so a
// player who typed "é" reads "é" back, not half of its bytes.
func quoteStart(s string, n int) string {
	end := len(s)
	for k := range s {
		if n == 0 {
			end = k
			break
		}
		n--
	}
	return strconv.Quote(s[:end])
}

// parseToken reads one square token at the start of s.
func parseToken(s string, rank, col int) (c byte, size int, err error) {
	bad := func() (byte, int, error) {
		return 0, 0, tfenErr(CodeTFENToken, strconv.Itoa(rank), strconv.Itoa(col+1), fileName(col), quoteStart(s, 4))
	}
	switch s[0] {
	case '.':
		return cellEmpty, 1, nil
	case '#':
		return cellObstacle, 1, nil
	}
	wreck := false
	i := 0
	if s[0] == 'x' {
		wreck = true
		i = 1
	}
	if i >= len(s) {
		return bad()
	}
	k, side, ok := kindOfLetter(s[i])
	if !ok {
		return bad()
	}
	i++
	f, n, ok := parseFacing(s[i:])
	if !ok {
		return bad()
	}
	return makeCell(k, side, f, wreck), i + n, nil
}

func kindOfLetter(ch byte) (Kind, engine.Side, bool) {
	side := engine.White
	if ch >= 'a' && ch <= 'z' {
		side = engine.Black
		ch -= 'a' - 'A'
	}
	for _, k := range Kinds {
		if kindStats[k].Code == ch {
			return k, side, true
		}
	}
	return None, side, false
}

// parseFacing reads a lower-case facing at the start of s (greedy: "ne"
// before "n").
func parseFacing(s string) (Dir, int, bool) {
	if len(s) >= 2 {
		for d, name := range facingNames {
			if len(name) == 2 && s[:2] == name {
				return Dir(d), 2, true
			}
		}
	}
	if len(s) >= 1 {
		for d, name := range facingNames {
			if len(name) == 1 && s[:1] == name {
				return Dir(d), 1, true
			}
		}
	}
	return 0, 0, false
}

// Encode writes the canonical TFEN of the position.
func (p *Position) Encode() string {
	b := p.b
	var sb strings.Builder
	sb.Grow(b.w*b.h*2 + 16)
	for r := b.h - 1; r >= 0; r-- {
		for f := 0; f < b.w; f++ {
			writeCell(&sb, b.cells[b.index(f, r)])
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(b.turn.Letter())
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.moveNo))
	if b.escaped != 0 {
		sb.WriteString(" " + EscapedField)
	}
	return sb.String()
}

// String is the TFEN.
func (p *Position) String() string { return p.Encode() }

func writeCell(sb *strings.Builder, c byte) {
	switch {
	case c == cellEmpty:
		sb.WriteByte('.')
		return
	case c&kindMask == 7:
		sb.WriteByte('#')
		return
	}
	if c&wreckBit != 0 {
		sb.WriteByte('x')
	}
	ch := kindStats[cellKind(c)].Code
	if cellSide(c) == engine.Black {
		ch += 'a' - 'A'
	}
	sb.WriteByte(ch)
	sb.WriteString(facingNames[cellFacing(c)])
}

func tfenErr(code string, args ...string) *engine.Error {
	return engine.Errorf(code, Messages[code], args...)
}
