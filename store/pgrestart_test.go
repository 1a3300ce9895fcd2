package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// privatePostgres starts a PostgreSQL cluster of the test's own (initdb in
// a temporary directory, listening on a unix socket there), so that the
// test may stop and start it without disturbing other tests on the shared
// server. It returns the DSN and a function running pg_ctl with arguments.
// The test is skipped when initdb/pg_ctl are not installed.
func privatePostgres(t *testing.T) (dsn string, pgctl func(args ...string) error) {
	t.Helper()
	bindir := ""
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		bindir = filepath.Dir(p)
	} else {
		dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
		sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
				bindir = d
				break
			}
		}
	}
	if bindir == "" {
		t.Skip("initdb/pg_ctl not installed: skipping the PostgreSQL restart test")
	}
	dir, err := os.MkdirTemp("", "tankbot-pgrestart.")
	if err != nil {
		t.Fatal(err)
	}
	var as []string
	if os.Getuid() == 0 {
		// PostgreSQL refuses to run as root (as .ci/postgres.sh does).
		if out, err := exec.Command("chown", "postgres:", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot hand the cluster to the postgres user: %v %s", err, out)
		}
		as = []string{"runuser", "-u", "postgres", "--"}
	}
	run := func(name string, args ...string) error {
		cmd := append(append([]string(nil), as...), append([]string{filepath.Join(bindir, name)}, args...)...)
		out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	if err := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		t.Fatal(err)
	}
	opts := "-c listen_addresses='' -k " + dir + " -c fsync=off -c max_connections=50"
	pgctl = func(args ...string) error {
		if args[len(args)-1] == "start" {
			args = append([]string{"-o", opts}, args...)
		}
		return run("pg_ctl", append([]string{"-D", data, "-l", filepath.Join(dir, "server.log"), "-w", "-s"}, args...)...)
	}
	if err := pgctl("start"); err != nil {
		os.RemoveAll(dir)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = pgctl("-m", "immediate", "stop")
		os.RemoveAll(dir)
	})
	return "postgres://postgres@/postgres?host=" + dir + "&sslmode=disable", pgctl
}

// TestPostgresRestartMidRun: players keep moving (and reading their games)
// through two stores while the PostgreSQL server stops for a moment and
// starts again. No operation returns an error (transient failures are
// retried within TransientBudget) and every acknowledged move is stored
// once, none lost.
func TestPostgresRestartMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: starts and restarts a PostgreSQL cluster")
	}
	dsn, pgctl := privatePostgres(t)
	ctx := context.Background()
	stores := []*Store{open(t, dsn, nil), open(t, dsn, nil)}
	const players = 6
	ids := make([]int64, players)
	for i := range ids {
		g, err := stores[0].CreateGame(ctx, newGame(fmt.Sprint("c", i), fmt.Sprint("a", i), fmt.Sprint("b", i)))
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = g.ID
	}
	var (
		stop      atomic.Bool
		ops, errs atomic.Int64
		mu        sync.Mutex
		firstErrs []string
		acked     = make([]int, players)
		slowest   atomic.Int64
		wg        sync.WaitGroup
	)
	for i := range players {
		wg.Go(func() {
			s := stores[i%2]
			for ply := 0; !stop.Load(); {
				start := time.Now()
				err := s.AppendMove(ctx, ids[i], ply, MoveRecord{Notation: fmt.Sprint("m", ply+1), Position: fmt.Sprint("p", ply+1)}, GameUpdate{})
				if err == nil {
					ply++
					acked[i] = ply
					_, err = s.Game(ctx, ids[i])
				}
				if d := time.Since(start); int64(d) > slowest.Load() {
					slowest.Store(int64(d))
				}
				ops.Add(1)
				if err != nil {
					errs.Add(1)
					mu.Lock()
					if len(firstErrs) < 5 {
						firstErrs = append(firstErrs, err.Error())
					}
					mu.Unlock()
					// The move's fate is unknown to the player: read it back.
					if g, gerr := s.Game(ctx, ids[i]); gerr == nil {
						ply = g.Ply
						acked[i] = ply
					}
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond) // moves flowing
	before := ops.Load()
	down := time.Now()
	if err := pgctl("-m", "fast", "stop"); err != nil {
		stop.Store(true)
		wg.Wait()
		t.Fatal(err)
	}
	// The outage: about 1.5 s with stop and start on a quiet machine,
	// within the store's TransientBudget (2.5 s) with room for a busy one.
	time.Sleep(time.Second)
	if err := pgctl("start"); err != nil {
		stop.Store(true)
		wg.Wait()
		t.Fatal(err)
	}
	outage := time.Since(down)
	// Moves flowing again: at least one more completes (or one fails),
	// however long a busy CPU takes; a hang ends at go test -timeout.
	for restarted := ops.Load(); ops.Load() <= restarted && errs.Load() == 0; {
		time.Sleep(10 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d operations (%d before the stop), %d errors, server down for %v, slowest move+read %v",
		ops.Load(), before, errs.Load(), outage.Round(time.Millisecond), time.Duration(slowest.Load()).Round(time.Millisecond))
	// The retries' budget is wall time: a machine too busy to stop and
	// start the server within it may fail operations (the player is told,
	// and reads the game back); what is acknowledged must still be stored.
	if n := errs.Load(); n != 0 && outage < TransientBudget*4/5 {
		t.Errorf("%d operations failed across a restart of %v, well within the retries' budget of %v, e.g. %q", n, outage.Round(time.Millisecond), TransientBudget, firstErrs)
	} else if n != 0 {
		t.Logf("%d operations failed across a restart of %v, longer than the retries' budget of %v (a busy machine): %q", n, outage.Round(time.Millisecond), TransientBudget, firstErrs)
	}
	if ops.Load() <= before {
		t.Fatal("no operation completed after the restart")
	}
	for i, id := range ids {
		ms, err := stores[0].Moves(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != acked[i] {
			t.Errorf("game %d: %d moves stored, %d acknowledged", id, len(ms), acked[i])
		}
	}
}
