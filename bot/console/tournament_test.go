package console

import (
	"regexp"
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

// A tournament tried alone: ann enters herself, bob and a computer player
// (join level:1, the organiser's), the computer's games are played by the
// bot (its moves follow by themselves: the scheduler runs after every
// line once a tournament exists) and the humans resign their games; the
// final post names the podium, the computer by its name, unpinged.
func TestConsoleTournamentWithComputer(t *testing.T) {
	s := newSession(t)
	out := s.run(
		"ann: /tournament create format:round-robin game:tank",
		"ann: /tournament join", "bob: /tournament join",
		"bob: /tournament join level:1",
		"ann: /tournament join level:9",
		"ann: /tournament join level:1",
		"ann: /tournament start",
	)
	for _, want := range []string{"(only bob) Only the organiser", "(only ann) Level 9 does not exist", "Computer 1 (level 1) joined tournament #1", "Round 1 is paired"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	confirm := regexp.MustCompile(`g:(\d+):\d+:resignyes`)
	for game := 1; game <= 3; game++ {
		for _, u := range []string{"ann", "bob"} {
			ask := s.run(u + ": /resign game:" + strconv.Itoa(game))
			if m := confirm.FindString(ask); m != "" {
				out += s.run(u + ": click " + m)
			}
		}
	}
	for _, want := range []string{"round 2 is paired", "round 3 is paired", "Tournament #1 is over", "standings1.png"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	final := out[strings.Index(out, "Tournament #1 is over"):]
	if !strings.Contains(final, "1. Computer 1 (level 1)") || strings.Contains(final, "<@ai-") {
		t.Errorf("the computer, winner of both its games, is not first by name:\n%s", final)
	}
	if n := s.checkPNGs(out); n < 4 {
		t.Errorf("%d pictures decoded, want the boards and the standings", n)
	}
}
