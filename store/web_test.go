package store

import (
	"context"
	"errors"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestWebLinks(t *testing.T) { storetest.Run(t, testWebLinks) }

func testWebLinks(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	ng := newGame("c1", "alice", "bob")
	ng.Guild = "g1"
	g, err := s.CreateGame(ctx, ng)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.WebToken(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) != 22 {
		t.Fatalf("token %q: want 22 base64url characters (128 bits)", tok)
	}
	again, err := s.WebToken(ctx, g.ID)
	if err != nil || again != tok {
		t.Fatalf("second WebToken = %q, %v; want the same %q", again, err, tok)
	}
	if _, err := s.WebToken(ctx, 9999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("token of a missing game: %v, want ErrNotFound", err)
	}
	got, err := s.GameByWebToken(ctx, tok)
	if err != nil || got.ID != g.ID {
		t.Fatalf("GameByWebToken = %v, %v; want game %d", got, err, g.ID)
	}
	for _, bad := range []string{"", "x", tok[:21] + "A", tok + "A", "1", string(make([]byte, 200))} {
		if bad == tok {
			continue
		}
		if _, err := s.GameByWebToken(ctx, bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("GameByWebToken(%q) = %v, want ErrNotFound", bad, err)
		}
	}
	// Hiding: players only, finished games only.
	if err := s.HideGame(ctx, g.ID, "alice", true); !errors.Is(err, ErrGameActive) {
		t.Fatalf("hide an active game: %v, want ErrGameActive", err)
	}
	if err := s.FinishGame(ctx, g.ID, 0, Outcome{Result: "1-0", Reason: "resign"}); err != nil {
		t.Fatal(err)
	}
	if err := s.HideGame(ctx, g.ID, "mallory", true); !errors.Is(err, ErrNotPlayer) {
		t.Fatalf("hide by a stranger: %v, want ErrNotPlayer", err)
	}
	if _, err := s.GameByWebToken(ctx, tok); err != nil {
		t.Fatalf("refused hide changed the page: %v", err)
	}
	if err := s.HideGame(ctx, g.ID, "bob", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameByWebToken(ctx, tok); !errors.Is(err, ErrNotFound) {
		t.Fatalf("hidden game: %v, want ErrNotFound", err)
	}
	if err := s.HideGame(ctx, g.ID, "alice", false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameByWebToken(ctx, tok); err != nil {
		t.Fatalf("shown again: %v", err)
	}
	// The server's switch.
	if on, err := s.WebLinks(ctx, "g1"); err != nil || !on {
		t.Fatalf("WebLinks default = %v, %v; want on", on, err)
	}
	if err := s.SetWebLinks(ctx, "g1", false); err != nil {
		t.Fatal(err)
	}
	if on, err := s.WebLinks(ctx, "g1"); err != nil || on {
		t.Fatalf("WebLinks after off = %v, %v", on, err)
	}
	if _, err := s.GameByWebToken(ctx, tok); !errors.Is(err, ErrNotFound) {
		t.Fatalf("links off: %v, want ErrNotFound", err)
	}
	if err := s.SetWebLinks(ctx, "g1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameByWebToken(ctx, tok); err != nil {
		t.Fatalf("links on again: %v", err)
	}
	revs, err := s.GameRevs(ctx, []int64{g.ID, 12345})
	if err != nil || len(revs) != 1 || revs[g.ID] == 0 {
		t.Fatalf("GameRevs = %v, %v", revs, err)
	}
}
