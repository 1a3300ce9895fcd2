package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArenaCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := runMain([]string{"arena", "--game", "camelot", "--white", "ai:1", "--black", "random", "--games", "2", "--maxply", "40", "--seed", "5"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"camelot: ai:1 vs random, 2 games", "W/D/L ", "score ", "Elo ", "think ai:1", "think random", "search ai:1    mean depth 1.00 (shallowest 1), mean nodes "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), "2/2") {
		t.Errorf("no progress bar on stderr: %q", errb.String())
	}
	for _, bad := range [][]string{
		{"arena", "--game", "chess"},
		{"arena", "--white", "ai:9"},
		{"arena", "--black", "stockfish"},
		{"arena", "--games", "0"},
	} {
		errb.Reset()
		if code := runMain(bad, &out, &errb); code == 0 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errb.String())
		}
	}
}

// --timeout stops a long match and reports the games finished by then.
func TestArenaTimeout(t *testing.T) {
	var out, errb bytes.Buffer
	code := runMain([]string{"arena", "--game", "camelot", "--white", "ai:1", "--black", "random", "--games", "100000", "--maxply", "20", "--timeout", "2s", "--quiet", "--concurrent", "2"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	if !strings.Contains(s, "stopped by --timeout 2s") || !strings.Contains(s, "of 100000 games finished") {
		t.Errorf("output:\n%s", s)
	}
	// On a starved machine no game may have finished: then nothing is
	// scored; otherwise the score follows.
	if !strings.Contains(s, ": 0 of 100000") && !strings.Contains(s, "W/D/L ") {
		t.Errorf("games finished but no score:\n%s", s)
	}
}

// --nocap lifts the time cap: the line says so, the caps are reported as
// not applied, and --movetime (a cap of one's own) is refused with it.
func TestArenaNoCap(t *testing.T) {
	var out, errb bytes.Buffer
	code := runMain([]string{"arena", "--game", "camelot", "--white", "ai:3", "--black", "ai:1", "--games", "2", "--maxply", "12", "--seed", "7", "--nocap", "--quiet"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"time cap lifted (--nocap)", "cap ai:3     1.4s (not applied): ", "cap ai:1     500ms (not applied): "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	errb.Reset()
	if code := runMain([]string{"arena", "--nocap", "--movetime", "1s"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "--nocap and --movetime") {
		t.Errorf("--nocap with --movetime: exit %d, stderr %q", code, errb.String())
	}
}

// --resume counts the games whose records an earlier run left and plays
// the others: a match cut short and resumed scores, plies included, as the
// same match played in one run, and writes the same records. Records of
// another match are refused, not counted.
func TestArenaResume(t *testing.T) {
	arena := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		base := []string{"arena", "--game", "camelot", "--white", "greedy", "--black", "random", "--seed", "9", "--maxply", "30", "--quiet"}
		if code := runMain(append(base, args...), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	score := func(out string) string { // the W/D/L line and the plies
		lines := strings.SplitN(out, "\n", 3)
		if len(lines) < 3 {
			t.Fatalf("short output:\n%s", out)
		}
		_, plies, _ := strings.Cut(lines[0], "cap), ")
		plies, _, _ = strings.Cut(plies, " plies")
		return lines[1] + " / " + plies + " plies"
	}
	whole, part := t.TempDir(), t.TempDir()
	want := score(arena("--games", "4", "--records", whole))
	arena("--games", "2", "--records", part)
	out := arena("--games", "4", "--records", part, "--resume")
	if got := score(out); got != want {
		t.Errorf("resumed match: %s, in one run: %s", got, want)
	}
	if !strings.Contains(out, "resumed: 2 game(s) counted from their records") {
		t.Errorf("output does not say what was resumed:\n%s", out)
	}
	for i := 1; i <= 4; i++ {
		name := fmt.Sprintf("camelot-seed9-%d.rec", i)
		a, errA := os.ReadFile(filepath.Join(whole, name))
		b, errB := os.ReadFile(filepath.Join(part, name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the two runs (%v, %v)", name, errA, errB)
		}
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"arena", "--resume"}, "--resume needs --records"},
		{[]string{"arena", "--game", "camelot", "--white", "random", "--black", "greedy", "--seed", "9", "--maxply", "30", "--games", "4", "--records", part, "--resume"}, "was played by greedy (White) and random (Black)"},
		{[]string{"arena", "--game", "camelot", "--white", "greedy", "--black", "random", "--seed", "9", "--maxply", "20", "--games", "4", "--records", part, "--resume"}, "another --maxply than 20"},
	} {
		var out, errb bytes.Buffer
		if code := runMain(bad.args, &out, &errb); code == 0 || !strings.Contains(errb.String(), bad.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", bad.args, code, errb.String(), bad.want)
		}
	}
}
