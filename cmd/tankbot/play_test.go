package main

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/games"
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

// Every flag value that says which game to start is checked before the
// console opens: a wrong one exits 2 and lists what is known, and nothing
// is played.
func TestPlayBadFlagValuesExit2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--map", "basic21"}, []string{"basic16", "basic20"}},
		{[]string{"--game", "camelot", "--map", "basic20"}, []string{"start"}},
		{[]string{"--game", "gungi", "--map", "basic16"}, []string{"draft"}},
		{[]string{"--clock", "5x"}, []string{"10m+5s", "1d", "untimed"}},
		{[]string{"--game", "chess"}, []string{"tank", "camelot", "gungi"}},
		{[]string{"--vs", "ai:9"}, []string{"1 to 5"}},
		{[]string{"--vs", "ai:2", "--color", "green"}, []string{"white", "black", "random"}},
		{[]string{"--lang", "fr"}, []string{"en", "th", "pt-BR"}},
		{[]string{"--web", "nowhere"}, []string{"off"}},
		// A position that parses but breaks the map rules: the bot refuses it.
		{[]string{"--map", "....cs.../......../......../......../......../......../......../...Ce.... w 1"}, []string{"must face N"}},
	} {
		var out, errb bytes.Buffer
		code := runMain(append([]string{"play"}, c.args...), &out, &errb)
		if code != 2 {
			t.Errorf("play %v: exit %d, want 2\nstdout:\n%s\nstderr:\n%s", c.args, code, out.String(), errb.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("play %v: stderr lacks %q:\n%s", c.args, w, errb.String())
			}
		}
		if strings.Contains(out.String(), "tankbot play") {
			t.Errorf("play %v: the console opened:\n%s", c.args, out.String())
		}
	}
}

// The banner's example move is legal where the console opens, in every
// game, on every start it can ask for.
func TestPlayBannerExampleIsLegal(t *testing.T) {
	for _, r := range games.All() {
		for _, v := range r.Variants() {
			var out, errb bytes.Buffer
			args := []string{"--game", r.Name(), "--map", v.Name, "--web", "off", "--png", t.TempDir()}
			if err := runPlay(context.Background(), args, strings.NewReader("quit\n"), &out, &errb); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, errb.String())
			}
			_, rest, ok := strings.Cut(out.String(), "Type moves like '")
			ex, _, _ := strings.Cut(rest, "'")
			if !ok || ex == "" {
				t.Fatalf("%v: no example in:\n%s", args, out.String())
			}
			pos, err := r.Start(v.Name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pos.ParseMove(ex); err != nil {
				t.Errorf("%s %s: the banner's example %q is not legal at the start: %v", r.Name(), v.Name, ex, err)
			}
		}
	}
}

// play leaves no image folder behind in the cache (one per run would pile
// up); --png keeps its folder.
func TestPlayRemovesItsImageFolder(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	var out, errb bytes.Buffer
	if err := runPlay(context.Background(), []string{"--web", "off"}, strings.NewReader("quit\n"), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "deleted on exit") {
		t.Errorf("the banner does not say the images go:\n%s", out.String())
	}
	left, _ := filepath.Glob(filepath.Join(cache, "tankbot", "boards-*"))
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// The hot seat keeps White at the bottom: the board after White's move
// (Black to move) has the same file letters along its bottom edge as the
// first; --follow-mover turns it to Black.
func TestPlayHotSeatOrientation(t *testing.T) {
	p, err := tank.Rules.Start("basic16")
	if err != nil {
		t.Fatal(err)
	}
	first := p.FormatMove(p.LegalMoves()[0])
	for _, follow := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"--web", "off", "--png", dir}
		if follow {
			args = append(args, "--follow-mover")
		}
		var out, errb bytes.Buffer
		if err := runPlay(context.Background(), args, strings.NewReader(first+"\nquit\n"), &out, &errb); err != nil {
			t.Fatalf("%v\n%s", err, errb.String())
		}
		bottom := func(name string) []byte {
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			b := img.Bounds()
			var px []byte
			for y := b.Max.Y - 12; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r, g, bl, _ := img.At(x, y).RGBA()
					px = append(px, byte(r>>8), byte(g>>8), byte(bl>>8))
				}
			}
			return px
		}
		same := bytes.Equal(bottom("board-1-0.png"), bottom("board-1-1.png"))
		if same == follow {
			t.Errorf("--follow-mover=%v: the bottom edge's file letters changed=%v after White's move", follow, !same)
		}
	}
}
