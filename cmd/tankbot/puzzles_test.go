package main

import (
	"bytes"
	"context"
	"fmt"
	"github.com/tankbot/tankbot/engine/tank"
	"github.com/tankbot/tankbot/store"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
		{"puzzles", "generate", "--game", "tank", "--selfplay", "1", "--min-depth", "3", "--out", out},
		{"puzzles", "generate", "--game", "gungi", "--selfplay", "1", "--deep", "--depth", "1", "--out", out},
		{"puzzles", "generate", "--game", "camelot", "--selfplay", "1", "--forcing", "-3", "--out", out},
		{"puzzles", "generate", "--game", "camelot", "--selfplay", "1", "--from-ply", "-1", "--out", out},
		{"puzzles", "generate", "--game", "camelot", "--selfplay", "1", "--verify-budget", "-5", "--out", out},
		{"puzzles", "generate", "--game", "camelot", "--ai", "-1", "--out", out},
		{"puzzles", "generate", "--game", "camelot", "--ai", "1", "--per-game", "-1", "--out", out},
		{"puzzles", "generate", "--game", "gungi", "--selfplay", "1", "--tail", "-1", "--out", out},
		{"puzzles", "build", "--game", "camelot", "--out", out},
		{"puzzles", "build", "--game", "camelot", "--from", filepath.Join(dir, "none.tsv"), "--out", out},
		{"puzzles", "rates", "--game", "camelot", "--every", "0"},
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

// shippedRange is one generation run recorded in a shipped file: its
// command and the puzzle lines it made.
type shippedRange struct {
	args  []string // the command's flags
	lines []string
}

// shippedRanges reads a shipped collection file into its runs.
func shippedRanges(t *testing.T, g string) []shippedRange {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "engine", "puzzle", "data", g+".tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var rs []shippedRange
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "# tankbot puzzles generate "):
			rs = append(rs, shippedRange{args: strings.Fields(strings.TrimPrefix(l, "# tankbot puzzles generate "))})
		case l == "" || strings.HasPrefix(l, "#"):
		case len(rs) == 0:
			t.Fatalf("%s: a puzzle before any recorded command", g)
		default:
			rs[len(rs)-1].lines = append(rs[len(rs)-1].lines, l)
		}
	}
	return rs
}

// flagValue is the value of --name in args ("" if absent).
func flagValue(args []string, name string) string {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--"+name {
			return args[i+1]
		}
	}
	return ""
}

// withFlags returns args with the given flags set (replaced or added).
func withFlags(args []string, set map[string]string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if v, ok := set[strings.TrimPrefix(args[i], "--")]; ok && strings.HasPrefix(args[i], "--") && i+1 < len(args) {
			out = append(out, args[i], v)
			delete(set, strings.TrimPrefix(args[i], "--"))
			i++
			continue
		}
		out = append(out, args[i])
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		out = append(out, "--"+k, set[k])
	}
	return out
}

