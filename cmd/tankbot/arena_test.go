package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestArenaCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := runMain([]string{"arena", "--game", "camelot", "--white", "ai:1", "--black", "random", "--games", "2", "--maxply", "40", "--seed", "5"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"camelot: ai:1 vs random, 2 games", "W/D/L ", "score ", "Elo ", "think ai:1", "think random"} {
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
