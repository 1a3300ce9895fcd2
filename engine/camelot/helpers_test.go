package camelot

import (
	"slices"
	"strings"
	"testing"
)

// build makes a position from pieces written like "ME7 kF9" (piece letter
// then square), the side to move and the castle moves used ("00").
func build(t testing.TB, side, castles, pieces string) *Position {
	t.Helper()
	var p Position
	for _, f := range strings.Fields(pieces) {
		sq, n, ok := parseSquare(f[1:])
		if !ok || sq == noSq || n != len(f)-1 {
			t.Fatalf("bad square in %q", f)
		}
		c := strings.IndexByte("?MKmk", f[0])
		if c < 1 {
			t.Fatalf("bad piece in %q", f)
		}
		p.board[sq] = int8(c)
	}
	p.turn = 0
	q, err := ParseCFEN(strings.Fields(p.Encode())[0] + " " + side + " " + castles + " 1")
	if err != nil {
		t.Fatalf("build %q: %v", pieces, err)
	}
	return q
}

// moveList returns the legal moves in notation, sorted.
func moveList(p *Position) []string {
	var out []string
	for _, m := range p.legal() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// mustPlay parses and plays a move.
func mustPlay(t testing.TB, p *Position, s string) *Position {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatalf("ParseMove(%q): %v\nlegal: %v", s, err, moveList(p))
	}
	q, err := p.Play(m)
	if err != nil {
		t.Fatalf("Play(%q): %v", s, err)
	}
	return q.(*Position)
}

func has(list []string, s string) bool { return slices.Contains(list, s) }