// TestPuzzlesGenerateReproduces runs, for each game, the recorded command
// of the file's first run and of its first run for deep puzzles
// (--min-depth 2 or more) on the self-play game of that run's first
// puzzle, from that puzzle's ply, and gets the puzzle back line for line.
func TestPuzzlesGenerateReproduces(t *testing.T) {
	if testing.Short() {
		// Mining is search on one goroutine per game (the generator's
		// own concurrency is raced by the other generate tests): under
		// the race detector it took a quarter of a minute of the fast tier.
		t.Skip("long tier (no -race): mines recorded self-play runs again")
	}
	for _, g := range puzzle.Games {
		rs := shippedRanges(t, g)
		// The quick self-play runs (--selfplay) are reproduced; the
		// strong self-play runs (--ai) replay engine/ai, whose moves
		// change with its search (docs/puzzles.md).
		var picks []shippedRange
		for _, r := range rs {
			if len(r.lines) > 0 && flagValue(r.args, "selfplay") != "" {
				picks = append(picks, r)
				break
			}
		}
		for _, r := range rs {
			if md, _ := strconv.Atoi(flagValue(r.args, "min-depth")); md >= 2 && len(r.lines) > 0 && flagValue(r.args, "selfplay") != "" {
				picks = append(picks, r)
				break
			}
		}
		if len(picks) == 0 {
			t.Fatalf("%s: no recorded self-play run", g)
		}
		for _, r := range picks {
			want := r.lines[0]
			f := strings.Split(strings.Split(want, "\t")[7], ":")
			if len(f) < 4 || f[0] != "selfplay" || f[1] != flagValue(r.args, "seed") {
				t.Fatalf("%s: source of %q", g, want)
			}
			ply, err := strconv.Atoi(f[3])
			if err != nil {
				t.Fatalf("%s: source of %q", g, want)
			}
			out := filepath.Join(t.TempDir(), g+".tsv")
			// The players are the same however long the game may last:
			// stop it soon after the puzzle (a Gungi draft, which does not
			// count, takes at most 54 plies) and start at its ply.
			args := withFlags(r.args, map[string]string{"first": f[2], "selfplay": "1", "limit": "1", "out": out,
				"max-plies": strconv.Itoa(min(300, ply+100)), "from-ply": strconv.Itoa(ply)})
			stdout, errs, code := runCmd(t, append([]string{"puzzles", "generate"}, args...)...)
			if code != 0 {
				t.Fatalf("%s %q: exit %d: %s", g, args, code, errs)
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
			// The collection's themes and ratings come later (puzzles
			// build): the run must give the puzzle, its depth and line.
			w, err := puzzle.ParseLine(g, want)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].ID != w.ID || got[0].Depth != w.Depth || !slices.Equal(got[0].Solution, w.Solution) || got[0].Source != w.Source {
				t.Fatalf("%s %q: generated\n%v\nwant\n%s", g, args, got, want)
			}
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

// puzzles build keeps what the curator admits, in the inputs' layout,
// rates it by the ladder and prints the refusals as plain text.
func TestPuzzlesBuild(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "engine", "puzzle", "testdata", "trivial.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	in := "# tankbot puzzles generate --game gungi --seed 2026\n" + puzzle.Header + "\n"
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if g, line, _ := strings.Cut(l, "\t"); g == "gungi" {
			in += line + "\n"
		}
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "mined.tsv"), filepath.Join(dir, "gungi.tsv")
	if err := os.WriteFile(src, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, errs, code := runCmd(t, "puzzles", "build", "--game", "gungi", "--from", src, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "kept 1 of 3") || !strings.Contains(stdout, "refused: only capture 1, only check 1") || strings.Contains(stdout, "map[") {
		t.Fatalf("stdout %q", stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := puzzle.ParseFile("gungi", string(b))
	if err != nil || len(ps) != 1 || ps[0].ID != "ga7faa460" || ps[0].Rating != puzzle.RatingFloor || !slices.Contains(ps[0].Themes, "stack-mate") {
		t.Fatalf("built %v, %v", ps, err)
	}
	if !strings.Contains(string(b), "# tankbot puzzles generate --game gungi --seed 2026\n") || strings.Contains(string(b), dir) {
		t.Fatalf("the run's command line is not kept, or a path leaked:\n%s", b)
	}
}

// generate --ai plays strong self-play and reports in plain text: the
// run's command line heads the file, the refusals are "reason count"
// pairs, and nothing written to a file or pipe has a carriage return or
// Go syntax.
func TestPuzzlesGenerateStrongSelfPlay(t *testing.T) {
	if testing.Short() {
		// Pure engine work on one goroutine: without the race detector.
		t.Skip("long tier (no -race): plays engine/ai at levels 3-5")
	}
	out := filepath.Join(t.TempDir(), "c.tsv")
	stdout, errs, code := runCmd(t, "puzzles", "generate", "--game", "camelot", "--ai", "1", "--max-plies", "16", "--min-ply", "10", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{stdout, errs} {
		if strings.ContainsAny(s, "\r") || strings.Contains(s, "map[") {
			t.Fatalf("not plain text: %q", s)
		}
	}
	if !strings.Contains(stdout, "puzzles/minute") || !strings.Contains(stdout, "\nrefused: ") {
		t.Fatalf("stdout %q", stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "# tankbot puzzles generate --game camelot --seed 1 --first 0 --ai 1 ") {
		t.Fatalf("file %q", b)
	}
	if _, err := puzzle.ParseFile("camelot", string(b)); err != nil {
		t.Fatal(err)
	}
}

// generate --ai --resume continues a run's file: the games it marked done
// are skipped (nothing is played again), its lines stay, and new ones are
// appended; a damaged last line of a killed run is skipped, not fatal.
func TestPuzzlesGenerateResume(t *testing.T) {
	ps, err := puzzle.Shipped("camelot")
	if err != nil || len(ps) == 0 {
		t.Fatal(err)
	}
	pz := *ps[0]
	pz.Source = "aiplay:9:0:30"
	head := "# tankbot puzzles generate --game camelot --seed 9 --first 0 --ai 2\n" + puzzle.Header + "\n" + pz.Line() + "\n# done game 0\n# done game 1\n"
	out := filepath.Join(t.TempDir(), "c.tsv")
	if err := os.WriteFile(out, []byte(head+"c0bad\t2"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, errs, code := runCmd(t, "puzzles", "generate", "--game", "camelot", "--seed", "9", "--ai", "2", "--resume", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "camelot: 0 puzzles from 0 positions") || !strings.Contains(errs, "skipping a damaged line") {
		t.Fatalf("stdout %q, stderr %q", stdout, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil || string(b) != head+"c0bad\t2\n" {
		t.Fatalf("the run's file was not kept: %q, %v", b, err)
	}
	if _, _, code := runCmd(t, "puzzles", "generate", "--game", "camelot", "--from-archive", filepath.Join(t.TempDir(), "a.db"), "--guild", "1", "--resume", "--out", out); code == 0 {
		t.Fatal("--resume without --ai or --selfplay accepted")
	}
}

// A quick self-play run with --resume marks each game it finished and,
// resumed, skips them: the second run of the same range mines nothing and
// leaves the file as it was.
func TestPuzzlesGenerateSelfPlayResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.tsv")
	args := []string{"puzzles", "generate", "--game", "gungi", "--seed", "3", "--first", "0", "--selfplay", "2", "--max-plies", "120", "--tail", "6", "--depth", "1", "--resume", "--out", out}
	if _, errs, code := runCmd(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "# done game 0\n") || !strings.Contains(string(b), "# done game 1\n") || !strings.Contains(string(b), " --tail 6 ") {
		t.Fatalf("no game markers or --tail in the run's file:\n%s", b)
	}
	stdout, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("resumed: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "gungi: 0 puzzles from 0 positions") {
		t.Fatalf("resumed run mined again: %q", stdout)
	}
	again, err := os.ReadFile(out)
	if err != nil || string(again) != string(b) {
		t.Fatalf("the resumed run changed the file: %q, %v", again, err)
	}
}

// build --deep-share refuses wins in one past the share, the last ones
// first, and keeps every deeper puzzle.
func TestPuzzlesBuildDeepShare(t *testing.T) {
	src := filepath.Join("..", "..", "engine", "puzzle", "data", "camelot.tsv")
	all, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := puzzle.ParseFile("camelot", string(all))
	if err != nil {
		t.Fatal(err)
	}
	deep := 0
	for _, p := range ps {
		if p.Depth > 1 {
			deep++
		}
	}
	out := filepath.Join(t.TempDir(), "camelot.tsv")
	stdout, errs, code := runCmd(t, "puzzles", "build", "--game", "camelot", "--measure=false", "--deep-share", "0.5", "--from", src, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := puzzle.ParseFile("camelot", string(b))
	if err != nil {
		t.Fatal(err)
	}
	shallow, kept := 0, 0
	for _, p := range got {
		if p.Depth == 1 {
			shallow++
		} else {
			kept++
		}
	}
	if kept != deep || shallow != deep || !strings.Contains(stdout, fmt.Sprintf("deep share %d", len(ps)-2*deep)) {
		t.Fatalf("%d deep of %d, %d wins in one kept; stdout %q", kept, deep, shallow, stdout)
	}
	// The wins in one kept are the first ones of the file.
	i := 0
	for _, p := range got {
		if p.Depth == 1 {
			if p.ID != firstShallow(ps, i) {
				t.Fatalf("win in one %d is %s, not the file's", i, p.ID)
			}
			i++
		}
	}
	if _, _, code := runCmd(t, "puzzles", "build", "--game", "camelot", "--deep-share", "1", "--from", src, "--out", out); code == 0 {
		t.Fatal("--deep-share 1 accepted")
	}
}

func firstShallow(ps []*puzzle.Puzzle, i int) string {
	for _, p := range ps {
		if p.Depth == 1 {
			if i == 0 {
				return p.ID
			}
			i--
		}
	}
	return ""
}
