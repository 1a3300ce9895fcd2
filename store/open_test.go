package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// openAndWork opens loc, reads and writes a little (the work a starting
// instance does at once) and closes it.
func openAndWork(ctx context.Context, loc, who string) error {
	s, err := Open(ctx, loc)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.SchemaVersion(ctx); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if err := s.SetMeta(ctx, "opened-by-"+who, "yes"); err != nil {
		return err
	}
	if _, err := s.Meta(ctx, "opened-by-"+who); err != nil {
		return err
	}
	return nil
}

// TestOpenSQLiteManyAtOnce opens one new SQLite file from 8 stores at the
// same moment, 200 times in a row (issue 33: a deferred migration
// transaction, or the journal-mode switch, failed at once with "database is
// locked" instead of waiting).
func TestOpenSQLiteManyAtOnce(t *testing.T) {
	ctx := context.Background()
	rounds := 200
	if testing.Short() {
		rounds = 20
		t.Log("long tier: 200 rounds")
	}
	dir := t.TempDir()
	for r := range rounds {
		loc := filepath.Join(dir, fmt.Sprintf("r%d.db", r))
		var start, wg sync.WaitGroup
		start.Add(1)
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				start.Wait()
				errs[i] = openAndWork(ctx, loc, fmt.Sprint(i))
			})
		}
		start.Done()
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, store %d: %v", r, i, err)
			}
		}
	}
}

const openChildEnv = "TANKBOT_STORE_OPEN_CHILD"

// TestOpenChild is the child of TestOpenSQLiteTwoProcesses: for each path
// it reads from stdin it opens the file, works and closes it, then answers
// "ok" or the error on one line.
func TestOpenChild(t *testing.T) {
	if os.Getenv(openChildEnv) == "" {
		t.Skip("only run as the child of TestOpenSQLiteTwoProcesses")
	}
	ctx := context.Background()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if err := openAndWork(ctx, in.Text(), "child"); err != nil {
			fmt.Printf("error: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		fmt.Println("ok")
	}
}

// TestOpenSQLiteTwoProcesses opens the same new SQLite file from this
// process and a child process at the same moment, 200 times in a row. The
// child gets each path through a pipe just before the parent opens it.
func TestOpenSQLiteTwoProcesses(t *testing.T) {
	ctx := context.Background()
	rounds := 200
	if testing.Short() {
		rounds = 20
		t.Log("long tier: 200 rounds")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), openChildEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	out := bufio.NewScanner(stdout)
	dir := t.TempDir()
	for r := range rounds {
		loc := filepath.Join(dir, fmt.Sprintf("r%d.db", r))
		if _, err := fmt.Fprintln(stdin, loc); err != nil {
			t.Fatal(err)
		}
		// Two stores here as well, so three openers race per round.
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Go(func() { errs[i] = openAndWork(ctx, loc, fmt.Sprint("parent", i)) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, parent store %d: %v", r, i, err)
			}
		}
		// Skip the test framework's own lines ("=== RUN" etc. go to stdout
		// only under -v, which the child does not get).
		var line string
		for out.Scan() {
			line = out.Text()
			if line == "ok" || strings.HasPrefix(line, "error: ") {
				break
			}
		}
		if line != "ok" {
			t.Fatalf("round %d, child: %q (%v)", r, line, out.Err())
		}
	}
}
