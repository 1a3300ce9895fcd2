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
	st.Close()
	st, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if v, err := FromStore(st).GetMeta(ctx, "k"); err != nil || v != "b" {
		t.Errorf("after reopen: %q %v", v, err)
	}
}
