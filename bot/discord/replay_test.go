package discord

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store"
)

// TestFirstInteractionAcrossInstances: two adapters' stores on one
// database agree on which delivery of an interaction id is the first.
func TestFirstInteractionAcrossInstances(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tankbot.db")
	var dedupers []InteractionDeduper
	for range 2 {
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		d, ok := any(FromStore(db)).(InteractionDeduper)
		if !ok {
			t.Fatal("FromStore does not remember interactions")
		}
		dedupers = append(dedupers, d)
	}
	now := time.Now()
	for i, want := range []bool{true, false, false} {
		first, err := dedupers[i%2].FirstInteraction(ctx, "123456789", now)
		if err != nil || first != want {
			t.Fatalf("delivery %d: first=%v (%v), want %v", i+1, first, err, want)
		}
	}
}
