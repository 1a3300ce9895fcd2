package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

func TestGlobalLadder(t *testing.T) { storetest.Run(t, testGlobalLadder) }

// testGlobalLadder: a game outside the servers the bot is in counts on the
// global ladder (migration 0019), apart from the server's: a game without
// a server, and one in a server the bot is not a member of (Ladder set by
// the caller), rate there; a server game rates on its server. The global
// ratings are exported and erased with the player.
func testGlobalLadder(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	play := func(g Game, result string) *Game {
		t.Helper()
		cg, err := s.CreateGame(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.FinishGame(ctx, cg.ID, 0, Outcome{result, "resignation"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ApplyRatedResult(ctx, cg.ID, plusMinus); err != nil {
			t.Fatal(err)
		}
		return cg
	}
	dm := newGame("dm-1", "alice", "bob")
	dm.Guild = ""
	if g := play(dm, "1-0"); g.Ladder != GlobalLadder {
		t.Fatalf("a game outside any server: ladder %q, want %q", g.Ladder, GlobalLadder)
	}
	// A server reached only through alice's own install: the caller puts
	// the game on the global ladder although it has a server.
	userInstalled := newGame("c-2", "alice", "carol")
	userInstalled.Guild, userInstalled.Ladder, userInstalled.NoPosts = "g2", GlobalLadder, true
	if g := play(userInstalled, "1-0"); g.Ladder != GlobalLadder || g.Guild != "g2" || !g.NoPosts {
		t.Fatalf("a user-installed server's game: guild %q ladder %q no posts %v", g.Guild, g.Ladder, g.NoPosts)
	}
	if g, err := s.Game(ctx, 2); err != nil || !g.NoPosts {
		t.Fatalf("read back: %+v %v", g, err)
	}
	if g := play(newGame("c-1", "alice", "bob"), "0-1"); g.Ladder != "g1" {
		t.Fatalf("a server game: ladder %q, want g1", g.Ladder)
	}
	page, total, err := s.Leaderboard(ctx, GlobalLadder, "tank", 350, 0, 10)
	if err != nil || total != 3 || page[0].Player != "alice" || page[0].Rating != 1520 || page[0].Games != 2 {
		t.Fatalf("global ladder: %d %+v %v", total, page, err)
	}
	page, total, err = s.Leaderboard(ctx, "g1", "tank", 350, 0, 10)
	if err != nil || total != 2 || page[0].Player != "bob" || page[0].Rating != 1510 || page[1].Games != 1 {
		t.Fatalf("g1's ladder: %d %+v %v", total, page, err)
	}
	if _, total, _ := s.Leaderboard(ctx, "g2", "tank", 350, 0, 10); total != 0 {
		t.Fatalf("g2 (no bot) has a ladder of %d", total)
	}
	mine, err := s.PlayerRatings(ctx, GlobalLadder, "alice")
	if err != nil || len(mine) != 1 || mine[0].Guild != GlobalLadder {
		t.Fatalf("alice's global ratings: %+v %v", mine, err)
	}
	d, err := s.ExportUser(ctx, "alice")
	if err != nil || len(d.Ratings) != 2 {
		t.Fatalf("export: %+v %v", d, err)
	}
	if _, err := s.DeleteUser(ctx, "alice", Scrub{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rating(ctx, GlobalLadder, "tank", "alice"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("alice's global rating after erasure: %v", err)
	}
	if _, total, _ := s.Leaderboard(ctx, GlobalLadder, "tank", 350, 0, 10); total != 2 {
		t.Fatalf("global ladder after erasing alice: %d players, want bob and carol", total)
	}
}

func TestPlayerDMSettings(t *testing.T) { storetest.Run(t, testPlayerDMSettings) }

// testPlayerDMSettings: the player's DM channel with the bot and their
// consent to notices there are kept, exported and erased.
func testPlayerDMSettings(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	if err := s.PutPlayer(ctx, Player{ID: "alice", Name: "Alice", DMChannel: "9001", DMNotices: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeenLocale(ctx, "alice", "th"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Player(ctx, "alice")
	if err != nil || p.DMChannel != "9001" || !p.DMNotices || p.SeenLocale != "th" {
		t.Fatalf("alice: %+v %v", p, err)
	}
	d, err := s.ExportUser(ctx, "alice")
	if err != nil || d.Profile == nil || d.Profile.DMChannel != "9001" || !d.Profile.DMNotices {
		t.Fatalf("export: %+v %v", d.Profile, err)
	}
	p.DMNotices = false
	if err := s.PutPlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Player(ctx, "alice"); p.DMNotices || p.DMChannel != "9001" {
		t.Fatalf("notices off: %+v", p)
	}
	if _, err := s.DeleteUser(ctx, "alice", Scrub{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Player(ctx, "alice"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after erasure: %v", err)
	}
}

func TestHeldPosts(t *testing.T) { storetest.Run(t, testHeldPosts) }

// testHeldPosts: a post Discord refused where the bot is not a member is
// held for its game, survives the purge, is shown once (two racing
// interactions show it once between them), and goes with the player's
// data.
func testHeldPosts(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, b.New(t), fc)
	g, err := s.CreateGame(ctx, newGame("dm-1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"flag fell", "reminder"} {
		if _, err := s.Enqueue(ctx, Message{Channel: "dm-1", Payload: text, Game: g.ID}); err != nil {
			t.Fatal(err)
		}
	}
	claimed, err := s.ClaimOutbox(ctx, fc.Now(), time.Minute, 10)
	if err != nil || len(claimed) != 2 {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	if err := s.Hold(ctx, claimed[0].ID, "403 Missing Access"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSent(ctx, claimed[1].ID, "m1"); err != nil {
		t.Fatal(err)
	}
	fc.Advance(30 * 24 * time.Hour)
	if _, err := s.Purge(ctx, fc.Now()); err != nil {
		t.Fatal(err)
	}
	held, err := s.HeldPosts(ctx, g.ID)
	if err != nil || len(held) != 1 || held[0].Payload != "flag fell" || held[0].State != OutboxHeld {
		t.Fatalf("held after the purge: %+v %v", held, err)
	}
	if in, err := s.HeldPostsIn(ctx, "dm-1"); err != nil || len(in) != 1 || in[0].ID != held[0].ID {
		t.Fatalf("held in the channel: %+v %v", in, err)
	}
	if in, _ := s.HeldPostsIn(ctx, "elsewhere"); len(in) != 0 {
		t.Fatalf("held in another channel: %+v", in)
	}
	if n, err := s.ShowHeld(ctx, []int64{held[0].ID}, ""); err != nil || n != 1 {
		t.Fatalf("first show: %d %v", n, err)
	}
	if n, err := s.ShowHeld(ctx, []int64{held[0].ID}, ""); err != nil || n != 0 {
		t.Fatalf("second show: %d %v, want 0", n, err)
	}
	if held, _ := s.HeldPosts(ctx, g.ID); len(held) != 0 {
		t.Fatalf("still held: %+v", held)
	}
	// Held again, then the player's erasure drops it with the game's posts.
	id, err := s.Enqueue(ctx, Message{Channel: "dm-1", Payload: "late computer move", Game: g.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimOutbox(ctx, fc.Now(), time.Minute, 10); err != nil {
		t.Fatal(err)
	}
	if err := s.Hold(ctx, id, "403"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteUser(ctx, "bob", Scrub{}); err != nil {
		t.Fatal(err)
	}
	if held, _ := s.HeldPosts(ctx, g.ID); len(held) != 0 {
		t.Fatalf("held post after erasing a player: %+v", held)
	}
}
