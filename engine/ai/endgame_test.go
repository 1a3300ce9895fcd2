package ai

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// endgame is a won position for White: a decisive material advantage the
// AI must convert within maxPly plies.
type endgame struct {
	game, name, pos string
	maxPly          int
}

// lone removes every Black piece of a start position but the one kept
// (Tank Chess: the CLT "cs"; Camelot: the first Man).
func lone(t testing.TB, game, keep string) string {
	r, _ := games.Lookup(game)
	p, err := r.Start("")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Encode()
	board, rest, _ := strings.Cut(s, " ")
	kept := false
	board = regexp.MustCompile(`[a-z][nesw]?`).ReplaceAllStringFunc(board, func(m string) string {
		if m == keep && !kept {
			kept = true
			return m
		}
		if game == "tank" && len(m) == 1 {
			return m // not a piece
		}
		return "."
	})
	return board + " " + rest
}

func endgames(t testing.TB) []endgame {
	return []endgame{
		{"gungi", "Marshal and five against a lone Marshal", "....m..../........./........./........./........./........./........./..GLGL.../....M.... w wb Y1/- 40", 80},
		{"gungi", "Marshal and three with drops in hand", "........./...m...../........./........./........./........./........./...G.G.../...LM.... w wb G2L1/- 40", 80},
		{"gungi", "lone Marshal in the centre, Black to move", "........./........./........./........./....m..../........./..L...G../.G.....Y./....M.... b wb -/- 60", 100},
		{"gungi", "General, Archer and Pawns against a lone Marshal", "m......../........./........./........./........./..P...P../...Y...../....G..../....M.... w wb -/- 30", 100},
		{"tank", "full army against a lone CLT", lone(t, "tank", "cs"), 120},
		{"camelot", "full army against a lone Man", lone(t, "camelot", "m"), 80},
	}
}

// Every level from 3 converts a decisive material advantage: from each
// won endgame, White at the level (its noise and depth, the level-3 node
// budget so that the test stays cheap) beats a level-3 defender within
// the bound. Node budgets only: the outcome does not depend on the
// machine's load.
func TestEndgamesConverted(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: plays whole endgames")
	}
	for _, eg := range endgames(t) {
		r, _ := games.Lookup(eg.game)
		start, err := r.Decode(eg.pos)
		if err != nil {
			t.Fatalf("%s: %v", eg.name, err)
		}
		for level := 3; level <= Levels; level++ {
			t.Run(eg.game+"/"+eg.name+"/level "+string(rune('0'+level)), func(t *testing.T) {
				t.Parallel()
				g := engine.NewGame(start)
				for g.Ply() < eg.maxPly && !g.Outcome().Over() {
					p := g.Position()
					lim := Limits{Level: level, Nodes: ScaleNodes(p, 10000), MoveTime: 1 << 62, Seed: int64(g.Ply()), History: GameHistory(g)}
					if p.Turn() == engine.Black {
						lim = Limits{Level: 3, Nodes: ScaleNodes(p, 2000), MoveTime: 1 << 62, Seed: int64(g.Ply()), History: GameHistory(g)}
					}
					res, err := Think(context.Background(), p, lim)
					if err != nil {
						t.Fatal(err)
					}
					if err := g.Play(res.Move); err != nil {
						t.Fatal(err)
					}
				}
				o := g.Outcome()
				if w, ok := o.Winner(); !ok || w != engine.White {
					t.Fatalf("not won within %d plies: %v after %d plies; last moves %v\n%s", eg.maxPly, o, g.Ply(), g.Moves()[max(0, g.Ply()-8):], g.Position().Encode())
				}
				t.Logf("won in %d plies (%s)", g.Ply(), o.Reason)
			})
		}
	}
}
