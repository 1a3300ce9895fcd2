package app

import (
	"strings"
	"testing"
)

// A puzzle board's custom id: what parses formats back to itself, and the
// handler answers anything (here with a puzzle in progress) without a
// panic and, unless it is a click of the current board, with a private
// refusal.
func FuzzPuzzleCustomID(f *testing.F) {
	for _, s := range []string{"pz:c1234abcd:0:pick", "pz:t1:2:pickok:C3 > C5N", "pz:g1:0:pickgo:1.2p1", "pz::0:pick",
		"pz:x:-1:pick", "pz:x:01:type", "pz:x:0:", "pz:x:0:pickok:", "pz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := newHarness(t, Config{})
		alice := user("alice")
		current := strings.Split(findID(t, h.slash(alice, "puzzle", "game=camelot"), "pick"), ":")[1]
		id, step, action, arg, ok := ParsePuzzleID(s)
		if ok {
			if again := PuzzleID(id, step, action, arg); again != s && !(arg == "" && again+":" == s) {
				t.Fatalf("%q -> %q %d %q %q -> %q", s, id, step, action, arg, again)
			}
		}
		rs := h.click(alice, s)
		if len(rs) == 0 {
			t.Fatalf("%q: no answer", s)
		}
		if !ok || id != current || step != 0 {
			if len(rs) != 1 || !rs[0].Ephemeral || rs[0].Content == "" {
				t.Fatalf("%q: %+v", s, rs)
			}
		}
	})
}
