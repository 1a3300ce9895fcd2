package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tune and book refuse incomplete command lines with their usage.
func TestTuneAndBookUsage(t *testing.T) {
	for _, bad := range [][]string{
		{"tune"},
		{"tune", "fit", "--game", "camelot"},
		{"tune", "gen", "--game", "camelot"},
		{"book", "--game", "camelot"},
		{"book", "--game", "camelot", "--level", "9", "--out", "x"},
	} {
		var out, errb bytes.Buffer
		if code := runMain(bad, &out, &errb); code != exitUsage || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errb.String())
		}
	}
	if _, err := parseIndexSet("0-3,9", 5); err == nil {
		t.Error("index 9 of 5 weights accepted")
	}
	if m, err := parseIndexSet("0-1,3", 5); err != nil || !m[0] || !m[1] || m[2] || !m[3] || m[4] {
		t.Errorf("0-1,3: %v, %v", m, err)
	}
}

// tune gen writes labelled positions that tune fit reads; book writes a
// book the AI can read (lines of position, move, count).
func TestTuneGenFitAndBook(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: self-play games")
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "camelot.txt")
	// Level-1 Camelot games with the merged engine all run past 200 plies
	// (cut games give no labels); 600 lets the four games with seed 1 end.
	var out, errb bytes.Buffer
	if code := runMain([]string{"tune", "gen", "--game", "camelot", "--games", "4", "--level", "1", "--maxply", "600", "--out", data}, &out, &errb); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errb.String())
	}
	out.Reset()
	if code := runMain([]string{"tune", "fit", "--game", "camelot", "--data", data, "--epochs", "50", "--fix", "0-1"}, &out, &errb); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "mean squared error") || !strings.Contains(out.String(), "{100, 170, ") {
		t.Errorf("fit output:\n%s", out.String())
	}
	book := filepath.Join(dir, "book.txt")
	out.Reset()
	if code := runMain([]string{"book", "--game", "camelot", "--games", "4", "--level", "1", "--maxply", "6", "--min", "1", "--out", book}, &out, &errb); code != 0 {
		t.Fatalf("book: exit %d: %s", code, errb.String())
	}
	text, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, l := range strings.Split(string(text), "\n") {
		if l != "" && l[0] != '#' {
			if len(strings.Split(l, "\t")) != 3 {
				t.Errorf("book line %q", l)
			}
			lines++
		}
	}
	if lines == 0 {
		t.Errorf("empty book:\n%s", text)
	}
}
