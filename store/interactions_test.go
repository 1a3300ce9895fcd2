package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

// TestFirstInteraction: of many deliveries of one interaction id, through
// two stores on one database at once, exactly one is the first; a replay
// within InteractionMemory is still recognised after a purge, and the id is
// forgotten only once older than that.
func TestFirstInteraction(t *testing.T) { storetest.Run(t, testFirstInteraction) }

func testFirstInteraction(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	fc := clock.NewFake(t0)
	s1, s2 := open(t, loc, fc), open(t, loc, fc)
	for _, id := range []string{"1001", "1002"} {
		var firsts atomic.Int32
		var wg sync.WaitGroup
		for i := range 16 {
			st := s1
			if i%2 == 1 {
				st = s2
			}
			wg.Go(func() {
				first, err := st.FirstInteraction(ctx, id, fc.Now())
				if err != nil {
					t.Error(err)
				}
				if first {
					firsts.Add(1)
				}
			})
		}
		wg.Wait()
		if n := firsts.Load(); n != 1 {
			t.Fatalf("interaction %s: %d firsts, want 1", id, n)
		}
	}
	// A purge "of everything" keeps ids younger than InteractionMemory.
	fc.Advance(InteractionMemory - time.Minute)
	if _, err := s1.Purge(ctx, fc.Now()); err != nil {
		t.Fatal(err)
	}
	if first, err := s2.FirstInteraction(ctx, "1001", fc.Now()); first || err != nil {
		t.Fatalf("a replay %v after purge: first=%v %v", InteractionMemory-time.Minute, first, err)
	}
	fc.Advance(2 * time.Minute)
	if _, err := s1.Purge(ctx, fc.Now()); err != nil {
		t.Fatal(err)
	}
	if first, err := s2.FirstInteraction(ctx, "1002", fc.Now()); !first || err != nil {
		t.Fatalf("an id older than InteractionMemory is still remembered after purge: first=%v %v", first, err)
	}
}
