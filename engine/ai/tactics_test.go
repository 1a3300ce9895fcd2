package ai

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/tank"
)

// The tactics suites are positions found by scanning seeded self-play
// games (TestScanTactics with AI_SCAN=1 writes testdata/tactics_<game>.txt):
// "win" positions where the side to move can win at once, "parry" positions
// where at least half of the moves lose at once but not all. Each test
// re-proves its position with an exhaustive search over LegalMoves before
// asking the AI.

// winsAt reports whether playing m wins the game at once for the mover.
func winsAt(t testing.TB, p engine.Position, m engine.Move) bool {
	next, err := p.Play(m)
	if err != nil {
		t.Fatalf("legal move %s refused: %v", p.FormatMove(m), err)
	}
	w, ok := next.Status().Winner()
	return ok && w == p.Turn()
}

// canEnd reports whether m may end the game at once. It only prunes what
// the rules exclude: a tank game ends only by an escape or a shot.
func canEnd(p engine.Position, m engine.Move) bool {
	if tm, ok := m.(tank.Move); ok {
		return tm.Escape || tm.HasTarget
	}
	return true
}

// winningMoves lists the moves of p that win at once (1-ply, exhaustive).
func winningMoves(t testing.TB, p engine.Position) []engine.Move {
	var out []engine.Move
	for _, m := range p.LegalMoves() {
		if canEnd(p, m) && winsAt(t, p, m) {
			out = append(out, m)
		}
	}
	return out
}

// losesAfter reports whether after m the opponent can win at once (the
// second ply, exhaustive).
func losesAfter(t testing.TB, p engine.Position, m engine.Move) bool {
	next, err := p.Play(m)
	if err != nil {
		t.Fatalf("legal move %s refused: %v", p.FormatMove(m), err)
	}
	if next.Status().Over() {
		return false
	}
	return len(winningMoves(t, next)) > 0
}

type tactic struct {
	kind string // "win" or "parry"
	pos  string
}

