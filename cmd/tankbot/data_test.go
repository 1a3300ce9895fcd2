package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/store"
)

// TestDataCommands: export writes the player's data as JSON; delete shows
// what it would do without --yes, erases with it; bad ids are usage errors.
func TestDataCommands(t *testing.T) {
	t.Setenv("TANKBOT_DB", "")
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "tankbot.db")
	s, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.PutPlayer(ctx, store.Player{ID: "111", Name: "Alice", Locale: "fr"})
	g, err := s.CreateGame(ctx, store.Game{Kind: "tank", Guild: "g", Channel: "c", Players: [2]string{"111", "222"}, Start: "s",
		Extra: `{"wn":"Alice","bn":"Bob","moves":[0,0]}`})
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := runMain(args, &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, errs := run("data", "export", "--db", dbPath, "--user", "111")
	var d store.UserData
	if code != exitOK || json.Unmarshal([]byte(out), &d) != nil || d.Profile == nil || d.Profile.Name != "Alice" || len(d.Games) != 1 {
		t.Fatalf("export: %d %q %q", code, out, errs)
	}
	file := filepath.Join(dir, "alice.json")
	if code, out, errs := run("data", "export", "--db", dbPath, "--user", "111", "--out", file); code != exitOK || !strings.Contains(out, "1 games") {
		t.Fatalf("export to file: %d %q %q", code, out, errs)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("export file %v %v", fi, err)
	}
	// Over a file that exists readable by all, the export is still private.
	open := filepath.Join(dir, "open.json")
	if err := os.WriteFile(open, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o644)
	if code, _, errs := run("data", "export", "--db", dbPath, "--user", "111", "--out", open); code != exitOK {
		t.Fatalf("export over a file: %d %q", code, errs)
	}
	if fi, err := os.Stat(open); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("export over a 0644 file left it %v (%v)", fi.Mode(), err)
	}
	for _, bad := range [][]string{{"data"}, {"data", "wipe", "--user", "1"}, {"data", "export", "--user", "<@111>"}, {"data", "delete", "--user", "1", "--out", "x"}} {
		if code, _, errs := run(append(bad, "--db", dbPath)...); code != exitUsage || errs == "" {
			t.Fatalf("%v: %d %q", bad, code, errs)
		}
	}
	if code, out, _ := run("data", "delete", "--db", dbPath, "--user", "111"); code != exitOK || !strings.Contains(out, "--yes") {
		t.Fatalf("delete without --yes: %d %q", code, out)
	}
	if _, err := s.Player(ctx, "111"); err != nil {
		t.Fatalf("delete without --yes deleted: %v", err)
	}
	if code, out, errs := run("data", "delete", "--db", dbPath, "--user", "111", "--yes"); code != exitOK || !strings.Contains(out, "deleted user 111") {
		t.Fatalf("delete: %d %q %q", code, out, errs)
	}
	if _, err := s.Player(ctx, "111"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("profile after delete: %v", err)
	}
	after, err := s.Game(ctx, g.ID)
	if err != nil || after.Players[0] != store.DeletedPlayer || after.Players[1] != "222" || strings.Contains(after.Extra, "Alice") || !strings.Contains(after.Extra, "Bob") {
		t.Fatalf("game after delete: %+v %v", after, err)
	}
}

// A console player's name is refused with how console players are kept,
// not just "digits only".
func TestDataUserHintForConsoleNames(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runMain([]string{"data", "export", "--user", "white"}, &out, &errb); code != 2 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, w := range []string{"Console games", "tankbot play", "white, black, you"} {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("no %q in: %s", w, errb.String())
		}
	}
}
