package console

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// The board footer, /games and the record give the same full-move number
// (engine.MoveNumber), the one the tank image header shows.
func TestOneMoveNumbering(t *testing.T) {
	s := newSession(t)
	s.run("alice: /challenge bob color:white thread:false", "bob: /accept")
	pos, err := tank.Rules.Start("basic16")
	if err != nil {
		t.Fatal(err)
	}
	for ply := range 5 {
		who := "alice"
		if ply%2 == 1 {
			who = "bob"
		}
		n := pos.FormatMove(pos.LegalMoves()[ply])
		out := s.run(who + ": /move " + n)
		m, _ := pos.ParseMove(n)
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		want := engine.MoveNumber(ply + 1)
		if !strings.Contains(out, fmt.Sprintf("\nMove %d\n", want)) {
			t.Fatalf("after %d moves the footer is not Move %d:\n%s", ply+1, want, out)
		}
		if got := pos.(*tank.Position).MoveNumber(); got != want {
			t.Errorf("after %d moves the image's number is %d, the footer's %d", ply+1, got, want)
		}
	}
	if out := s.run("alice: /games"); !strings.Contains(out, "move 3,") {
		t.Errorf("/games after 5 moves does not say move 3:\n%s", out)
	}
	if out := s.run("alice: /history"); !strings.Contains(out, "\n3. ") || strings.Contains(out, "\n4. ") {
		t.Errorf("the record after 5 moves does not end at 3.:\n%s", out)
	}
}
