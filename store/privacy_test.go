package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestExportAndDeleteUser(t *testing.T) { storetest.Run(t, testExportAndDeleteUser) }

// testExportAndDeleteUser: the export holds alice's profile, ratings and
// games; deleting her removes profile and ratings, renames her in games
// (scrubbing the names in Extra), aborts her active game, cancels her
// pending challenge, and leaves bob's records and rating whole.
func testExportAndDeleteUser(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	if err := s.PutPlayer(ctx, Player{ID: "alice", Name: "Alice", Locale: "fr"}); err != nil {
		t.Fatal(err)
	}
	fin := finished(t, s, "alice", "bob", "1-0", "resignation")
	if _, err := s.ApplyRatedResult(ctx, fin.ID, plusMinus); err != nil {
		t.Fatal(err)
	}
	ng := newGame("c2", "bob", "alice")
	ng.Extra = `{"wn":"Bob","bn":"Alice"}` // as rows before migration 0006 carried names
	ng.Names = [2]string{"Bob", "Alice"}
	active, err := s.CreateGame(ctx, ng)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, active.ID, 0, MoveRecord{Notation: "e1", Position: "p1"}, GameUpdate{Extra: ng.Extra}); err != nil {
		t.Fatal(err)
	}
	other, err := s.CreateGame(ctx, newGame("c3", "bob", "carol"))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.CreateChallenge(ctx, Challenge{Challenger: "alice", Challenged: "carol", Kind: "tank", Channel: "c", Expires: t0.Add(3600e9), Status: ChallengePending, Extra: `{"cn":"Alice"}`, ChallengerName: "Alice", ChallengedName: "Carol"})
	if err != nil {
		t.Fatal(err)
	}

	d, err := s.ExportUser(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if d.Profile == nil || d.Profile.Name != "Alice" || d.Profile.Locale != "fr" {
		t.Fatalf("profile %+v", d.Profile)
	}
	if len(d.Ratings) != 1 || d.Ratings[0].Rating != 1510 || len(d.Changes) != 1 || d.Changes[0].GameID != fin.ID {
		t.Fatalf("ratings %+v changes %+v", d.Ratings, d.Changes)
	}
	if len(d.Games) != 2 || d.Games[1].ID != active.ID || len(d.Games[1].Moves) != 1 || d.Games[1].Moves[0].Notation != "e1" {
		t.Fatalf("games %+v", d.Games)
	}
	if len(d.Challenges) != 1 || d.Challenges[0].ID != ch.ID {
		t.Fatalf("challenges %+v", d.Challenges)
	}
	if none, err := s.ExportUser(ctx, "nobody"); err != nil || none.Profile != nil || len(none.Games) != 0 {
		t.Fatalf("unknown user: %+v %v", none, err)
	}

	scrub := func(extra string, side int) (string, error) {
		return strings.ReplaceAll(extra, "Alice", DeletedPlayer), nil
	}
	e, err := s.DeleteUser(ctx, "alice", Scrub{Game: scrub, Challenge: scrub})
	if err != nil {
		t.Fatal(err)
	}
	if e.Profiles != 1 || e.Ratings != 1 || e.RatingChanges != 1 || e.Games != 2 || e.Aborted != 1 || e.Challenges != 1 {
		t.Fatalf("erased %+v", e)
	}
	if _, err := s.Player(ctx, "alice"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("profile kept: %v", err)
	}
	if after, err := s.ExportUser(ctx, "alice"); err != nil || after.Profile != nil || len(after.Ratings)+len(after.Changes)+len(after.Games)+len(after.Challenges) != 0 {
		t.Fatalf("still stored about alice: %+v %v", after, err)
	}
	g, ms, err := s.LoadGame(ctx, active.ID)
	if err != nil || g.Players != [2]string{"bob", DeletedPlayer} || g.Status != StatusFinished || g.Reason != ReasonErased || len(ms) != 1 ||
		strings.Contains(g.Extra, "Alice") || !strings.Contains(g.Extra, "Bob") || g.Names != [2]string{"Bob", DeletedPlayer} {
		t.Fatalf("active game after delete: %+v %d %v", g, len(ms), err)
	}
	if g := mustGame(t, s, fin.ID); g.Players != [2]string{DeletedPlayer, "bob"} || g.Result != "1-0" {
		t.Fatalf("finished game after delete: %+v", g)
	}
	if r, err := s.Rating(ctx, "g1", "tank", "bob"); err != nil || r.Rating != 1490 || r.Games != 1 {
		t.Fatalf("bob's rating: %+v %v", r, err)
	}
	if g := mustGame(t, s, other.ID); g.Players != [2]string{"bob", "carol"} || g.Status != StatusActive {
		t.Fatalf("a game without alice changed: %+v", g)
	}
	c, err := s.Challenge(ctx, ch.ID)
	if err != nil || c.Status != ChallengeCancelled || c.Challenger != DeletedPlayer || c.Challenged != "carol" || strings.Contains(c.Extra, "Alice") ||
		c.ChallengerName != DeletedPlayer || c.ChallengedName != "Carol" {
		t.Fatalf("challenge after delete: %+v %v", c, err)
	}
	// Deleting again finds nothing; a bad id is refused.
	if e, err := s.DeleteUser(ctx, "alice", Scrub{}); err != nil || e != (Erased{}) {
		t.Fatalf("second delete: %+v %v", e, err)
	}
	if _, err := s.DeleteUser(ctx, DeletedPlayer, Scrub{}); err == nil {
		t.Fatal("deleted the placeholder")
	}
	// A failing scrub rolls everything back.
	s.PutPlayer(ctx, Player{ID: "bob", Name: "Bob"})
	if _, err := s.DeleteUser(ctx, "bob", Scrub{Game: func(string, int) (string, error) { return "", errors.New("boom") }}); err == nil {
		t.Fatal("a failing scrub did not fail the delete")
	}
	if _, err := s.Player(ctx, "bob"); err != nil {
		t.Fatalf("the failed delete removed bob's profile: %v", err)
	}
}

func mustGame(t *testing.T, s *Store, id int64) *Game {
	t.Helper()
	g, err := s.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
