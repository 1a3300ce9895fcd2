package store

import (
	"context"
	"errors"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestGameReviews(t *testing.T) { storetest.Run(t, testGameReviews) }

func testGameReviews(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	g, err := s.CreateGame(ctx, newGame("c1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameReview(ctx, g.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no review yet: %v", err)
	}
	first := &GameReview{GameID: g.ID, Summary: `{"Game":"tank"}`, Annotated: "[Game \"tank\"]\n", Created: t0}
	if err := s.SaveGameReview(ctx, first); err != nil {
		t.Fatal(err)
	}
	// A racing second save keeps the first.
	if err := s.SaveGameReview(ctx, &GameReview{GameID: g.ID, Summary: "{}", Annotated: "x", Created: t0}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GameReview(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary != first.Summary || got.Annotated != first.Annotated || !got.Created.Equal(t0) {
		t.Fatalf("stored review %+v, want %+v", got, first)
	}
	if err := s.SaveGameReview(ctx, &GameReview{GameID: g.ID + 1000, Summary: "{}", Annotated: "x", Created: t0}); err == nil {
		t.Fatal("a review of no game was stored")
	}
}
