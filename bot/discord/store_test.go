package discord

import (
	"path/filepath"
	"testing"

	"github.com/tankbot/tankbot/store"
)

func TestFromStoreSurvivesReopen(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	m := FromStore(st)
	if v, err := m.GetMeta(ctx, "k"); err != nil || v != "" {
		t.Fatalf("unset key: %q %v", v, err)
	}
	for _, v := range []string{"a", "b"} {
		if err := m.SetMeta(ctx, "k", v); err != nil {
			t.Fatal(err)
		}
	}
	g, err := st.CreateGame(ctx, store.Game{Kind: "tank", Channel: "c", Players: [2]string{"1", "2"}, Start: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.RecordBoard(ctx, g.ID, 0, "c", "m42", store.BoardHook{}); err != nil {
		t.Fatal(err)
	}
	if err := m.RecordBoard(ctx, g.ID+1, 0, "c", "m43", store.BoardHook{}); err == nil {
		t.Error("board message of a missing game: no error")
	}
	st.Close()
	st, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if v, err := FromStore(st).GetMeta(ctx, "k"); err != nil || v != "b" {
		t.Errorf("after reopen: %q %v", v, err)
	}
	if g, err := st.Game(ctx, g.ID); err != nil || g.MessageID != "m42" {
		t.Errorf("board message after reopen: %+v %v", g, err)
	}
}
