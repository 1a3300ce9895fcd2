package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/store"
)

// TestBackupRestoreCommands: backup copies a database the bot holds open;
// restore refuses while it is open, refuses to replace without --force, and
// with --force restores and keeps the old file.
func TestBackupRestoreCommands(t *testing.T) {
	t.Setenv("TANKBOT_DB", "")
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "tankbot.db")
	s, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SetMeta(ctx, "k", "before"); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := runMain(args, &out, &errb)
		return code, out.String(), errb.String()
	}
	bk := filepath.Join(dir, "b.db")
	if code, out, errs := run("backup", "--db", dbPath, "--out", bk); code != exitOK || !strings.Contains(out, "backed up") {
		t.Fatalf("backup: %d %q %q", code, out, errs)
	}
	if code, _, errs := run("backup", "--db", dbPath); code != exitUsage || !strings.Contains(errs, "--out") {
		t.Fatalf("backup without --out: %d %q", code, errs)
	}
	s.SetMeta(ctx, "k", "after")
	if code, _, errs := run("restore", "--db", dbPath, "--from", bk, "--force"); code != exitFail || !strings.Contains(errs, "in use") {
		t.Fatalf("restore over an open database: %d %q", code, errs)
	}
	s.Close()
	if code, _, errs := run("restore", "--db", dbPath, "--from", bk); code != exitFail || !strings.Contains(errs, "--force") {
		t.Fatalf("restore without --force: %d %q", code, errs)
	}
	if code, out, errs := run("restore", "--db", dbPath, "--from", bk, "--force"); code != exitOK || !strings.Contains(out, "previous database is kept") {
		t.Fatalf("restore: %d %q %q", code, out, errs)
	}
	r, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if v, err := r.Meta(ctx, "k"); err != nil || v != "before" {
		t.Fatalf("restored value %q %v", v, err)
	}
}

// TestBackupBesideRunningServe: with `tankbot serve` running on a SQLite
// file in another process, backup copies it and restore is refused (the
// other process holds the database open), even with --force.
func TestBackupBesideRunningServe(t *testing.T) {
	t.Setenv("TANKBOT_DB", "")
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "live.db")
	w := newBBWorld(t, dbPath)
	p := w.start()
	var out, errb bytes.Buffer
	bk := filepath.Join(dir, "copy.db")
	if code := runMain([]string{"backup", "--db", dbPath, "--out", bk}, &out, &errb); code != exitOK {
		t.Fatalf("backup beside serve: %d %s", code, errb.String())
	}
	errb.Reset()
	if code := runMain([]string{"restore", "--db", dbPath, "--from", bk, "--force"}, &out, &errb); code != exitFail || !strings.Contains(errb.String(), "in use") {
		t.Fatalf("restore under a running serve: %d %q", code, errb.String())
	}
	p.stop()
	errb.Reset()
	if code := runMain([]string{"restore", "--db", dbPath, "--from", bk, "--force"}, &out, &errb); code != exitOK {
		t.Fatalf("restore after serve stopped: %d %q", code, errb.String())
	}
}

// TestRestoreCommandRefusesEmpty: `restore --from` an empty file exits
// non-zero, says what it found and leaves the database as it was; a good
// restore names the kept file.
func TestRestoreCommandRefusesEmpty(t *testing.T) {
	t.Setenv("TANKBOT_DB", "")
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "tankbot.db")
	s, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	s.SetMeta(ctx, "k", "live")
	s.Close()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runMain([]string{"restore", "--db", dbPath, "--from", empty, "--force"}, &out, &errb); code == exitOK || !strings.Contains(errb.String(), "empty") {
		t.Fatalf("restore from an empty file: %d %q %q", code, out.String(), errb.String())
	}
	r, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if v, err := r.Meta(ctx, "k"); err != nil || v != "live" {
		t.Fatalf("after a refused restore the database holds %q (%v)", v, err)
	}
}
