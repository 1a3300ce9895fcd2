package console

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/games"
)

// TestTextModeWholeGame plays a whole game of every game in the console
// in text mode with no picture: every board is printed in words (ranks
// and squares, no grid), and the questions answer about the last board.
func TestTextModeWholeGame(t *testing.T) {
	plies := 5000
	if testing.Short() {
		plies = 12 // long tier: the whole games
	}
	for _, game := range []string{"tank", "camelot", "gungi"} {
		t.Run(game, func(t *testing.T) {
			s := newSession(t)
			s.c.PNGDir = "" // no picture: images are not written
			if out := s.run("text on"); !strings.Contains(out, "Text mode:") {
				t.Fatalf("text on: %q", out)
			}
			r, _ := games.Lookup(game)
			start, _ := r.Start("")
			if err := s.c.HotSeat(s.ctx, game, start.Encode(), "untimed"); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(7, 7))
			n, over := 0, false
			for ; n < plies; n++ {
				out := s.run("board")
				if !strings.Contains(out, "Rank ") && !strings.Contains(out, "in hand") {
					t.Fatalf("board in words:\n%s", out)
				}
				pos, err := decode(s.c.text.game, s.c.text.pos)
				if err != nil {
					t.Fatal(err)
				}
				if over = pos.Status().Over(); over {
					break
				}
				ms := pos.LegalMoves()
				m := pos.FormatMove(ms[rng.IntN(len(ms))])
				out = s.run(m)
				if !strings.Contains(out, "played "+m) {
					t.Fatalf("move %q not played:\n%s", m, out)
				}
				if strings.Contains(out, "image: ") || !strings.Contains(out, " to move.") && !strings.Contains(out, "Game over") {
					t.Fatalf("move %q: a picture or no board in words:\n%s", m, out)
				}
			}
			t.Logf("%s: %d moves in text mode, game over: %v", game, n, over)
			if !testing.Short() && !over {
				t.Errorf("%s: the game did not end in %d moves", game, plies)
			}
			for _, q := range []string{"where white", "square a1", "attackers a1", "moves a1"} {
				if out := s.run(q); strings.TrimSpace(out) == "" || strings.Contains(out, "error:") {
					t.Errorf("%s: %q", q, out)
				}
			}
		})
	}
}
