package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var sampleGames = []string{"tank", "camelot", "gungi"}

// sampleSeeds are the arena seeds of the shipped samples
// (testdata/records/README.md).
var sampleSeeds = map[string]string{"tank": "1", "camelot": "1", "gungi": "1"}

// The shipped sample records are exactly what the arena command in
// testdata/records/README.md writes.
func TestSampleRecordsAreReproducible(t *testing.T) {
	if testing.Short() {
		// Pure engine work, each game one search on one goroutine: the
		// long tier runs it without the race detector, which slows search
		// about twentyfold; the arena's concurrency is raced by
		// TestArenaCommand (here) and engine/ai's TestMatchTiny.
		t.Skip("long tier (no -race): three level 5 vs level 4 games on full node budgets (minutes each)")
	}
	// The three games side by side: each is one search on one goroutine,
	// minutes long, and independent of the others.
	for _, g := range sampleGames {
		t.Run(g, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var out, errb bytes.Buffer
			args := []string{"arena", "--game", g, "--white", "ai:5", "--black", "ai:4", "--games", "1", "--seed", sampleSeeds[g], "--nocap", "--quiet", "--records", dir}
			if g == "gungi" {
				args = append(args, "--maxply", "1000") // the game outlasts the default cap
			}
			if code := runMain(args, &out, &errb); code != 0 {
				t.Fatalf("arena %s: exit %d: %s", g, code, errb.String())
			}
			got, err := os.ReadFile(filepath.Join(dir, g+"-seed"+sampleSeeds[g]+"-1.rec"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "records", g+".rec"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the arena wrote\n%s\nbut testdata/records/%s.rec holds\n%s", g, got, g, want)
			}
		})
	}
}

// Every sample replays to its end, with the PNG and the GIF. A sample
// whose GIF the README's own command draws (TestReadmeReplayCommand) is
// not drawn twice: under the race detector a long game's GIF takes most
// of a minute.
func TestSampleRecordsReplay(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range sampleGames {
		dir := t.TempDir()
		var out, errb bytes.Buffer
		args := []string{"replay", "--record", filepath.Join("..", "..", "testdata", "records", g+".rec"), "--out", filepath.Join(dir, "b.png")}
		gif := !readmeDrawsGIF(string(readme), g)
		if gif {
			args = append(args, "--gif", filepath.Join(dir, "r.gif"))
		}
		if code := runMain(args, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", g, code, errb.String())
		}
		if !strings.HasPrefix(out.String(), g+": ai:5 (white) vs ai:4 (black)") || gif && !strings.Contains(out.String(), "replay: ") {
			t.Errorf("%s:\n%s", g, out.String())
		}
	}
}

// readmeDrawsGIF tells whether the README shows a replay command that
// writes game g's sample as a GIF.
func readmeDrawsGIF(readme, g string) bool {
	for _, line := range strings.Split(readme, "\n") {
		cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "go run ./cmd/tankbot replay ")
		if ok && strings.Contains(cmd, "--gif ") && strings.Contains(cmd, "testdata/records/"+g+".rec") {
			return true
		}
	}
	return false
}

// The README's replay commands work as written, from the repository root
// (a copy of its testdata, so written images land in a temporary folder).
func TestReadmeReplayCommand(t *testing.T) {
	if testing.Short() {
		// Drawing is work on one goroutine: under the race detector the
		// Gungi sample's GIF alone took half a minute of the fast tier.
		t.Skip("long tier (no -race): draws every frame of the README's sample replays")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Abs("../../testdata/records")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "testdata", "records"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, g := range sampleGames {
		data, err := os.ReadFile(filepath.Join(src, g+".rec"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "testdata", "records", g+".rec"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	n := 0
	for _, line := range strings.Split(string(readme), "\n") {
		cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "go run ./cmd/tankbot replay ")
		if !ok {
			continue
		}
		n++
		args := append([]string{"replay"}, strings.Fields(cmd)...)
		for i, a := range args {
			if (a == "--out" || a == "--gif") && i+1 < len(args) {
				// A reader runs it in their clone: it must not leave
				// untracked files there. Here /tmp is the test's folder.
				p, ok := strings.CutPrefix(args[i+1], "/tmp/")
				if !ok {
					t.Errorf("README: %s: writes %s into the repository, not under /tmp", line, args[i+1])
				}
				args[i+1] = filepath.Join(root, "tmp", p)
			}
		}
		if err := os.MkdirAll(filepath.Join(root, "tmp"), 0o755); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := runMain(args, &out, &errb); code != 0 {
			t.Errorf("README: %s: exit %d: %s", line, code, errb.String())
		}
		for i, a := range args {
			if (a == "--out" || a == "--gif") && i+1 < len(args) {
				if fi, err := os.Stat(args[i+1]); err != nil || fi.Size() == 0 {
					t.Errorf("README: %s: no %s written", line, args[i+1])
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the README shows no 'go run ./cmd/tankbot replay' command")
	}
}
