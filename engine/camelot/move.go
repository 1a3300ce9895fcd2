package camelot

import "strings"

// Move kinds.
const (
	kindPlain   uint8 = iota // one step to an empty square
	kindCastle               // plain move between the enemy castle's squares
	kindCanter               // canter chain only
	kindCapture              // jump chain or Knight's Charge
)

// Move is a legal Camelot move, identified (§7) by its start, its end and the
// set of captured squares; path is the canonical route (every landing square,
// the first canters of them reached by canters).
type Move struct {
	from, to uint8
	kind     uint8
	canters  uint8
	path     []uint8
	caps     [3]uint64
}

// From and To are the start and end squares ("E7").
func (m Move) From() string { return squareName(int(m.from)) }
func (m Move) To() string   { return squareName(int(m.to)) }

// Captured lists the captured squares in square order.
func (m Move) Captured() []string {
	var out []string
	for sq := 0; sq < numSq; sq++ {
		if m.caps[sq>>6]&(1<<(sq&63)) != 0 {
			out = append(out, squareName(sq))
		}
	}
	return out
}

// Route lists every landing square in order, for drawing the path.
func (m Move) Route() []string {
	out := make([]string, len(m.path))
	for i, l := range m.path {
		out[i] = squareName(int(l))
	}
	return out
}

// IsCapture reports whether the move captures.
func (m Move) IsCapture() bool { return m.kind == kindCapture }

func (m Move) isCastleMove() bool { return m.kind == kindCastle }

// sameAs compares §7 identities.
func (m Move) sameAs(o Move) bool { return m.from == o.from && m.to == o.to && m.caps == o.caps }

// String is the full notation: every landing square, '-' for a plain move,
// '^' before a canter landing, 'x' before a jump landing.
func (m Move) String() string {
	var sb strings.Builder
	sb.WriteString(squareName(int(m.from)))
	for i, l := range m.path {
		switch {
		case m.kind == kindPlain || m.kind == kindCastle:
			sb.WriteByte('-')
		case i < int(m.canters):
			sb.WriteByte('^')
		default:
			sb.WriteByte('x')
		}
		sb.WriteString(squareName(int(l)))
	}
	return sb.String()
}

// Steps are the picker's choices: the piece's square, the destination, and
// the full route (routes to one destination differ by what they capture).
func (m Move) Steps() []string {
	return []string{squareName(int(m.from)), squareName(int(m.to)), m.String()}
}
