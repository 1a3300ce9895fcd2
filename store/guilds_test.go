package store

import (
	"context"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

// A server's settings: zero until saved, then read back field by field,
// replaced whole by the next save, and other servers untouched.
func TestGuildSettings(t *testing.T) { storetest.Run(t, testGuildSettings) }

func testGuildSettings(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	g, err := s.GuildSettings(ctx, "g1")
	if err != nil || g.Guild != "g1" || g.Locale != "" || g.Thread != nil || g.NoAI {
		t.Fatalf("unset server: %+v %v", g, err)
	}
	off := false
	want := GuildSettings{Guild: "g1", Locale: "th", Game: "camelot", Clock: "1d", Thread: &off, NoAI: true}
	if err := s.SaveGuildSettings(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.GuildSettings(ctx, "g1")
	if err != nil || got.Locale != "th" || got.Game != "camelot" || got.Clock != "1d" || got.Thread == nil || *got.Thread || !got.NoAI {
		t.Fatalf("read back %+v %v", got, err)
	}
	on := true
	if err := s.SaveGuildSettings(ctx, GuildSettings{Guild: "g1", Thread: &on}); err != nil {
		t.Fatal(err)
	}
	got, err = s.GuildSettings(ctx, "g1")
	if err != nil || got.Locale != "" || got.Thread == nil || !*got.Thread || got.NoAI {
		t.Fatalf("after the second save %+v %v", got, err)
	}
	if other, err := s.GuildSettings(ctx, "g2"); err != nil || other.Thread != nil || other.Game != "" {
		t.Fatalf("other server %+v %v", other, err)
	}
	if err := s.SaveGuildSettings(ctx, GuildSettings{}); err == nil {
		t.Fatal("saved settings of no server")
	}
}
