package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// TestBackupDuringMoves: a backup taken while goroutines append moves holds
// every move acknowledged before it started, restores, and passes the
// integrity check.
func TestBackupDuringMoves(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "live.db")
	s := open(t, dbPath, nil)
	const writers = 4
	ids := make([]int64, writers)
	for i := range ids {
		g, err := s.CreateGame(ctx, newGame(fmt.Sprintf("c%d", i), "a", "b"))
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = g.ID
	}
	var acked [writers]atomic.Int64 // plies acknowledged per game
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var werr atomic.Value
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ply := 0; ; ply++ {
				select {
				case <-stop:
					return
				default:
				}
				n := fmt.Sprintf("m%d", ply+1)
				if err := s.AppendMove(ctx, ids[i], ply, MoveRecord{Notation: n, Position: "p" + n}, GameUpdate{}); err != nil {
					werr.Store(err)
					return
				}
				acked[i].Store(int64(ply + 1))
			}
		}()
	}
	// Let moves flow, then back up while they keep flowing.
	for acked[writers-1].Load() < 20 {
		if werr.Load() != nil {
			break
		}
	}
	var before [writers]int64
	for i := range before {
		before[i] = acked[i].Load()
	}
	out := filepath.Join(dir, "backups", "copy.db")
	if err := BackupFile(ctx, dbPath, out); err != nil {
		t.Fatal(err)
	}
	var during [writers]int64
	for i := range during {
		during[i] = acked[i].Load()
	}
	close(stop)
	wg.Wait()
	if err, _ := werr.Load().(error); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup file %v %v", fi, err)
	}
	if err := BackupFile(ctx, dbPath, out); !errors.Is(err, os.ErrExist) {
		t.Fatalf("second backup to the same file: %v", err)
	}

	// The live database is open: restoring over it is refused, even forced.
	if _, err := Restore(ctx, out, dbPath, true, t0); !errors.Is(err, ErrInUse) {
		t.Fatalf("restore over a database in use: %v", err)
	}
	s.Close()
	if _, err := Restore(ctx, out, dbPath, false, t0); !errors.Is(err, ErrExists) {
		t.Fatalf("restore over an existing database without force: %v", err)
	}
	res, err := Restore(ctx, out, dbPath, true, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(res.Previous); err != nil {
		t.Fatalf("the replaced database was not kept: %v", err)
	}
	r := open(t, dbPath, nil)
	if v, err := r.Check(ctx); err != nil || v != "ok" {
		t.Fatalf("integrity %q %v", v, err)
	}
	total := 0
	for i, id := range ids {
		g, ms, err := r.LoadGame(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(ms)) < before[i] || int64(len(ms)) > during[i] || g.Ply != len(ms) {
			t.Fatalf("game %d: %d moves restored (ply %d); %d acknowledged before the backup, %d when it ended", id, len(ms), g.Ply, before[i], during[i])
		}
		for j, m := range ms {
			if m.Ply != j+1 || m.Notation != fmt.Sprintf("m%d", j+1) {
				t.Fatalf("game %d move %d is %+v", id, j+1, m)
			}
		}
		total += len(ms)
	}
	t.Logf("restored %d moves; acknowledged before the backup %v, when it ended %v", total, before, during)
}

// TestRestoreRefusesBadBackup: a file that is not a database changes
// nothing.
func TestRestoreRefusesBadBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.db")
	os.WriteFile(bad, []byte("not a database at all, just text that is long enough"), 0o600)
	dbPath := filepath.Join(dir, "new.db")
	if _, err := Restore(ctx, bad, dbPath, false, t0); err == nil {
		t.Fatal("restored a file that is not a database")
	}
	if _, err := os.Stat(dbPath); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a failed restore left %s: %v", dbPath, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*restoring*"))
	if len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if _, err := Restore(ctx, bad, "postgres://x@/y", false, t0); !errors.Is(err, ErrNotSupported) {
		t.Fatalf("restore to PostgreSQL: %v", err)
	}
}
