package main

import (
	"bytes"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/record"
)

func TestReplayRecord(t *testing.T) {
	dir := t.TempDir()
	// The first legal move three times.
	pos, _ := camelot.Rules.Start("start")
	var moves []string
	for range 3 {
		m := pos.LegalMoves()[0]
		moves = append(moves, pos.FormatMove(m))
		pos, _ = pos.Play(m)
	}
	text, err := record.Write(&record.Record{Game: "camelot", Variant: "start", White: "ann", Black: "bob", Moves: moves})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "game.txt")
	os.WriteFile(file, []byte(text), 0o644)
	pngFile, gifFile := filepath.Join(dir, "b.png"), filepath.Join(dir, "r.gif")
	var out, errb bytes.Buffer
	if code := runMain([]string{"replay", "--record", file, "--ply", "2", "--out", pngFile, "--gif", gifFile}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "3 plies") || !strings.Contains(s, "position at ply 2") || !strings.Contains(s, moves[1]) {
		t.Fatalf("output:\n%s", s)
	}
	b, _ := os.ReadFile(pngFile)
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("board: %v", err)
	}
	g, _ := os.ReadFile(gifFile)
	anim, err := gif.DecodeAll(bytes.NewReader(g))
	if err != nil || len(anim.Image) != 4 {
		t.Fatalf("gif: %v", err)
	}
	for _, args := range [][]string{
		{"replay"},
		{"replay", "--record", filepath.Join(dir, "missing.txt")},
		{"replay", "--record", file, "--ply", "9"},
	} {
		if code := runMain(args, &out, &errb); code == 0 {
			t.Errorf("%v succeeded", args)
		}
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte(strings.Replace(text, moves[2], "A1-A2", 1)), 0o644)
	errb.Reset()
	if code := runMain([]string{"replay", "--record", bad}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "line") {
		t.Fatalf("illegal move: exit %d %s", code, errb.String())
	}
}
