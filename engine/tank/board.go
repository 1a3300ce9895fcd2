package tank

import "github.com/tankbot/tankbot/engine"

// The board is a padded mailbox: one border square on every side, so a ray
// or a step that leaves the board meets a blocked cell and stops without a
// bounds check. Index of (file, rank) is (rank+1)*stride + file+1 with
// stride = width+2.
//
// A cell is one byte:
//
//	bits 0-2  kind (1..6 pieces, 7 blocked: obstacle or border)
//	bit  3    side of a piece (0 White, 1 Black); set on the border
//	bits 4-6  facing of a piece
//	bit  7    wreck
//
// Zero is an empty square, so "free to enter" is simply cell == 0.
const (
	cellEmpty    byte = 0
	cellObstacle byte = 0x07
	cellBorder   byte = 0x0F
	kindMask     byte = 0x07
	sideBit      byte = 0x08
	wreckBit     byte = 0x80
	minSize           = 8
	maxSize           = 26
)

func makeCell(k Kind, s engine.Side, f Dir, wreck bool) byte {
	c := byte(k) | byte(f&7)<<4
	if s == engine.Black {
		c |= sideBit
	}
	if wreck {
		c |= wreckBit
	}
	return c
}

func cellKind(c byte) Kind  { return Kind(c & kindMask) }
func cellFacing(c byte) Dir { return Dir(c>>4) & 7 }
func cellSide(c byte) engine.Side {
	if c&sideBit != 0 {
		return engine.Black
	}
	return engine.White
}

// isPiece reports an active or wrecked piece (not empty, obstacle, border).
func isPiece(c byte) bool { k := c & kindMask; return k != 0 && k != 7 }

// isActive reports an active (not wrecked) piece of side s.
func isActive(c byte, s engine.Side) bool {
	return isPiece(c) && c&wreckBit == 0 && cellSide(c) == s
}

// board is the mutable state the move generator works on. Positions hold
// one and never change it after construction; perft copies it and uses
// make/unmake.
type board struct {
	w, h, stride int
	cells        []byte
	turn         engine.Side
	// escaped is 1+side of a player whose CLT has left the board (the game
	// is then over); 0 otherwise.
	escaped int8
	// dirStep[d] is the index delta of one step in direction d.
	dirStep [8]int
	scratch *genScratch
}

func newBoard(w, h int) *board {
	b := &board{w: w, h: h, stride: w + 2}
	b.cells = make([]byte, (w+2)*(h+2))
	for i := range b.cells {
		b.cells[i] = cellBorder
	}
	for r := 0; r < h; r++ {
		for f := 0; f < w; f++ {
			b.cells[b.index(f, r)] = cellEmpty
		}
	}
	for d := Dir(0); d < 8; d++ {
		df, dr := d.Delta()
		b.dirStep[d] = dr*b.stride + df
	}
	return b
}

func (b *board) index(f, r int) int { return (r+1)*b.stride + f + 1 }

func (b *board) square(i int) Square {
	fr := squareOf[b.stride][i]
	return Square{File: int(fr[0]), Rank: int(fr[1])}
}

// squareOf[stride][index] is the (file, rank) of a padded index, so that
// exporting hundreds of moves does no division.
var squareOf = func() (t [maxSize + 3][(maxSize + 2) * (maxSize + 2)][2]int8) {
	for stride := minSize + 2; stride <= maxSize+2; stride++ {
		for i := range t[stride] {
			t[stride][i] = [2]int8{int8(i%stride - 1), int8(i/stride - 1)}
		}
	}
	return t
}()

func (b *board) onBoard(s Square) bool {
	return s.File >= 0 && s.File < b.w && s.Rank >= 0 && s.Rank < b.h
}

// clone copies the board without its scratch space.
func (b *board) clone() *board {
	c := *b
	c.cells = append([]byte(nil), b.cells...)
	c.scratch = nil
	return &c
}

// cltWrecked returns 1+side of a side whose CLT is a wreck, 0 if none.
func (b *board) cltWrecked() int8 {
	for _, c := range b.cells {
		if c&wreckBit != 0 && c&kindMask == byte(CLT) {
			return int8(cellSide(c)) + 1
		}
	}
	return 0
}

// hasActive reports whether side s has an active piece.
func (b *board) hasActive(s engine.Side) bool {
	for _, c := range b.cells {
		if isActive(c, s) {
			return true
		}
	}
	return false
}

// undo holds what make changed.
type undo struct {
	from, to, tgt int
	fromCell      byte
	tgtCell       byte
	escaped       int8
}

// make plays an internal move on the board (which must be legal) and
// returns what unmake needs. over reports that the move ended the game.
func (b *board) make(m imove) (u undo, over bool) {
	u = undo{from: int(m.from), to: int(m.to), tgt: int(m.tgt), fromCell: b.cells[m.from], escaped: b.escaped}
	b.cells[m.from] = cellEmpty
	if m.esc {
		b.escaped = int8(b.turn) + 1
		b.turn = b.turn.Opponent()
		return u, true
	}
	b.cells[m.to] = u.fromCell&^(7<<4) | byte(m.face&7)<<4
	if m.tgt >= 0 {
		u.tgtCell = b.cells[m.tgt]
		b.cells[m.tgt] |= wreckBit
		over = u.tgtCell&kindMask == byte(CLT)
	}
	b.turn = b.turn.Opponent()
	return u, over
}

func (b *board) unmake(m imove, u undo) {
	b.turn = b.turn.Opponent()
	b.escaped = u.escaped
	if m.tgt >= 0 {
		b.cells[m.tgt] = u.tgtCell
	}
	if !m.esc {
		b.cells[m.to] = cellEmpty
	}
	b.cells[m.from] = u.fromCell
}
