package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// tankbot play --puzzle --game G --db FILE: the puzzle's board, its moves
// typed, the solve rated and the rating kept in the file for the next run.
func TestPlayPuzzle(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	inR, inW := io.Pipe()
	out := &watched{ch: make(chan struct{}, 1)}
	var errs bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- runPlay(context.Background(), []string{"--db", db, "--png", dir, "--puzzle", "--game", "gungi"}, inR, out, &errs)
	}()
	out.waitFor(t, "to play and win in", 1)
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.ActivePuzzle(context.Background(), "you")
	if err != nil {
		t.Fatal(err)
	}
	pz, err := puzzle.ShippedByID("gungi", a.PuzzleID)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(pz.Solution); i += 2 {
		io.WriteString(inW, pz.Solution[i]+"\n")
		out.waitFor(t, "Right: ", i/2+1)
	}
	out.waitFor(t, "Puzzle rating in", 1)
	inW.Write([]byte("quit\n"))
	if err := <-done; err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	if pr, err := st.PuzzleRating(context.Background(), "you", "gungi"); err != nil || pr.Solved != 1 {
		t.Fatalf("puzzle rating in the file: %+v, %v", pr, err)
	}
	// The next run on the same file shows the kept stats.
	var again bytes.Buffer
	if err := runPlay(context.Background(), []string{"--db", db, "--png", dir, "--puzzle", "--game", "gungi"}, strings.NewReader("stats\nquit\n"), &again, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again.String(), "solved 1 (1 without a hint)") {
		t.Errorf("stats of the second run:\n%s", again.String())
	}
	if err := runPlay(context.Background(), []string{"--puzzle", "--vs", "ai:2"}, strings.NewReader(""), io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "--vs is for games") {
		t.Errorf("--puzzle --vs: %v", err)
	}
}
