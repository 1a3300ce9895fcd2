package camelot

import "github.com/tankbot/tankbot/engine"

// The board is a 12×16 grid (files A–L, ranks 1–16) of which 160 cells exist.
// A square is rank*12+file, so A1 is 0 and squares sort rank by rank.
const (
	files   = 12
	ranks   = 16
	numSq   = files * ranks
	noSq    = -1
	maxSide = 14 // pieces per side at the start; no position may hold more
)

// piece codes stored on the board.
const (
	empty    int8 = 0
	whiteMan int8 = 1
	whiteKn  int8 = 2
	blackMan int8 = 3
	blackKn  int8 = 4
)

func pieceSide(p int8) engine.Side { return engine.Side((p - 1) / 2) }
func isKnight(p int8) bool         { return p == whiteKn || p == blackKn }

// Directions sorted by board offset so that expanding them in order visits
// landing squares in increasing square order (used for canonical routes).
var dirDF = [8]int{-1, 0, 1, -1, 1, -1, 0, 1}
var dirDR = [8]int{-1, -1, -1, 0, 0, 1, 1, 1}

var (
	exists [numSq]bool
	// step[sq][d] is the neighbour of sq in direction d, or noSq.
	step [numSq][8]int16
	// castleOf[side] are the two castle squares of side (White: F1 G1).
	castleOf = [2][2]int{{5, 6}, {15*files + 5, 15*files + 6}}
	// castleSide[sq] is 1+side for castle squares, 0 elsewhere.
	castleSide [numSq]int8
)

// rowSpan gives, for each rank (0-based), the first and last existing file.
var rowSpan = [ranks][2]int{
	{5, 6}, {2, 9}, {1, 10},
	{0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11},
	{1, 10}, {2, 9}, {5, 6},
}

func init() {
	for r := 0; r < ranks; r++ {
		for f := rowSpan[r][0]; f <= rowSpan[r][1]; f++ {
			exists[r*files+f] = true
		}
	}
	for sq := 0; sq < numSq; sq++ {
		f, r := sq%files, sq/files
		for d := 0; d < 8; d++ {
			nf, nr := f+dirDF[d], r+dirDR[d]
			step[sq][d] = noSq
			if nf >= 0 && nf < files && nr >= 0 && nr < ranks && exists[nr*files+nf] {
				step[sq][d] = int16(nr*files + nf)
			}
		}
	}
	for s := 0; s < 2; s++ {
		for _, sq := range castleOf[s] {
			castleSide[sq] = int8(s + 1)
		}
	}
}

// inCastle reports whether sq is one of side's castle squares.
func inCastle(sq int, side engine.Side) bool { return castleSide[sq] == int8(side)+1 }

// squareName writes a square as players do: "E7", "C10".
func squareName(sq int) string {
	f, r := sq%files, sq/files+1
	if r >= 10 {
		return string([]byte{byte('A' + f), '1', byte('0' + r - 10)})
	}
	return string([]byte{byte('A' + f), byte('0' + r)})
}

// parseSquare reads a square name (case-insensitive) at the start of s and
// returns the square, how many bytes it used, and whether it was a name at
// all; the square may not exist on the board (sq == noSq then).
func parseSquare(s string) (sq, n int, ok bool) {
	if len(s) < 2 {
		return noSq, 0, false
	}
	c := s[0] | 0x20
	if c < 'a' || c > 'z' || s[1] < '0' || s[1] > '9' {
		return noSq, 0, false
	}
	r, n := int(s[1]-'0'), 2
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
		r, n = r*10+int(s[2]-'0'), 3
		if len(s) > 3 && s[3] >= '0' && s[3] <= '9' {
			return noSq, 4, true
		}
	}
	f := int(c - 'a')
	if f >= files || r < 1 || r > ranks || !exists[(r-1)*files+f] {
		return noSq, n, true
	}
	return (r-1)*files + f, n, true
}

// Squares lists the 160 squares of the board, A1 first, rank by rank, for
// drawing.
func Squares() []string {
	out := make([]string, 0, 160)
	for sq := 0; sq < numSq; sq++ {
		if exists[sq] {
			out = append(out, squareName(sq))
		}
	}
	return out
}
