package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/tank"
)

func TestPlayHotSeat(t *testing.T) {
	dir := t.TempDir()
	p, err := tank.Rules.Start("basic16")
	if err != nil {
		t.Fatal(err)
	}
	first := p.FormatMove(p.LegalMoves()[0])
	var out, errs bytes.Buffer
	in := strings.NewReader(first + "\nquit\n")
	err = runPlay(context.Background(), []string{"--db", filepath.Join(dir, "t.db"), "--png", dir}, in, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	got := out.String()
	for _, want := range []string{"Game #1", "white played " + first, "image: " + filepath.Join(dir, "board-1-1.png")} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "board-1-1.png")); err != nil {
		t.Error(err)
	}
	if err := runPlay(context.Background(), []string{"--db", filepath.Join(dir, "t.db"), "extra"}, strings.NewReader(""), &out, &errs); err == nil {
		t.Error("extra argument accepted")
	}
}
