package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/record"
)

// tankbot review on a real record of each game (played by the AI, one
// side much weaker): the summary, the graph and the turning points' boards
// decode as PNGs, and the annotated record reads back through replay with
// its comments.
func TestReviewCommand(t *testing.T) {
	for _, game := range []string{"tank", "camelot", "gungi"} {
		t.Run(game, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "game.txt")
			// Long enough for the weak side to blunder, short enough for CI
			// under -race.
			moves, outcome := weakVsStrong(t, game, map[string]int{"tank": 16, "camelot": 40, "gungi": 24}[game])
			variant := map[string]string{"tank": "basic16", "camelot": "start", "gungi": "quick"}[game]
			text, err := record.Write(&record.Record{Game: game, Variant: variant, White: "ann", Black: "bob", Moves: moves, Outcome: outcome})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			var so, se bytes.Buffer
			if code := runMain([]string{"review", "--record", file, "--out", out, "--nodes", "500"}, &so, &se); code != 0 {
				t.Fatalf("exit %d: %s", code, se.String())
			}
			s := so.String()
			for _, want := range []string{"white ann", "black bob", "accuracy", "blunders", "turning points:", "graph: ", "annotated record: "} {
				if !strings.Contains(s, want) {
					t.Errorf("summary lacks %q:\n%s", want, s)
				}
			}
			if !strings.Contains(se.String(), "positions") {
				t.Errorf("no progress on stderr: %q", se.String())
			}
			// Not a terminal: plain lines, no carriage-return bar.
			if strings.Contains(se.String(), "\r") || strings.Count(se.String(), "\n") > 12 {
				t.Errorf("progress into a buffer is not plain lines: %q", se.String())
			}
			pngs, _ := filepath.Glob(filepath.Join(out, "*.png"))
			boards, _ := filepath.Glob(filepath.Join(out, "game-turn*-*.png"))
			if len(pngs) != 1+len(boards) || len(boards)%2 != 0 || len(boards) == 0 {
				t.Fatalf("images %v (boards %v)\n%s", pngs, boards, s)
			}
			for _, p := range pngs {
				b, _ := os.ReadFile(p)
				if _, err := png.Decode(bytes.NewReader(b)); err != nil {
					t.Fatalf("%s: %v", p, err)
				}
			}
			ann := filepath.Join(out, "game-review.txt")
			b, err := os.ReadFile(ann)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "; eval ") || !strings.Contains(string(b), "[Annotator ") {
				t.Fatalf("annotated record:\n%s", b)
			}
			so.Reset()
			if code := runMain([]string{"replay", "--record", ann}, &so, &se); code != 0 {
				t.Fatalf("replay of the annotated record: exit %d: %s", code, se.String())
			}
			if !strings.Contains(so.String(), "; eval ") || !strings.Contains(so.String(), fmt.Sprintf("%d plies", len(moves))) {
				t.Errorf("replay output:\n%s", so.String())
			}
		})
	}
	var so, se bytes.Buffer
	for _, bad := range [][]string{{"review"}, {"review", "--record", "/nonexistent/x.txt"}, {"review", "--record", "x", "--nodes", "0"}} {
		se.Reset()
		if code := runMain(bad, &so, &se); code == 0 || se.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", bad, code, se.String())
		}
	}
}

// weakVsStrong is a game of at most plies moves where White (a seeded
// random mover) meets Black (level 2 without noise, up to 4 plies deep):
// White's blunders are what the review must find. It returns the moves
// and the outcome (Black may win before plies).
func weakVsStrong(t *testing.T, game string, plies int) ([]string, engine.Outcome) {
	t.Helper()
	r, _ := games.Lookup(game)
	variant := ""
	if game == "gungi" {
		variant = "quick"
	}
	p, err := r.Start(variant)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(p)
	rng := rand.New(rand.NewPCG(uint64(plies), 7))
	for ply := 0; ply < plies && !g.Outcome().Over(); ply++ {
		if g.Position().Turn() == engine.White {
			// A random mover: even level 1 now sees a piece left under
			// fire (quiescence), and a game without a lost move has no
			// turning point to check.
			ms := g.Position().LegalMoves()
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
			continue
		}
		lim := ai.Limits{Level: 2, Noise: -1, MaxDepth: 4, Nodes: 2000, Seed: int64(ply), MoveTime: 1 << 62}
		res, err := ai.Think(context.Background(), g.Position(), lim)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	return g.Moves(), g.Outcome()
}

// tankbot review --table over an arena match's records: one row per
// directory naming both players and the games reviewed, the same
// accuracies as tankbot review --record prints for each game; an empty
// directory and a directory mixing games are refused.
func TestReviewTable(t *testing.T) {
	dir := t.TempDir()
	recs := filepath.Join(dir, "tank-r1")
	var so, se bytes.Buffer
	if code := runMain([]string{"arena", "--game", "tank", "--white", "random", "--black", "ai:1", "--games", "2",
		"--maxply", "30", "--nocap", "--opening", "0", "--quiet", "--records", recs}, &so, &se); code != 0 {
		t.Fatalf("arena: exit %d: %s", code, se.String())
	}
	so.Reset()
	se.Reset()
	if code := runMain([]string{"review", "--table", recs, "--nodes", "300"}, &so, &se); code != 0 {
		t.Fatalf("review --table: exit %d: %s", code, se.String())
	}
	if !strings.Contains(so.String(), "| tank | random vs ai:1 | 2 | random ") {
		t.Errorf("no row for the match:\n%s", so.String())
	}
	// Each game's line on stderr carries the accuracies review --record prints.
	files, _ := filepath.Glob(filepath.Join(recs, "*.rec"))
	if len(files) != 2 {
		t.Fatalf("%d records, want 2", len(files))
	}
	var one bytes.Buffer
	if code := runMain([]string{"review", "--record", files[0], "--out", filepath.Join(dir, "out"), "--nodes", "300", "--quiet"}, &one, &se); code != 0 {
		t.Fatalf("review --record: exit %d: %s", code, se.String())
	}
	for _, line := range strings.Split(one.String(), "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && (f[0] == "white" || f[0] == "black") && f[2] == "accuracy" {
			want := fmt.Sprintf("%s %s %%", f[1], f[3])
			if !strings.Contains(se.String(), filepath.Base(files[0])) || !strings.Contains(se.String(), want) {
				t.Errorf("table's progress lacks %q:\n%s", want, se.String())
			}
		}
	}

	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	se.Reset()
	if code := runMain([]string{"review", "--table", empty}, &so, &se); code == 0 || !strings.Contains(se.String(), "no record") {
		t.Errorf("empty directory: exit %d, %q", code, se.String())
	}
	mixed := filepath.Join(dir, "mixed")
	if code := runMain([]string{"arena", "--game", "camelot", "--white", "random", "--black", "greedy", "--games", "1",
		"--maxply", "10", "--opening", "0", "--quiet", "--records", mixed}, &so, &se); code != 0 {
		t.Fatalf("arena: exit %d: %s", code, se.String())
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mixed, "tank.rec"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	se.Reset()
	if code := runMain([]string{"review", "--table", mixed, "--nodes", "100"}, &so, &se); code == 0 || !strings.Contains(se.String(), "one match per directory") {
		t.Errorf("mixed directory: exit %d, %q", code, se.String())
	}
}
