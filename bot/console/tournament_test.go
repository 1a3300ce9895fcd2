package console

import (
	"strconv"
	"strings"
	"testing"
)

// The /tournament commands work as text: a 3-player round-robin (a bye
// each round) played to the end by resignations, the final post naming
// the podium with the standings picture.
func TestConsoleTournament(t *testing.T) {
	s := newSession(t)
	lines := []string{
		"ann: /tournament create format:round-robin",
		"ann: /tournament join", "bob: /tournament join", "cat: /tournament join",
		"bob: /tournament start",
		"ann: /tournament start",
	}
	for game := 1; game <= 3; game++ {
		for _, u := range []string{"ann", "bob", "cat"} {
			lines = append(lines, u+": click g:"+strconv.Itoa(game)+":0:resignyes")
		}
	}
	out := s.run(lines...)
	for _, want := range []string{"created tournament #1", "(only bob) Only the organiser", "Round 1 is paired", "round 2 is paired", "round 3 is paired", "Tournament #1 is over"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "standings1.png") {
		t.Errorf("no standings picture in the final post:\n%s", out)
	}
	if n := s.checkPNGs(out); n < 4 {
		t.Errorf("%d pictures decoded, want the boards and the standings", n)
	}
}
