package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/store"
)

// exportOf runs /data request:export for u and decodes the attached file.
func exportOf(t *testing.T, h *harness, u User) store.UserData {
	t.Helper()
	rs := h.slash(u, "data", "request=export")
	if len(rs) != 1 || !rs[0].Ephemeral || len(rs[0].Files) != 1 {
		t.Fatalf("export: want one ephemeral reply with a file, got %+v", rs)
	}
	f := rs[0].Files[0]
	if f.ContentType != "application/json" || !strings.HasSuffix(f.Name, ".json") {
		t.Fatalf("export file %s (%s)", f.Name, f.ContentType)
	}
	var d store.UserData
	if err := json.Unmarshal(f.Data, &d); err != nil {
		t.Fatalf("export file does not decode: %v", err)
	}
	return d
}

// /data: export is a JSON file of the caller's records; delete asks first,
// Cancel changes nothing, Delete erases the caller only and the other
// player keeps the game and goes on playing.
func TestDataExportAndDelete(t *testing.T) {
	h := newHarness(t, Config{})
	alice, bob := user("alice"), user("bob")
	gid := h.StartGame()
	if rs := h.slash(alice, "settings", "flip=true"); !strings.Contains(text(rs), "flipped") {
		t.Fatalf("settings: %+v", rs)
	}

	d := exportOf(t, h, alice)
	if d.User != alice.ID || len(d.Games) != 1 || d.Games[0].ID != gid || d.Profile == nil || !d.Profile.Flip {
		t.Fatalf("alice's export: user %s, %d games, profile %+v", d.User, len(d.Games), d.Profile)
	}

	rs := h.slash(alice, "data", "request=delete")
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "cannot be undone") {
		t.Fatalf("delete did not ask first: %+v", rs)
	}
	no, yes := findID(t, rs, "no"), findID(t, rs, "yes")
	rs = h.click(alice, no)
	if len(rs) != 1 || !rs[0].Ephemeral || !rs[0].Update || !strings.Contains(rs[0].Content, "nothing was changed") {
		t.Fatalf("cancel: %+v", rs)
	}
	if d := exportOf(t, h, alice); len(d.Games) != 1 || d.Profile == nil {
		t.Fatalf("cancel changed alice's data: %d games, profile %+v", len(d.Games), d.Profile)
	}

	rs = h.click(alice, yes)
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "Your data is deleted") {
		t.Fatalf("delete: %+v", rs)
	}
	g, err := h.b.St.(*storeRepo).st.Game(h.ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[0] != store.DeletedPlayer || g.Players[1] != bob.ID || g.Status != store.StatusFinished {
		t.Fatalf("game after the deletion: players %v, status %s", g.Players, g.Status)
	}
	if d := exportOf(t, h, alice); len(d.Games) != 0 || len(d.Ratings) != 0 || (d.Profile != nil && d.Profile.Flip) {
		t.Fatalf("alice's data after deletion: %d games, %d ratings, profile %+v", len(d.Games), len(d.Ratings), d.Profile)
	}

	// Bob keeps his record of the game and plays on.
	if d := exportOf(t, h, bob); len(d.Games) != 1 || d.Games[0].ID != gid {
		t.Fatalf("bob's export after alice's deletion: %d games", len(d.Games))
	}
	rs = h.slash(bob, "history", "game=#1")
	if len(rs) != 1 || len(rs[0].Files) == 0 {
		t.Fatalf("bob's /history of the game: %+v", rs)
	}
	carol := user("carol")
	rs = h.slash(bob, "challenge", "opponent=carol")
	mustNotRefuse(t, rs)
	mustNotRefuse(t, h.click(carol, findID(t, rs, "accept")))

	mustRefuse(t, h.slash(bob, "data", "request=everything"), "Unknown request")
}
