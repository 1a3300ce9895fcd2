package main

import (
	"context"

	"bytes"
	"github.com/tankbot/tankbot/engine/tank"
	"github.com/tankbot/tankbot/store"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/puzzle"
)

func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runMain(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestPuzzlesList(t *testing.T) {
	for _, g := range puzzle.Games {
		out, errs, code := runCmd(t, "puzzles", "list", "--game", g)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", g, code, errs)
		}
		ps, err := puzzle.Shipped(g)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(ps) || len(ps) == 0 {
			t.Fatalf("%s: %d lines for %d puzzles", g, len(lines), len(ps))
		}
		r, _ := games.Lookup(g)
		for i, l := range lines {
			f := strings.Split(l, "\t")
			if len(f) != 4 || f[0] != ps[i].ID {
				t.Fatalf("%s line %d: %q", g, i+1, l)
			}
			depth, err := strconv.Atoi(f[1])
			if err != nil || depth != ps[i].Depth {
				t.Fatalf("%s line %d: depth %q", g, i+1, f[1])
			}
			// The position is what `tankbot moves --position` reads, and
			// the solution's first move is legal there.
			pos, err := games.Position(r, f[2])
			if err != nil {
				t.Fatalf("%s line %d: %v", g, i+1, err)
			}
			moves := strings.Split(f[3], puzzle.MoveSep)
			if len(moves) != 2*depth-1 {
				t.Fatalf("%s line %d: %d moves for depth %d", g, i+1, len(moves), depth)
			}
			if _, err := pos.ParseMove(moves[0]); err != nil {
				t.Fatalf("%s line %d: %v", g, i+1, err)
			}
		}
	}
	mv, _, code := runCmd(t, "moves", "--game", "tank", "--position", strings.Split(strings.Split(mustList(t, "tank"), "\n")[0], "\t")[2])
	if code != 0 || mv == "" {
		t.Fatalf("moves on a listed position: exit %d", code)
	}
}

func mustList(t *testing.T, g string) string {
	out, errs, code := runCmd(t, "puzzles", "list", "--game", g)
	if code != 0 {
		t.Fatalf("list %s: %s", g, errs)
	}
	return out
}

func TestPuzzlesBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "p.tsv")
	cases := [][]string{
		{"puzzles"},
		{"puzzles", "solve"},
		{"puzzles", "list", "--game", "chess"},
		{"puzzles", "list", "--game", "tank", "extra"},
		{"puzzles", "generate", "--game", "tank", "--selfplay", "1"},
		{"puzzles", "generate", "--game", "tank", "--out", out},
		{"puzzles", "generate", "--game", "tank", "--from-archive", filepath.Join(dir, "db.sqlite"), "--out", out},
		{"puzzles", "generate", "--game", "tank", "--selfplay", "1", "--depth", "9", "--out", out},
		{"puzzles", "generate", "--game", "tank", "--selfplay", "1", "--max-plies", "0", "--out", out},
	}
	for _, c := range cases {
		_, errs, code := runCmd(t, c...)
		if code == 0 || errs == "" {
			t.Errorf("%q: exit %d, stderr %q", c, code, errs)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused command wrote its output file")
	}
}

// TestPuzzlesGenerateReproduces runs the generator with the recorded seed
// on the self-play game of a shipped puzzle of each game and gets that
// game's first shipped puzzle back, line for line.
func TestPuzzlesGenerateReproduces(t *testing.T) {
	for _, g := range puzzle.Games {
		ps, err := puzzle.Shipped(g)
		if err != nil {
			t.Fatal(err)
		}
		var want *puzzle.Puzzle
		var seed, game, plies string
		for _, p := range ps {
			f := strings.Split(p.Source, ":")
			if len(f) >= 4 && f[0] == "selfplay" {
				want, seed, game = p, f[1], f[2]
				// The players are the same however long the game may
				// last: stop it soon after the puzzle (a Gungi draft,
				// which does not count, takes at most 54 plies).
				ply, err := strconv.Atoi(f[3])
				if err != nil {
					t.Fatalf("%s: source %q", g, p.Source)
				}
				plies = strconv.Itoa(min(300, ply+100))
				break
			}
		}
		if want == nil {
			t.Fatalf("%s: no self-play puzzle shipped", g)
		}
		out := filepath.Join(t.TempDir(), g+".tsv")
		stdout, errs, code := runCmd(t, "puzzles", "generate", "--game", g, "--seed", seed, "--first", game, "--selfplay", "1", "--max-plies", plies, "--limit", "1", "--out", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", g, code, errs)
		}
		if !strings.Contains(stdout, "puzzles/minute") {
			t.Errorf("%s: no rate in %q", g, stdout)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got, err := puzzle.ParseFile(g, string(data))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Line() != want.Line() {
			t.Fatalf("%s: generated\n%v\nwant\n%s", g, got, want.Line())
		}
	}
}

// TestPuzzlesGenerateFromArchive mines a finished game kept in a real
// SQLite store: White's CLT on a8 has a single winning move, the escape.
func TestPuzzlesGenerateFromArchive(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "tankbot.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	const start = "Cn......./......../......../......../#......./......../......../cs......ls b 1"
	pos, err := tank.Rules.Decode(start)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.CreateGame(ctx, store.Game{Kind: "tank", Variant: "custom", Guild: "g1", Channel: "c1", Players: [2]string{"u1", "u2"}, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	var puzzlePos string
	for ply, note := range []string{"H1 > H2S", "A8 > OFF"} {
		m, err := pos.ParseMove(note)
		if err != nil {
			t.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		if ply == 0 {
			puzzlePos = pos.Encode()
		}
		u := store.GameUpdate{Position: pos.Encode()}
		if o := pos.Status(); o.Over() {
			u.Outcome = &store.Outcome{Result: o.Result.String(), Reason: string(o.Reason)}
		}
		if err := st.AppendMove(ctx, g.ID, ply, store.MoveRecord{Side: ply % 2, Notation: note, Position: pos.Encode()}, u); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	out := filepath.Join(dir, "p.tsv")
	_, errs, code := runCmd(t, "puzzles", "generate", "--game", "tank", "--from-archive", db, "--guild", "g1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := puzzle.ParseFile("tank", string(data))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range ps {
		if p.Position == puzzlePos {
			found = true
			if p.Source != "archive:g1#1:1" || strings.Join(p.Solution, "|") != "A8 > OFF" {
				t.Fatalf("puzzle %s from %s: %q", p.ID, p.Source, p.Solution)
			}
		}
	}
	if !found {
		t.Fatalf("no puzzle at %s in\n%s", puzzlePos, data)
	}
}
