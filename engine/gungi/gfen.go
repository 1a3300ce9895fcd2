package gungi

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tankbot/tankbot/engine"
)

// StartGFEN is the empty board of §7, Black to place.
const StartGFEN = "........./........./........./........./........./........./........./........./......... b - M1G6L4S4Y2K2B1T1W2F2C2N2P9/M1G6L4S4Y2K2B1T1W2F2C2N2P9"

// encode writes the GFEN; withNumber adds the turn number when it is not 1.
func (p *Position) encode(withNumber bool) string {
	var b strings.Builder
	b.Grow(160)
	for r := 8; r >= 0; r-- {
		for f := range 9 {
			s := Sq(f, r)
			switch h := int(p.h[s]); h {
			case 0:
				b.WriteByte('.')
			case 1:
				b.WriteByte(p.cell[s][0].letter())
			default:
				b.WriteByte('(')
				for i := range h {
					b.WriteByte(p.cell[s][i].letter())
				}
				b.WriteByte(')')
			}
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.turn.Letter())
	b.WriteByte(' ')
	switch {
	case p.ready[0] && p.ready[1]:
		b.WriteString("wb")
	case p.ready[0]:
		b.WriteString("w")
	case p.ready[1]:
		b.WriteString("b")
	default:
		b.WriteString("-")
	}
	b.WriteByte(' ')
	b.WriteString(p.handString(engine.White))
	b.WriteByte('/')
	b.WriteString(p.handString(engine.Black))
	if withNumber && p.number != 1 {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(p.number))
	}
	return b.String()
}

// handString is one side's hand as letter+count, "-" when empty.
func (p *Position) handString(s engine.Side) string {
	var b []byte
	for k := Marshal; k < numKinds; k++ {
		if n := p.hand[s][k]; n > 0 {
			b = append(b, k.Letter())
			b = strconv.AppendInt(b, int64(n), 10)
		}
	}
	if len(b) == 0 {
		return "-"
	}
	return string(b)
}

// Decode parses a GFEN position and checks it could arise in a game.
func Decode(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, errorf(CodeGFENEmpty)
	}
	if len(fields) < 4 || len(fields) > 5 {
		return nil, errorf(CodeGFENFields, strconv.Itoa(len(fields)))
	}
	p := emptyPosition()
	if err := p.decodeBoard(fields[0]); err != nil {
		return nil, err
	}
	switch fields[1] {
	case "w":
		p.turn = engine.White
	case "b":
		p.turn = engine.Black
	default:
		return nil, errorf(CodeGFENSide, fields[1])
	}
	switch fields[2] {
	case "-":
	case "w":
		p.ready[engine.White] = true
	case "b":
		p.ready[engine.Black] = true
	case "wb", "bw":
		p.ready = [2]bool{true, true}
	default:
		return nil, errorf(CodeGFENReady, fields[2])
	}
	if err := p.decodeHands(fields[3]); err != nil {
		return nil, err
	}
	if len(fields) == 5 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, errorf(CodeGFENNumber, fields[4])
		}
		p.number = n
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Position) decodeBoard(board string) error {
	ranks := strings.Split(board, "/")
	if len(ranks) != 9 {
		return errorf(CodeGFENRanks, strconv.Itoa(len(ranks)))
	}
	for i, row := range ranks {
		if err := p.decodeRank(row, 8-i); err != nil {
			return err
		}
	}
	return nil
}

