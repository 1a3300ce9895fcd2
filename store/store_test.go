package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func open(t testing.TB, dsnOrPath string, fc *clock.Fake) *Store {
	t.Helper()
	if fc == nil {
		fc = clock.NewFake(t0)
	}
	s, err := Open(context.Background(), dsnOrPath, WithNow(fc.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newGame(ch, a, b string) Game {
	cs, _ := clock.ParseSettings("10m+5s")
	return Game{Kind: "tank", Variant: "classic", Guild: "g1", Channel: ch, Players: [2]string{a, b},
		Start: "start", Clock: cs.String(), ClockState: clock.Start(cs, t0)}
}

func TestOpenCreatesDirAndMigrates(t *testing.T) { storetest.Run(t, testOpenCreatesDirAndMigrates) }

func testOpenCreatesDirAndMigrates(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	if b.Name == "sqlite" {
		loc = filepath.Join(t.TempDir(), "a b", "c#?%", "tank.db")
	}
	ms, err := migrations(b.Name == "postgres")
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, loc, nil)
	v, err := s.SchemaVersion(ctx)
	if err != nil || v != len(ms) {
		t.Fatalf("version %d, %v", v, err)
	}
	if s.Backend() != b.Name {
		t.Fatalf("backend %q", s.Backend())
	}
	if err := s.SetMeta(ctx, "cmdhash", "abc"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Reopening an existing database applies nothing twice and keeps the data.
	s2 := open(t, loc, nil)
	if v, _ := s2.SchemaVersion(ctx); v != len(ms) {
		t.Fatalf("version after reopen %d", v)
	}
	if got, err := s2.Meta(ctx, "cmdhash"); err != nil || got != "abc" {
		t.Fatalf("meta after reopen %q %v", got, err)
	}
	if b.Name != "sqlite" {
		return
	}
	var mode string
	s2.w.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	var fk int
	s2.w.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	if mode != "wal" || fk != 1 {
		t.Fatalf("journal_mode %q foreign_keys %d", mode, fk)
	}
}

func TestSchemaTooNew(t *testing.T) { storetest.Run(t, testSchemaTooNew) }

func testSchemaTooNew(t *testing.T, b storetest.Backend) {
	loc := b.New(t)
	s := open(t, loc, nil)
	if _, err := s.w.Exec(`INSERT INTO schema_version(version, applied_at) VALUES(99, 0)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(context.Background(), loc)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("got %v, want ErrSchemaTooNew", err)
	}
	t.Log(err)
}

func TestMetaAndPlayers(t *testing.T) { storetest.Run(t, testMetaAndPlayers) }

func testMetaAndPlayers(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	if _, err := s.Meta(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing meta: %v", err)
	}
	s.SetMeta(ctx, "k", "1")
	s.SetMeta(ctx, "k", "2")
	if v, _ := s.Meta(ctx, "k"); v != "2" {
		t.Fatalf("meta %q", v)
	}
	if _, err := s.Player(ctx, "u1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing player: %v", err)
	}
	r := 1500.0
	p := Player{ID: "u1", Name: "Ann", Locale: "fr", Flip: true, Rating: &r}
	if err := s.PutPlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	got, err := s.Player(ctx, "u1")
	if err != nil || got.Name != "Ann" || got.Locale != "fr" || !got.Flip || got.Rating == nil || *got.Rating != 1500 {
		t.Fatalf("player %+v %v", got, err)
	}
	p.Rating, p.Flip = nil, false
	s.PutPlayer(ctx, p)
	if got, _ := s.Player(ctx, "u1"); got.Rating != nil || got.Flip {
		t.Fatalf("player after update %+v", got)
	}
}

func TestGameLifecycle(t *testing.T) { storetest.Run(t, testGameLifecycle) }

func testGameLifecycle(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, b.New(t), fc)
	g, err := s.CreateGame(ctx, newGame("c1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if g.ID == 0 || g.Position != "start" || g.Status != StatusActive || g.Ply != 0 || !g.Created.Equal(t0) || g.ClockState.Left[0] != 10*time.Minute {
		t.Fatalf("created %+v", g)
	}
	// Several games per channel, one per pair and per thread.
	if _, err := s.CreateGame(ctx, newGame("c1", "bob", "alice")); !errors.Is(err, ErrActiveGameExists) {
		t.Fatalf("second game for the pair: %v", err)
	}
	other, err := s.CreateGame(ctx, newGame("c1", "carol", "alice"))
	if err != nil {
		t.Fatal(err)
	}
	th := newGame("c1", "dan", "erin")
	th.Thread = "t9"
	if _, err := s.CreateGame(ctx, th); err != nil {
		t.Fatal(err)
	}
	th.Players = [2]string{"fay", "gus"}
	if _, err := s.CreateGame(ctx, th); !errors.Is(err, ErrActiveGameExists) {
		t.Fatalf("second game in a thread: %v", err)
	}
	// A thread is a place of its own: the pair playing in c1 may play
	// another game in one of c1's threads.
	th = newGame("c1", "alice", "bob")
	th.Thread = "t10"
	if _, err := s.CreateGame(ctx, th); err != nil {
		t.Fatalf("the pair's game in a thread: %v", err)
	}

	cs, _ := clock.ParseSettings(g.Clock)
	st, spent := g.ClockState.Apply(cs, fc.Advance(3*time.Second))
	err = s.AppendMove(ctx, g.ID, 0, MoveRecord{Side: 0, Notation: "e2e4", Position: "p1", Spent: spent}, GameUpdate{ClockState: st, DrawOffer: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "x", Position: "px"}, GameUpdate{}); !errors.Is(err, ErrStalePly) {
		t.Fatalf("stale append: %v", err)
	}
	if err := s.AppendMove(ctx, 999, 0, MoveRecord{Notation: "x", Position: "px"}, GameUpdate{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("append to missing game: %v", err)
	}
	s.AppendMove(ctx, g.ID, 1, MoveRecord{Side: 1, Notation: "e7e5", Position: "p2"}, GameUpdate{})
	s.AppendMove(ctx, g.ID, 2, MoveRecord{Side: 0, Notation: "d2d4", Position: "p3"}, GameUpdate{Takeback: 2})
	got, ms, err := s.LoadGame(ctx, g.ID)
	if err != nil || got.Ply != 3 || got.Position != "p3" || len(ms) != 3 || ms[0].Notation != "e2e4" || ms[0].Spent != 3*time.Second ||
		!ms[0].At.Equal(t0.Add(3*time.Second)) || got.Takeback != 2 || got.Rev != 3 {
		t.Fatalf("loaded %+v %+v %v", got, ms, err)
	}
	// Take back two: position comes from the log.
	if err := s.Takeback(ctx, g.ID, 2, 1, GameUpdate{}); !errors.Is(err, ErrStalePly) {
		t.Fatalf("stale takeback: %v", err)
	}
	if err := s.Takeback(ctx, g.ID, 3, 2, GameUpdate{}); err != nil {
		t.Fatal(err)
	}
	got, ms, _ = s.LoadGame(ctx, g.ID)
	if got.Ply != 1 || got.Position != "p1" || len(ms) != 1 || got.Takeback != 0 {
		t.Fatalf("after takeback %+v %+v", got, ms)
	}
	if err := s.Takeback(ctx, g.ID, 1, 1, GameUpdate{}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Game(ctx, g.ID)
	if got.Position != "start" || got.Ply != 0 {
		t.Fatalf("after taking back everything %+v", got)
	}
	// Offers through the revision CAS.
	if err := s.UpdateGame(ctx, g.ID, got.Rev-1, GameUpdate{DrawOffer: 2}); !errors.Is(err, ErrStalePly) {
		t.Fatalf("stale update: %v", err)
	}
	if err := s.UpdateGame(ctx, g.ID, got.Rev, GameUpdate{DrawOffer: 2, ClockState: got.ClockState}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMessageID(ctx, g.ID, "m42"); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Game(ctx, g.ID)
	if got.DrawOffer != 2 || got.MessageID != "m42" {
		t.Fatalf("after update %+v", got)
	}
	// An update without a message id keeps the board message.
	if err := s.UpdateGame(ctx, g.ID, got.Rev, GameUpdate{ClockState: got.ClockState}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Game(ctx, g.ID); got.DrawOffer != 0 || got.MessageID != "m42" {
		t.Fatalf("after second update %+v", got)
	}

	if gs, _ := s.ActiveGames(ctx, "g1"); len(gs) != 4 {
		t.Fatalf("active games %d", len(gs))
	}
	if gs, _ := s.ChannelGames(ctx, "t9"); len(gs) != 1 {
		t.Fatalf("thread games %d", len(gs))
	}
	if err := s.FinishGame(ctx, g.ID, 5, Outcome{"1-0", "resign"}); !errors.Is(err, ErrStalePly) {
		t.Fatalf("stale finish: %v", err)
	}
	if err := s.FinishGame(ctx, g.ID, 0, Outcome{"0-1", "resign"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "x", Position: "px"}, GameUpdate{}); !errors.Is(err, ErrStalePly) {
		t.Fatalf("move in a finished game: %v", err)
	}
	if got, _ := s.Game(ctx, g.ID); got.Status != StatusFinished || got.Result != "0-1" || got.Reason != "resign" {
		t.Fatalf("finished %+v", got)
	}
	// A finished game frees the pair; the new game is the last one.
	again, err := s.CreateGame(ctx, newGame("c1", "bob", "alice"))
	if err != nil {
		t.Fatal(err)
	}
	if last, err := s.LastGame(ctx, "alice", "c1"); err != nil || last.ID != again.ID {
		t.Fatalf("last game %+v %v (other %d)", last, err, other.ID)
	}
	// A move that ends the game.
	err = s.AppendMove(ctx, again.ID, 0, MoveRecord{Notation: "mate", Position: "end"}, GameUpdate{Outcome: &Outcome{"1-0", "checkmate"}})
	if got, _ := s.Game(ctx, again.ID); err != nil || got.Status != StatusFinished || got.Reason != "checkmate" || got.Ply != 1 {
		t.Fatalf("mating move %+v %v", got, err)
	}
	if _, err := s.LastGame(ctx, "zed", "c1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no last game: %v", err)
	}
	if _, err := s.Game(ctx, 12345); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing game: %v", err)
	}
}

func TestChallenges(t *testing.T) { storetest.Run(t, testChallenges) }

func testChallenges(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	c, err := s.CreateChallenge(ctx, Challenge{Challenger: "a", Challenged: "b", Kind: "gungi", Clock: "3d", Guild: "g", Channel: "c", Expires: t0.Add(time.Hour)})
	if err != nil || c.Status != ChallengePending || !c.Expires.Equal(t0.Add(time.Hour)) {
		t.Fatalf("create %+v %v", c, err)
	}
	if _, err := s.CreateChallenge(ctx, Challenge{Challenger: "b", Challenged: "a", Kind: "tank", Channel: "c2", Expires: t0}); !errors.Is(err, ErrDuplicateChallenge) {
		t.Fatalf("duplicate: %v", err)
	}
	open1, err := s.CreateChallenge(ctx, Challenge{Challenger: "a", Kind: "camelot", Channel: "c", Expires: t0})
	if err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.PendingChallenges(ctx, "z"); len(ps) != 1 || ps[0].ID != open1.ID {
		t.Fatalf("pending for z: %+v", ps)
	}
	if ps, _ := s.PendingChallenges(ctx, "b"); len(ps) != 2 {
		t.Fatalf("pending for b: %d", len(ps))
	}
	if c.MessageID != "" {
		t.Fatalf("a new challenge has message %q", c.MessageID)
	}
	if err := s.SetChallengeMessage(ctx, c.ID, "m7"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Challenge(ctx, c.ID); got.MessageID != "m7" {
		t.Fatalf("message id %q, want m7", got.MessageID)
	}
	if err := s.SetChallengeMessage(ctx, 999, "m8"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("message of a missing challenge: %v", err)
	}
	g, err := s.AcceptChallenge(ctx, c.ID, newGame("c", "b", "a"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptChallenge(ctx, c.ID, newGame("c9", "b", "a")); !errors.Is(err, ErrNotPending) {
		t.Fatalf("double accept: %v", err)
	}
	if gs, _ := s.ChannelGames(ctx, "c9"); len(gs) != 0 {
		t.Fatal("a failed accept created a game")
	}
	got, _ := s.Challenge(ctx, c.ID)
	if got.Status != ChallengeAccepted || got.GameID != g.ID || got.MessageID != "m7" {
		t.Fatalf("accepted %+v", got)
	}
	if err := s.SetChallengeStatus(ctx, c.ID, ChallengeDeclined); !errors.Is(err, ErrNotPending) {
		t.Fatalf("decline accepted: %v", err)
	}
	// Accept blocked by an active game leaves the challenge pending.
	c2, _ := s.CreateChallenge(ctx, Challenge{Challenger: "a", Challenged: "b", Kind: "tank", Channel: "c", Expires: t0})
	if _, err := s.AcceptChallenge(ctx, c2.ID, newGame("c", "a", "b")); !errors.Is(err, ErrActiveGameExists) {
		t.Fatalf("accept into busy channel: %v", err)
	}
	if got, _ := s.Challenge(ctx, c2.ID); got.Status != ChallengePending {
		t.Fatalf("status after failed accept %s", got.Status)
	}
	for _, st := range []string{ChallengeCancelled, ChallengeExpired} {
		if err := s.SetChallengeStatus(ctx, c2.ID, st); st == ChallengeCancelled && err != nil || st == ChallengeExpired && !errors.Is(err, ErrNotPending) {
			t.Fatalf("%s: %v", st, err)
		}
	}
	if err := s.SetChallengeStatus(ctx, open1.ID, ChallengeAccepted); err == nil {
		t.Fatal("accepted without a game")
	}
	if err := s.SetChallengeStatus(ctx, 999, ChallengeDeclined); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := s.Challenge(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
}

func TestEvents(t *testing.T) { storetest.Run(t, testEvents) }

func testEvents(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, b.New(t), fc)
	for i, d := range []time.Duration{3, 1, 2, 10} {
		if _, err := s.Schedule(ctx, Event{Kind: "flag", Ref: int64(i), Ply: i, Due: t0.Add(d * time.Minute), Payload: "p"}); err != nil {
			t.Fatal(err)
		}
	}
	s.Schedule(ctx, Event{Kind: "remind", Ref: 0, Due: t0})
	s.Schedule(ctx, Event{Kind: "expire", Ref: 0, Due: t0})
	if err := s.CancelEvents(ctx, 0, "remind", "flag"); err != nil {
		t.Fatal(err)
	}
	now := fc.Advance(5 * time.Minute)
	es, err := s.ClaimDue(ctx, now, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var refs []int64
	for _, e := range es {
		refs = append(refs, e.Ref)
		if e.Attempts != 1 {
			t.Fatalf("attempts %+v", e)
		}
	}
	// expire/0 at t0, then ref 1 (1m), 2 (2m); ref 0 flag and remind cancelled; ref 3 not due.
	if len(refs) != 3 || refs[0] != 0 || es[0].Kind != "expire" || refs[1] != 1 || refs[2] != 2 {
		t.Fatalf("claimed %+v", es)
	}
	if again, _ := s.ClaimDue(ctx, now, time.Minute); len(again) != 0 {
		t.Fatalf("claimed twice: %+v", again)
	}
	for _, e := range es[:2] {
		s.Complete(ctx, e.ID)
	}
	// The claimer of es[2] died: once its lease runs out it is retried.
	if again, _ := s.ClaimDue(ctx, fc.Advance(59*time.Second), time.Minute); len(again) != 0 {
		t.Fatalf("claimed within the lease: %+v", again)
	}
	retry, _ := s.ClaimDue(ctx, fc.Advance(time.Second), time.Minute)
	if len(retry) != 1 || retry[0].ID != es[2].ID || retry[0].Attempts != 2 {
		t.Fatalf("retry %+v", retry)
	}
	s.Complete(ctx, retry[0].ID)
	if late, _ := s.ClaimDue(ctx, fc.Advance(time.Hour), time.Minute); len(late) != 1 || late[0].Ref != 3 {
		t.Fatalf("late %+v", late)
	}
	if err := s.CancelEvents(ctx, 3); err != nil {
		t.Fatal(err)
	}
}

// TestBackupAndCheckPostgres: SQLite's file backup and integrity check say
// what to use instead on PostgreSQL.
func TestBackupAndCheckPostgres(t *testing.T) {
	s := open(t, storetest.Postgres(t), nil)
	if err := s.Backup(context.Background(), filepath.Join(t.TempDir(), "x.db")); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "pg_dump") {
		t.Fatalf("backup on PostgreSQL: %v", err)
	}
	if _, err := s.Check(context.Background()); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "pg_amcheck") {
		t.Fatalf("check on PostgreSQL: %v", err)
	}
}

func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "t.db"), nil)
	g, _ := s.CreateGame(ctx, newGame("c", "a", "b"))
	s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "m1", Position: "p1"}, GameUpdate{})
	dst := filepath.Join(dir, "backups", "copy.db")
	if err := s.Backup(ctx, dst); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, dst); err == nil {
		t.Fatal("backup overwrote an existing file")
	}
	b := open(t, dst, nil)
	got, ms, err := b.LoadGame(ctx, g.ID)
	if err != nil || got.Ply != 1 || len(ms) != 1 || ms[0].Notation != "m1" {
		t.Fatalf("backup holds %+v %+v %v", got, ms, err)
	}
	if res, err := b.Check(ctx); err != nil || res != "ok" {
		t.Fatalf("integrity %q %v", res, err)
	}
}
