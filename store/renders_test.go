package store

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestGameRenders(t *testing.T) { storetest.Run(t, testGameRenders) }

func testGameRenders(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	g, err := s.CreateGame(ctx, newGame("c1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameRender(ctx, g.ID, "replay.gif"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("nothing stored yet: %v", err)
	}
	// A running game's pictures would go stale: refused.
	if err := s.SaveGameRender(ctx, g.ID, "replay.gif", []byte("x")); !errors.Is(err, ErrGameActive) {
		t.Fatalf("render of a running game: %v", err)
	}
	if err := s.FinishGame(ctx, g.ID, 0, Outcome{Result: "1-0", Reason: "resign"}); err != nil {
		t.Fatal(err)
	}
	// Every byte value survives the round trip (BLOB / BYTEA).
	data := make([]byte, 70000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := s.SaveGameRender(ctx, g.ID, "replay.gif", data); err != nil {
		t.Fatal(err)
	}
	// A racing second save keeps the first.
	if err := s.SaveGameRender(ctx, g.ID, "replay.gif", []byte("other")); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveGameRender(ctx, g.ID, "final-en.png", []byte{0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GameRender(ctx, g.ID, "replay.gif")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("stored %d bytes, read %d, not the same", len(data), len(got))
	}
	if n, err := s.GameRenderBytes(ctx, g.ID); err != nil || n != int64(len(data)+3) {
		t.Fatalf("renders weigh %d (%v), want %d", n, err, len(data)+3)
	}
	if err := s.SaveGameRender(ctx, g.ID+1000, "replay.gif", data); !errors.Is(err, ErrNotFound) {
		t.Fatalf("render of no game: %v", err)
	}
	if err := s.SaveGameRender(ctx, g.ID, "", data); err == nil {
		t.Fatal("a render without a name was stored")
	}
	if _, err := s.GameRender(ctx, g.ID, "ply-1-en.png"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unsaved name was found: %v", err)
	}
}