// decodeRank places the cells of rank r (0-based). It reads the whole rank
// even past the ninth cell, so a rank of the wrong width is reported with
// its real width.
func (p *Position) decodeRank(row string, r int) error {
	rank := strconv.Itoa(r + 1)
	f := 0
	put := func(pc piece) {
		if f < 9 {
			p.push(Sq(f, r), pc)
			p.onBoard[pc.side()]++
		}
	}
	for j := 0; j < len(row); j++ {
		switch c := row[j]; c {
		case '.':
		case '(':
			end := strings.IndexByte(row[j:], ')')
			if end < 0 {
				return errorf(CodeGFENTower, strconv.Quote(row[j:]), rank)
			}
			inner := row[j+1 : j+end]
			if n := utf8.RuneCountInString(inner); n < 1 || n > 3 {
				return errorf(CodeGFENTower, strconv.Quote(row[j:j+end+1]), rank)
			}
			for _, ch := range inner {
				pc, ok := runePiece(ch)
				if !ok {
					return errorf(CodeGFENChar, strconv.QuoteRune(ch), rank)
				}
				put(pc)
			}
			j += end
		default:
			ch, size := utf8.DecodeRuneInString(row[j:])
			pc, ok := runePiece(ch)
			if !ok {
				return errorf(CodeGFENChar, strconv.QuoteRune(ch), rank)
			}
			put(pc)
			j += size - 1
		}
		f++
	}
	if f != 9 {
		return errorf(CodeGFENRankWidth, rank, strconv.Itoa(f))
	}
	return nil
}

// runePiece is letterPiece for any character: only ASCII letters are pieces.
func runePiece(ch rune) (piece, bool) {
	if ch >= utf8.RuneSelf {
		return 0, false
	}
	return letterPiece(byte(ch))
}

func letterPiece(c byte) (piece, bool) {
	k := KindOf(c)
	if k == None {
		return 0, false
	}
	if c >= 'a' {
		return mkPiece(k, engine.Black), true
	}
	return mkPiece(k, engine.White), true
}

func (p *Position) decodeHands(hands string) error {
	parts := strings.Split(hands, "/")
	if len(parts) != 2 {
		return errorf(CodeGFENHands, hands)
	}
	for si, part := range parts {
		if part == "-" {
			continue
		}
		side := engine.Side(si)
		seen := [numKinds]bool{}
		for i := 0; i < len(part); {
			k := KindOf(part[i])
			if k == None || part[i] >= 'a' || seen[k] {
				return errorf(CodeGFENHands, part)
			}
			seen[k] = true
			j := i + 1
			for j < len(part) && part[j] >= '0' && part[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(part[i+1 : j])
			if err != nil || n < 1 || n > 38 {
				return errorf(CodeGFENHands, part)
			}
			p.hand[side][k] = uint8(n)
			i = j
		}
	}
	return nil
}

// validate checks the rules' invariants on a decoded position.
func (p *Position) validate() error {
	var count [2][numKinds]int
	for s := Square(0); s < 81; s++ {
		for i := 0; i < int(p.h[s]); i++ {
			pc := p.cell[s][i]
			count[pc.side()][pc.kind()]++
			if pc.kind() == Marshal && i != int(p.h[s])-1 {
				return errorf(CodeGFENUnderMarshal, s.String())
			}
			if pc.kind() == Fortress && i > 0 {
				return errorf(CodeGFENFortress, s.String())
			}
			if p.InDraft() && !inHome(pc.side(), s.Rank()) {
				return errorf(CodeGFENDraftZone, s.String())
			}
		}
	}
	for _, side := range []engine.Side{engine.White, engine.Black} {
		for k := Marshal; k < numKinds; k++ {
			if n := count[side][k] + int(p.hand[side][k]); n > k.SetCount() {
				return errorf(CodeGFENCount, side.String(), k.String(), strconv.Itoa(n), strconv.Itoa(k.SetCount()))
			}
		}
		if p.onBoard[side] > MaxOnBoard && p.InDraft() {
			return errorf(CodeGFENTooMany, side.String(), strconv.Itoa(int(p.onBoard[side])))
		}
		if p.marshal[side] == NoSquare && (p.ready[side] || !p.InDraft()) {
			return errorf(CodeGFENNoMarshal, side.String())
		}
		if p.marshal[side] == NoSquare && p.hand[side][Marshal] == 0 && p.onBoard[side] > 0 {
			return errorf(CodeGFENNoMarshal, side.String())
		}
		if p.marshal[side] == NoSquare && p.onBoard[side] > 0 {
			return errorf(CodeGFENMarshalFirst, side.String())
		}
	}
	if p.ready[p.turn] && p.InDraft() {
		return errorf(CodeGFENReadyTurn, p.turn.String())
	}
	if p.inCheck(p.turn.Opponent()) {
		return errorf(CodeGFENOppInCheck, p.turn.Opponent().String())
	}
	return nil
}
