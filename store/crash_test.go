package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

const crashEnv = "TANKBOT_STORE_CRASH_DB"

// TestCrashChild is the child of TestCrashSafety: it appends moves forever,
// printing each ply once its commit returned.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("only run as the child of TestCrashSafety")
	}
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(ctx, newGame("c", "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("game %d\n", g.ID)
	for ply := 0; ; ply++ {
		if err := s.AppendMove(ctx, g.ID, ply, MoveRecord{Notation: fmt.Sprint("m", ply+1), Position: fmt.Sprint("p", ply+1)}, GameUpdate{}); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("ply %d\n", ply+1)
	}
}

// TestCrashSafety SIGKILLs a writer mid-stream: the file must be intact and
// hold every move the writer saw committed.
func TestCrashSafety(t *testing.T) {
	for round := range 3 {
		path := filepath.Join(t.TempDir(), "crash.db")
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		var game int64
		last, stopAt := 0, 20+rand.IntN(200)
		for sc.Scan() {
			var n int64
			if _, err := fmt.Sscanf(sc.Text(), "game %d", &n); err == nil {
				game = n
				continue
			}
			if _, err := fmt.Sscanf(sc.Text(), "ply %d", &n); err == nil {
				last = int(n)
				if last >= stopAt {
					break
				}
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if game == 0 || last < stopAt {
			t.Fatalf("round %d: child stopped early at ply %d (game %d): %v", round, last, game, sc.Err())
		}
		s := open(t, path, nil)
		if res, err := s.Check(context.Background()); err != nil || res != "ok" {
			t.Fatalf("integrity_check %q %v", res, err)
		}
		g, ms, err := s.LoadGame(context.Background(), game)
		if err != nil {
			t.Fatal(err)
		}
		if g.Ply < last || len(ms) != g.Ply {
			t.Fatalf("round %d: reported ply %d, stored ply %d with %d moves", round, last, g.Ply, len(ms))
		}
		for i, m := range ms {
			if m.Ply != i+1 || m.Notation != "m"+strconv.Itoa(i+1) {
				t.Fatalf("round %d: move %d is %+v", round, i, m)
			}
		}
		t.Logf("round %d: killed after ply %d, stored %d", round, last, g.Ply)
		s.Close()
	}
}
