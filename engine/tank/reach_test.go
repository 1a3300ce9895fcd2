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
