package store

import (
	"context"
	"errors"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestPlayerTextMode(t *testing.T) { storetest.Run(t, testPlayerTextMode) }

// testPlayerTextMode: a player's text mode (migration 0018) is kept with
// the other preferences, left alone by SetSeenLocale, exported, and gone
// with the player's data.
func testPlayerTextMode(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	if err := s.SetSeenLocale(ctx, "bob", "th"); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Player(ctx, "bob"); err != nil || p.TextMode {
		t.Fatalf("a new player's text mode: %+v, %v", p, err)
	}
	if err := s.PutPlayer(ctx, Player{ID: "alice", Name: "Alice", Flip: true, TextMode: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeenLocale(ctx, "alice", "pt-BR"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Player(ctx, "alice")
	if err != nil || !p.TextMode || !p.Flip || p.SeenLocale != "pt-BR" {
		t.Fatalf("alice: %+v, %v", p, err)
	}
	d, err := s.ExportUser(ctx, "alice")
	if err != nil || d.Profile == nil || !d.Profile.TextMode {
		t.Fatalf("export: %+v, %v", d, err)
	}
	p.TextMode = false
	if err := s.PutPlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Player(ctx, "alice"); err != nil || p.TextMode {
		t.Fatalf("text mode off: %+v, %v", p, err)
	}
	p.TextMode = true
	if err := s.PutPlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteUser(ctx, "alice", Scrub{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Player(ctx, "alice"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after deletion: %v, want not found", err)
	}
}
