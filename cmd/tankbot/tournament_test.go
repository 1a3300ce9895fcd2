package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/bot/tournament/trf"
	"github.com/tankbot/tankbot/store"
)

// tankbot tournament export --id N writes the stored tournament as TRF;
// bad requests are usage errors, an unknown id an error.
func TestTournamentExportCommand(t *testing.T) {
	t.Setenv("TANKBOT_DB", "")
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "tankbot.db")
	s, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	d := &director.Director{Store: s, Now: time.Now}
	ev, err := d.Create(ctx, store.Tournament{Guild: "g", Channel: "c", Creator: "org", Kind: "tank", Variant: "classic", Clock: "1d"},
		tournament.Settings{Format: tournament.Swiss, SwissRounds: 3, RoundLength: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"ann", "bob", "cat", "dan", "eve"} {
		if err := d.JoinAs(ctx, ev.Row.ID, store.TournamentEntrant{Player: n, Name: strings.ToUpper(n), Rating: float64(1600 - i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Start(ctx, ev.Row.ID, tournament.Actor{ID: "org"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var out, errb bytes.Buffer
	if code := runMain([]string{"tournament", "export", "--db", dbPath, "--id", "1"}, &out, &errb); code != exitOK {
		t.Fatalf("export: %d %q", code, errb.String())
	}
	f, err := trf.Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Players) != 5 || f.Players[0].Name != "ANN" || f.Rounds != 3 || len(f.Players[0].Games) != 1 {
		t.Fatalf("exported %+v", f)
	}
	for _, bad := range [][]string{{"tournament"}, {"tournament", "import", "--id", "1"}, {"tournament", "export"}, {"tournament", "export", "--id", "0"}} {
		var o, e bytes.Buffer
		if code := runMain(append(bad, "--db", dbPath), &o, &e); code != exitUsage || e.Len() == 0 {
			t.Errorf("%v: %d %q", bad, code, e.String())
		}
	}
	var o, e bytes.Buffer
	if code := runMain([]string{"tournament", "export", "--db", dbPath, "--id", "7"}, &o, &e); code == exitOK || !strings.Contains(e.String(), "no tournament 7") {
		t.Errorf("unknown id: %d %q", code, e.String())
	}
}
