package console

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/puzzle"
)

var puzzleTitle = regexp.MustCompile(`== Puzzle (\S+) · `)

// shownPuzzle is the shipped puzzle whose board out shows last.
func (s *session) shownPuzzle(game, out string) *puzzle.Puzzle {
	s.t.Helper()
	ms := puzzleTitle.FindAllStringSubmatch(out, -1)
	if len(ms) == 0 {
		s.t.Fatalf("no puzzle board in:\n%s", out)
	}
	id := ms[len(ms)-1][1]
	ps, err := puzzle.Shipped(game)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, p := range ps {
		if p.ID == id {
			return p
		}
	}
	s.t.Fatalf("puzzle %s is not a shipped %s puzzle", id, game)
	return nil
}

// Puzzle mode, for each game: one puzzle solved by typing its moves, the
// next one failed with a wrong move after a hint (the solution and the
// board after it shown), then the stats; the board is drawn as text and as
// an image like a game's.
func TestConsolePuzzles(t *testing.T) {
	for _, game := range puzzle.Games {
		t.Run(game, func(t *testing.T) {
			s := newSession(t)
			s.out.Reset()
			if err := s.c.Puzzles(s.ctx, game); err != nil {
				t.Fatal(err)
			}
			out := s.out.String()
			pz := s.shownPuzzle(game, out)
			if !strings.Contains(out, "to play and win in "+string(rune('0'+pz.Depth))) || s.checkPNGs(out) != 1 {
				t.Fatalf("puzzle board:\n%s", out)
			}
			if pos, _ := pz.Decode(); !strings.Contains(out, TextBoard(game, pos.Encode())) {
				t.Errorf("no text board of the puzzle in:\n%s", out)
			}
			for i := 0; i < len(pz.Solution); i += 2 {
				out = s.run(pz.Solution[i])
				if !strings.Contains(out, "Right: ") {
					t.Fatalf("%s move %s:\n%s", pz.ID, pz.Solution[i], out)
				}
				s.checkPNGs(out)
			}
			if !strings.Contains(out, "Puzzle rating in") {
				t.Errorf("solved without a rating change:\n%s", out)
			}

			out = s.run("next")
			next := s.shownPuzzle(game, out)
			if next.ID == pz.ID {
				t.Errorf("next gave the solved puzzle %s again", pz.ID)
			}
			if out = s.run("hint"); !strings.Contains(out, "Hint: ") {
				t.Errorf("hint:\n%s", out)
			}
			if out = s.run("hint"); !strings.Contains(out, "already took the hint") {
				t.Errorf("second hint:\n%s", out)
			}
			pos, err := next.Decode()
			if err != nil {
				t.Fatal(err)
			}
			wrong := ""
			for _, m := range pos.LegalMoves() {
				if n := pos.FormatMove(m); n != next.Solution[0] {
					if after, err := pos.Play(m); err == nil && !after.Status().Over() {
						wrong = n
						break
					}
				}
			}
			out = s.run(wrong)
			if !strings.Contains(out, wrong+" is not the winning move") || !strings.Contains(out, "The solution: "+next.Solution[0]) || s.checkPNGs(out) != 1 {
				t.Errorf("wrong move %s:\n%s", wrong, out)
			}
			if out = s.run(wrong); !strings.Contains(out, "no puzzle in progress") {
				t.Errorf("a move after the end:\n%s", out)
			}
			out = s.run("stats")
			if !strings.Contains(out, "solved 1 (1 without a hint) · failed 1") {
				t.Errorf("stats:\n%s", out)
			}
		})
	}
}
