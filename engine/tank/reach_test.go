package tank

import (
	"strings"
	"testing"
)

// A destination no facing makes reachable is said to be out of reach, not
// "cannot end there facing N"; a reachable square with a wrong facing
// keeps the facing message.
func TestOutOfReachMessage(t *testing.T) {
	p, err := ParseTFEN("....cs.../......../......../......../......../......../......../...Cn.... w 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"d1 > d8", "d1 > d8n", "D1 > D7S"} {
		_, err := p.ParseMove(in)
		if err == nil || !strings.Contains(err.Error(), "out of reach") {
			t.Errorf("%s: %v, want out of reach", in, err)
		}
	}
}

// A square the piece reaches, with a facing it cannot end in there, keeps
// the facing message.
func TestWrongFacingMessage(t *testing.T) {
	p, err := StartPosition("basic16")
	if err != nil {
		t.Fatal(err)
	}
	legal := map[string]bool{}
	for _, m := range p.Moves() {
		legal[m.String()] = true
	}
	for _, m := range p.Moves() {
		if m.Escape || m.To == m.From || m.HasTarget {
			continue
		}
		for _, f := range facingNames {
			in := squareName(m.From) + " > " + squareName(m.To) + strings.ToUpper(f)
			if legal[in] {
				continue
			}
			if _, err := p.ParseTankMove(in); errCode(err) != CodeUnreachable {
				t.Fatalf("%s: %v, want %s", in, err, CodeUnreachable)
			}
			return
		}
	}
	t.Skip("every reached square takes every facing here")
}
