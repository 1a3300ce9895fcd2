package console

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/games"
)

var exampleRe = regexp.MustCompile(`e\.g\. (.+?)\.?\n`)

// "/move" with no move answers with an example legal in the game and the
// position in front of the player, in every game.
func TestEmptyMoveExampleIsLegal(t *testing.T) {
	for _, r := range games.All() {
		s := newSession(t)
		s.run("alice: /challenge bob color:white thread:false game:"+r.Name(), "bob: /accept")
		pos, err := r.Start("")
		if err != nil {
			t.Fatal(err)
		}
		mover := "alice"
		if pos.Turn() == 1 {
			mover = "bob"
		}
		out := s.run(mover + ": /move")
		m := exampleRe.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no example in:\n%s", r.Name(), out)
		}
		if _, err := pos.ParseMove(strings.TrimSpace(m[1])); err != nil {
			t.Errorf("%s: the example %q is not legal here: %v\n%s", r.Name(), m[1], err, out)
		}
	}
}
