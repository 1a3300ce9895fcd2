package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
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

// TestRestoreRefusesNonTankbotFiles: an empty file, another program's
// SQLite database and a tankbot database with no migration applied are
// each refused with what was found, and the live database is unchanged.
func TestRestoreRefusesNonTankbotFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "live.db")
	s := open(t, dbPath, nil)
	if err := s.SetMeta(ctx, "k", "live"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(name string, stmts ...string) string {
		p := filepath.Join(dir, name)
		if len(stmts) == 0 {
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}
		db, err := sql.Open("sqlite3", p)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range stmts {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		return p
	}
	cases := []struct{ file, says string }{
		{mk("empty.db"), "empty"},
		{mk("foreign.db", `CREATE TABLE cats (name TEXT)`, `INSERT INTO cats VALUES ('tom')`), "another program (no schema_version table; tables: cats)"},
		{mk("unmigrated.db", `CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`), "no migration applied"},
	}
	for _, c := range cases {
		_, err := Restore(ctx, c.file, dbPath, true, t0)
		if !errors.Is(err, ErrNotTankbot) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("restore from %s: %v, want ErrNotTankbot saying %q", filepath.Base(c.file), err, c.says)
		}
	}
	after, err := os.ReadFile(dbPath)
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("the live database changed (%v)", err)
	}
	if kept, _ := filepath.Glob(dbPath + ".*"); len(kept) > 0 {
		t.Fatalf("refused restores left %v", kept)
	}
}

// TestRestoreKeepsEveryCopy: two restores in the same second keep two
// distinct copies of what was live, each named in the result.
func TestRestoreKeepsEveryCopy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "live.db")
	bk := filepath.Join(dir, "backup.db")
	s := open(t, dbPath, nil)
	if err := s.SetMeta(ctx, "k", "backup"); err != nil {
		t.Fatal(err)
	}
	if err := BackupFile(ctx, dbPath, bk); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var kept []string
	for i, v := range []string{"first", "second"} {
		s := open(t, dbPath, nil)
		if err := s.SetMeta(ctx, "k", v); err != nil {
			t.Fatal(err)
		}
		s.Close()
		res, err := Restore(ctx, bk, dbPath, true, t0.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if res.Previous == "" || slices.Contains(kept, res.Previous) {
			t.Fatalf("restore %d kept %q (earlier: %v)", i, res.Previous, kept)
		}
		kept = append(kept, res.Previous)
	}
	for i, want := range []string{"first", "second"} {
		k := open(t, kept[i], nil)
		if v, err := k.Meta(ctx, "k"); err != nil || v != want {
			t.Errorf("kept copy %s holds %q (%v), want %q", kept[i], v, err, want)
		}
		k.Close()
	}
}

// TestBackupPrivateFromFirstByte: while VACUUM INTO writes the copy, the
// file is never readable by others (it is created 0600, not chmodded at
// the end), and a path that exists is refused.
func TestBackupPrivateFromFirstByte(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "live.db")
	s := open(t, dbPath, nil)
	blob := strings.Repeat("x", 1<<20)
	for i := range 24 {
		if err := s.SetMeta(ctx, fmt.Sprint("k", i), blob); err != nil {
			t.Fatal(err)
		}
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	out := filepath.Join(dir, "b.db")
	done := make(chan error, 1)
	go func() { done <- BackupFile(ctx, dbPath, out) }()
	seen := 0
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(out)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("backup mode %v (%v), want 0600", fi.Mode(), err)
			}
			t.Logf("watched the file %d times while it was written", seen)
			if err := BackupFile(ctx, dbPath, out); !errors.Is(err, os.ErrExist) {
				t.Fatalf("backup over an existing file: %v", err)
			}
			return
		default:
		}
		if fi, err := os.Stat(out); err == nil {
			seen++
			if fi.Mode().Perm()&0o077 != 0 {
				t.Fatalf("the backup was %v while being written", fi.Mode())
			}
		}
	}
}
