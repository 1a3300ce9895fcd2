package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func playOnce(t *testing.T, input string, args ...string) (string, error) {
	t.Helper()
	var out, errs bytes.Buffer
	err := runPlay(context.Background(), append([]string{"--png", t.TempDir()}, args...), strings.NewReader(input), &out, &errs)
	return out.String() + errs.String(), err
}

// Without --db every run starts afresh: runs in a row each start the game
// they ask for.
func TestPlayRunsInARowStartWhatTheyAsk(t *testing.T) {
	for _, args := range [][]string{{}, {"--game", "camelot"}, {"--vs", "ai:1"}, {"--game", "gungi"}, {}} {
		out, err := playOnce(t, "quit\n", args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if !strings.Contains(out, "a fresh temporary database") || !strings.Contains(out, "Game #1") || strings.Contains(out, "already") {
			t.Errorf("%v: not a fresh game:\n%s", args, out)
		}
	}
}

// With --db an unfinished game is resumed (and the banner says so); asking
// for another game then is a clear error, not a silent resume.
func TestPlayDBResumes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	out, err := playOnce(t, "quit\n", "--db", db, "--game", "camelot")
	if err != nil || !strings.Contains(out, "database "+db) || strings.Contains(out, "resuming") {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	out, err = playOnce(t, "quit\n", "--db", db)
	if err != nil || !strings.Contains(out, "resuming game #1 (camelot, white vs black, move 1)") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	_, err = playOnce(t, "quit\n", "--db", db, "--game", "tank")
	if err == nil || !strings.Contains(err.Error(), "game #1 (camelot) unfinished") || !strings.Contains(err.Error(), "--game") {
		t.Fatalf("another game over an unfinished one: %v", err)
	}
	// Ended, the table is free for the game asked.
	if out, err := playOnce(t, "white: /resign\nwhite: click g:1:0:resignyes\nquit\n", "--db", db); err != nil {
		t.Fatalf("resign: %v\n%s", err, out)
	}
	out, err = playOnce(t, "quit\n", "--db", db, "--game", "gungi")
	if err != nil || strings.Contains(out, "resuming") || !strings.Contains(out, "Game #2") {
		t.Fatalf("after the end: %v\n%s", err, out)
	}
}

// A challenge left pending in the file (an interrupted run) does not stand
// in for the game asked: it is cancelled and the asked game starts.
func TestPlayDBCancelsAStalePendingChallenge(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	out, err := playOnce(t, "white: /challenge black game:camelot thread:false\nquit\n", "--db", db, "--no-game")
	if err != nil || !strings.Contains(out, "Camelot") {
		t.Fatalf("pending challenge: %v\n%s", err, out)
	}
	out, err = playOnce(t, "quit\n", "--db", db, "--game", "gungi")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "game #1 has started") || !strings.Contains(out, "Gungi") || strings.Contains(out, "already a pending challenge") {
		t.Errorf("the asked game did not start:\n%s", out)
	}
}
