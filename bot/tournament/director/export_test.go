package director

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/trf"
)

// A stored Swiss played to the end exports as TRF: the header names the
// event, every round reads back with the same pairings and results.
func TestExportTRF(t *testing.T) {
	w := newWorld(t, filepath.Join(t.TempDir(), "trf.db"), 1)
	id := w.create(tournament.Swiss, 4, 9)
	if _, err := w.d().Start(context.Background(), id, tournament.Actor{ID: "org"}); err != nil {
		t.Fatal(err)
	}
	for {
		if _, fin := w.playRound(id); fin {
			break
		}
	}
	ev, err := w.d().Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := ev.TRF(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "012 tankbot tournament 1: tank classic\n") || !strings.Contains(buf.String(), "\nXXR 4\n") {
		t.Fatalf("header:\n%s", buf.String())
	}
	f, err := trf.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := trf.Import(f)
	if err != nil {
		t.Fatal(err)
	}
	if back.Status != tournament.Finished || len(back.Rounds) != 4 {
		t.Fatalf("read back: %s, %d rounds", back.Status, len(back.Rounds))
	}
	num := map[string]string{}
	for i, e := range ev.T.Seeds() {
		num[e.Player] = trf.PlayerID(i + 1)
		if f.Players[i].Name != e.Player { // stored without names: the id
			t.Errorf("player %d named %q, want %q", i+1, f.Players[i].Name, e.Player)
		}
	}
	for r, round := range ev.T.Rounds {
		want := map[string]tournament.Result{}
		for _, p := range round {
			want[num[p.White]+"-"+num[p.Black]] = p.Result
		}
		for _, p := range back.Rounds[r] {
			if res, ok := want[p.White+"-"+p.Black]; !ok || res != p.Result {
				t.Errorf("round %d: %s-%s %s not exported so", r+1, p.White, p.Black, p.Result)
			}
		}
		if len(back.Rounds[r]) != len(round) {
			t.Errorf("round %d: %d boards read back, %d played", r+1, len(back.Rounds[r]), len(round))
		}
	}
}