func loadTactics(t testing.TB, game string) []tactic {
	f, err := os.Open(filepath.Join("testdata", "tactics_"+game+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []tactic
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, pos, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		out = append(out, tactic{kind, pos})
	}
	return out
}

// tacticsLimits: level 3 with a small budget, so the suite is fast and
// proves the tactics come from the exact two-ply pass and the search, not
// from a big budget.
var tacticsLimits = Limits{Level: 3, Nodes: 3000, Seed: 7, MoveTime: 1 << 40}

func TestTactics(t *testing.T) {
	for _, r := range games.All() {
		t.Run(r.Name(), func(t *testing.T) {
			ts := loadTactics(t, r.Name())
			var wins, parries int
			for i, tc := range ts {
				p, err := r.Decode(tc.pos)
				if err != nil {
					t.Fatalf("#%d: %v", i, err)
				}
				res, err := Think(context.Background(), p, tacticsLimits)
				if err != nil {
					t.Fatalf("#%d: %v", i, err)
				}
				switch tc.kind {
				case "win":
					wins++
					if len(winningMoves(t, p)) == 0 {
						t.Fatalf("#%d %s: no win in one", i, tc.pos)
					}
					if !winsAt(t, p, res.Move) {
						t.Errorf("#%d %s: played %s, which does not win", i, tc.pos, res.Notation)
					}
				case "parry":
					parries++
					if len(winningMoves(t, p)) > 0 {
						t.Fatalf("#%d %s: has a win in one, not a parry test", i, tc.pos)
					}
					threat := false
					for _, m := range p.LegalMoves() {
						if losesAfter(t, p, m) {
							threat = true
							break
						}
					}
					if !threat {
						t.Fatalf("#%d %s: no move loses at once: no threat", i, tc.pos)
					}
					if losesAfter(t, p, res.Move) {
						t.Errorf("#%d %s: played %s, after which the opponent wins at once", i, tc.pos, res.Notation)
					}
				default:
					t.Fatalf("#%d: unknown kind %q", i, tc.kind)
				}
			}
			if wins < 10 || parries < 10 || wins+parries < 20 {
				t.Errorf("suite has %d wins and %d parries; want at least 10 of each", wins, parries)
			}
		})
	}
}

// TestScanTactics regenerates the suites from seeded self-play (ai:1
// against ai:1, Gungi from the quick start). Run with AI_SCAN=1.
func TestScanTactics(t *testing.T) {
	if os.Getenv("AI_SCAN") == "" {
		t.Skip("set AI_SCAN=1 to rescan the tactics suites")
	}
	for _, r := range games.All() {
		if only := os.Getenv("AI_SCAN"); only != "1" && only != r.Name() {
			continue
		}
		variant := ""
		if r.Name() == "gungi" {
			variant = "quick"
		}
		var lines []string
		nWin, nParry := 0, 0
		seen := map[string]bool{}
		deadline := time.Now().Add(150 * time.Second)
		for gi := 0; gi < 200 && (nWin < 15 || nParry < 15) && time.Now().Before(deadline); gi++ {
			p, _ := r.Start(variant)
			g := engine.NewGame(p)
			for ply := 0; ply < 200 && !g.Outcome().Over(); ply++ {
				pos := g.Position()
				enc := pos.Encode()
				if !seen[enc] {
					seen[enc] = true
					switch kind := classify(t, pos); {
					case kind == "win" && nWin < 15:
						nWin++
						lines = append(lines, "win "+enc)
					case kind == "parry" && nParry < 15:
						nParry++
						lines = append(lines, "parry "+enc)
					}
				}
				res, err := Think(context.Background(), pos, Limits{Level: 1, Seed: int64(gi*1000 + ply)})
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Play(res.Move); err != nil {
					t.Fatal(err)
				}
			}
		}
		head := fmt.Sprintf("# %s tactics: %d win-in-one, %d must-parry positions from ai:1 self-play (TestScanTactics)\n", r.Name(), nWin, nParry)
		if err := os.WriteFile(filepath.Join("testdata", "tactics_"+r.Name()+".txt"), []byte(head+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d win, %d parry", r.Name(), nWin, nParry)
	}
}

// classify says whether p is a win-in-one or a must-parry position (at
// least half of the moves lose at once, at least one does not), else "".
// It uses the game's searcher for speed; TestTactics re-proves every
// stored position through LegalMoves.
func classify(t testing.TB, p engine.Position) string {
	s := p.(engine.Searchable).NewSearcher()
	me := s.Turn()
	won := func(r engine.Result) bool {
		return r != engine.Ongoing && r != engine.Draw && (r == engine.WhiteWins) == (me == engine.White)
	}
	n := s.Generate()
	lose := 0
	for i := range n {
		s.Make(i)
		r := s.Over()
		if won(r) {
			s.Unmake()
			return "win"
		}
		if r == engine.Ongoing {
			k := s.Generate()
			for j := range k {
				s.Make(j)
				o := s.Over()
				s.Unmake()
				if o != engine.Ongoing && o != engine.Draw && !won(o) {
					lose++
					break
				}
			}
		}
		s.Unmake()
	}
	if lose*2 >= n && lose < n {
		return "parry"
	}
	return ""
}

// TestScanSparse finds tactics in seeded random sparse positions (a few
// pieces near the castles or the Marshals), where castle entries and mates
// are frequent. Run with AI_SPARSE=camelot or AI_SPARSE=gungi; it appends to
// the suite file.
func TestScanSparse(t *testing.T) {
	game := os.Getenv("AI_SPARSE")
	if game == "" {
		t.Skip("set AI_SPARSE=<game> to scan sparse positions")
	}
	r, err := games.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(42, uint64(len(game))))
	nWin, nParry := 0, 0
	var lines []string
	for try := 0; try < 200000 && (nWin < 15 || nParry < 15); try++ {
		var enc string
		if game == "camelot" {
			enc = sparseCamelot(rng)
		} else {
			enc = sparseGungi(rng)
		}
		p, err := r.Decode(enc)
		if err != nil || p.Status().Over() {
			continue
		}
		switch kind := classify(t, p); {
		case kind == "win" && nWin < 15:
			nWin++
			lines = append(lines, "win "+p.Encode())
		case kind == "parry" && nParry < 15:
			nParry++
			lines = append(lines, "parry "+p.Encode())
		}
	}
	head := fmt.Sprintf("# %d win-in-one, %d must-parry positions from seeded sparse positions (TestScanSparse)\n", nWin, nParry)
	f, err := os.OpenFile(filepath.Join("testdata", "tactics_"+game+".txt"), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(head + strings.Join(lines, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d win, %d parry", game, nWin, nParry)
}

// sparseCamelot places 2-5 pieces a side, mostly in the half of the board
// in front of the enemy castle.
func sparseCamelot(rng *rand.Rand) string {
	spans := [16][2]int{{5, 6}, {2, 9}, {1, 10}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {0, 11}, {1, 10}, {2, 9}, {5, 6}}
	var board [16][12]byte
	for r := range 16 {
		for f := range 12 {
			board[r][f] = '.'
		}
	}
	place := func(c byte, lo, hi int) {
		for {
			r := lo + rng.IntN(hi-lo+1)
			f := spans[r][0] + rng.IntN(spans[r][1]-spans[r][0]+1)
			if board[r][f] == '.' {
				board[r][f] = c
				return
			}
		}
	}
	// Often a piece already stands in the enemy castle, or a side is down
	// to one or two pieces: then castle entries and last captures abound.
	if rng.IntN(2) == 0 {
		board[15][5+rng.IntN(2)] = 'M'
	}
	if rng.IntN(2) == 0 {
		board[0][5+rng.IntN(2)] = 'm'
	}
	for _, side := range []int{0, 1} {
		n := 1 + rng.IntN(4)
		for range n {
			c := byte('M')
			if rng.IntN(3) == 0 {
				c = 'K'
			}
			lo, hi := 10, 15 // White near Black's castle
			if side == 1 {
				c += 'a' - 'A'
				lo, hi = 0, 5
			}
			if rng.IntN(3) == 0 {
				lo, hi = 3, 12
			}
			place(c, lo, hi)
		}
	}
	var rows []string
	for r := 15; r >= 0; r-- {
		rows = append(rows, string(board[r][spans[r][0]:spans[r][1]+1]))
	}
	turn := "w"
	if rng.IntN(2) == 1 {
		turn = "b"
	}
	return strings.Join(rows, "/") + " " + turn + " 00 30"
}

// sparseGungi places both Marshals at home and 2-6 attackers a side near
// the enemy Marshal, after the draft with empty hands.
func sparseGungi(rng *rand.Rand) string {
	var board [9][9]byte
	for r := range 9 {
		for f := range 9 {
			board[r][f] = '.'
		}
	}
	place := func(c byte, lo, hi int) {
		for {
			r, f := lo+rng.IntN(hi-lo+1), rng.IntN(9)
			if board[r][f] == '.' {
				board[r][f] = c
				return
			}
		}
	}
	place('M', 0, 2)
	place('m', 6, 8)
	kinds := "GLSYKBWCNP"
	for _, side := range []int{0, 1} {
		n := 2 + rng.IntN(5)
		for range n {
			c := kinds[rng.IntN(len(kinds))]
			lo, hi := 4, 8
			if side == 1 {
				c += 'a' - 'A'
				lo, hi = 0, 4
			}
			place(c, lo, hi)
		}
	}
	var rows []string
	for r := 8; r >= 0; r-- {
		rows = append(rows, string(board[r][:]))
	}
	turn := "w"
	if rng.IntN(2) == 1 {
		turn = "b"
	}
	// Runs of empty squares are written as dots, one per square.
	return strings.Join(rows, "/") + " " + turn + " wb -/- 100"
}
