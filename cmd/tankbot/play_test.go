package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/tank"
	"github.com/tankbot/tankbot/store"
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

// watched is an output buffer that signals every write, so a test can wait
// for the console to answer without sleeping.
type watched struct {
	mu  sync.Mutex
	buf bytes.Buffer
	ch  chan struct{}
}

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	select {
	case w.ch <- struct{}{}:
	default:
	}
	return n, err
}

func (w *watched) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitFor blocks until the output holds want n times.
func (w *watched) waitFor(t *testing.T, want string, n int) {
	t.Helper()
	deadline := time.After(eventWait)
	for strings.Count(w.String(), want) < n {
		select {
		case <-w.ch:
		case <-deadline:
			t.Fatalf("waiting for %d× %q in:\n%s", n, want, w.String())
		}
	}
}

// tankbot play --vs ai:1: you move, the computer answers after each move.
func TestPlayVsAI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	inR, inW := io.Pipe()
	out := &watched{ch: make(chan struct{}, 1)}
	var errs bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- runPlay(context.Background(), []string{"--db", db, "--png", dir, "--vs", "ai:1", "--game", "camelot"}, inR, out, &errs)
	}()
	const played = `tankbot (level 1) played` // the console shows markdown escapes unescaped
	out.waitFor(t, "Game #1", 1)              // the console has opened (and migrated) the file
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for k := range 3 {
		g, err := st.Game(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := camelot.Rules.Decode(g.Position)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(inW, pos.FormatMove(pos.LegalMoves()[0])+"\n"); err != nil {
			t.Fatal(err)
		}
		out.waitFor(t, played, 2*(k+1)) // in the ping and on the board
	}
	inW.Write([]byte("quit\n"))
	if err := <-done; err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	got := out.String()
	for _, want := range []string{"you played", `tankbot (level 1) is thinking`, "@you"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "@tankbot") {
		t.Errorf("the bot pings itself:\n%s", got)
	}
	if g, _ := st.Game(context.Background(), 1); g.Ply != 6 {
		t.Errorf("after 3 moves each: ply %d", g.Ply)
	}
	if err := runPlay(context.Background(), []string{"--db", db, "--vs", "ai:9"}, strings.NewReader(""), io.Discard, io.Discard); err == nil {
		t.Error("--vs ai:9 accepted")
	}
}
