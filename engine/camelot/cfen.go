package camelot

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tankbot/tankbot/engine"
)

var pieceChar = [5]byte{0, 'M', 'K', 'm', 'k'}

// ParseCFEN reads a position (§5): `ROWS SIDE CASTLEMOVES [MOVE]`. Errors are
// *engine.Error values naming the rank and square that are wrong.
func ParseCFEN(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, errorf(codeCFENEmpty)
	}
	if len(fields) < 3 || len(fields) > 4 {
		return nil, errorf(codeCFENFields, strconv.Itoa(len(fields)))
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != ranks {
		return nil, errorf(codeCFENRanks, strconv.Itoa(len(rows)))
	}
	p := &Position{moveNum: 1}
	var counts [2]int
	for i, row := range rows {
		r := ranks - 1 - i
		lo, hi := rowSpan[r][0], rowSpan[r][1]
		// Count and quote characters, not bytes: "é" is one wrong square.
		if n := utf8.RuneCountInString(row); n != hi-lo+1 {
			return nil, errorf(codeCFENRankLength, strconv.Itoa(r+1), strconv.Itoa(hi-lo+1), strconv.Itoa(n))
		}
		j := 0
		for _, ch := range row {
			sq := r*files + lo + j
			j++
			var c int8
			switch ch {
			case '.':
				c = empty
			case 'M':
				c = whiteMan
			case 'K':
				c = whiteKn
			case 'm':
				c = blackMan
			case 'k':
				c = blackKn
			default:
				return nil, errorf(codeCFENPiece, strconv.Itoa(r+1), squareName(sq), strconv.Quote(string(ch)))
			}
			p.board[sq] = c
			if c != empty {
				counts[pieceSide(c)]++
			}
		}
	}
	for s := engine.White; s <= engine.Black; s++ {
		if counts[s] > maxSide {
			return nil, errorf(codeCFENTooMany, s.String(), strconv.Itoa(counts[s]))
		}
	}
	switch fields[1] {
	case "w", "W":
		p.turn = engine.White
	case "b", "B":
		p.turn = engine.Black
	default:
		return nil, errorf(codeCFENSide, fields[1])
	}
	cm := fields[2]
	if len(cm) != 2 || cm[0] < '0' || cm[0] > '0'+MaxCastleMoves || cm[1] < '0' || cm[1] > '0'+MaxCastleMoves {
		return nil, errorf(codeCFENCastles, cm)
	}
	p.castles = [2]uint8{cm[0] - '0', cm[1] - '0'}
	if len(fields) == 4 {
		n, err := strconv.Atoi(fields[3])
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, errorf(codeCFENMoveNumber, fields[3])
		}
		p.moveNum = n
	}
	return p, nil
}

// Encode returns the canonical CFEN, with the move number.
func (p *Position) Encode() string { return p.encode(true) }

func (p *Position) encode(withMove bool) string {
	var sb strings.Builder
	sb.Grow(200)
	for r := ranks - 1; r >= 0; r-- {
		for f := rowSpan[r][0]; f <= rowSpan[r][1]; f++ {
			if c := p.board[r*files+f]; c == empty {
				sb.WriteByte('.')
			} else {
				sb.WriteByte(pieceChar[c])
			}
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(p.turn.Letter())
	sb.WriteByte(' ')
	sb.WriteByte('0' + p.castles[0])
	sb.WriteByte('0' + p.castles[1])
	if withMove {
		sb.WriteByte(' ')
		sb.WriteString(strconv.Itoa(p.moveNum))
	}
	return sb.String()
}
