package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

// A move and its effects are one write: when any effect cannot be written,
// the move is not saved either (today's code saved the move and then
// scheduled its flag separately, so a failure or crash in between left a
// clock that never falls).
func TestMoveAndEffectsAreOneTransaction(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "t.db"), nil)
	g, err := s.CreateGame(ctx, newGame("c", "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Schedule(ctx, Event{Kind: "flag", Ref: g.ID, Ply: 0, Due: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	// A trigger makes the new flag's insert fail, as a full disk would.
	bad := GameUpdate{Effects: Effects{
		Cancel:   []EventFilter{{Kinds: []string{"flag"}}},
		Schedule: []Event{{Kind: "flag", Ply: 1, Due: t0.Add(2 * time.Minute)}},
	}}
	if _, err := s.w.ExecContext(ctx, `CREATE TRIGGER no_flags BEFORE INSERT ON events WHEN NEW.ply = 1 BEGIN SELECT RAISE(ABORT, 'injected'); END`); err != nil {
		t.Fatal(err)
	}
	err = s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "m1", Position: "p1"}, bad)
	if err == nil || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("append with a failing effect: %v", err)
	}
	ms, _ := s.Moves(ctx, g.ID)
	evs, _ := s.PendingEvents(ctx, g.ID, "flag")
	if len(ms) != 0 || len(evs) != 1 || evs[0].Ply != 0 {
		t.Fatalf("after the failed write: %d moves, events %+v (want none and the old flag)", len(ms), evs)
	}
	if _, err := s.w.ExecContext(ctx, `DROP TRIGGER no_flags`); err != nil {
		t.Fatal(err)
	}
	good := bad
	good.Effects.Outbox = []Message{{Channel: "c", Payload: "flag soon"}}
	if err := s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "m1", Position: "p1"}, good); err != nil {
		t.Fatal(err)
	}
	evs, _ = s.PendingEvents(ctx, g.ID, "flag")
	if len(evs) != 1 || evs[0].Ply != 1 || evs[0].Ref != g.ID {
		t.Fatalf("flag after the move: %+v", evs)
	}
	out, _ := s.Outbox(ctx)
	if len(out) != 1 || out[0].Payload != "flag soon" || len(out[0].Nonce) != 20 {
		t.Fatalf("outbox: %+v", out)
	}
	// A stale move writes none of its effects.
	err = s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "x", Position: "x"}, good)
	if !errors.Is(err, ErrStalePly) {
		t.Fatalf("stale append: %v", err)
	}
	if out, _ := s.Outbox(ctx); len(out) != 1 {
		t.Fatalf("a stale move queued %d messages", len(out)-1)
	}
}

// Accepting a challenge creates the game, drops the challenge's expiry and
// schedules the new game's flag in one transaction (Ref 0 is the new game).
func TestAcceptChallengeWithEffects(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "t.db"), nil)
	c, err := s.CreateChallenge(ctx, Challenge{Challenger: "a", Challenged: "b", Kind: "tank", Channel: "c", Expires: t0.Add(time.Hour)},
		Effects{Schedule: []Event{{Kind: "expire", Due: t0.Add(time.Hour)}}})
	if err != nil {
		t.Fatal(err)
	}
	if evs, _ := s.PendingEvents(ctx, c.ID, "expire"); len(evs) != 1 {
		t.Fatalf("expiry not scheduled with the challenge: %+v", evs)
	}
	g, err := s.AcceptChallenge(ctx, c.ID, newGame("c", "a", "b"), Effects{
		Cancel:   []EventFilter{{Ref: c.ID, Kinds: []string{"expire"}}},
		Schedule: []Event{{Kind: "flag", Due: t0.Add(10 * time.Minute)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if evs, _ := s.PendingEvents(ctx, c.ID, "expire"); len(evs) != 0 {
		t.Fatalf("expiry left: %+v", evs)
	}
	if evs, _ := s.PendingEvents(ctx, g.ID, "flag"); len(evs) != 1 {
		t.Fatalf("flag of the new game: %+v", evs)
	}
	// A second accept changes nothing, effects included.
	if _, err := s.AcceptChallenge(ctx, c.ID, newGame("d", "a", "b"), Effects{Outbox: []Message{{Channel: "c", Payload: "x"}}}); !errors.Is(err, ErrNotPending) {
		t.Fatalf("second accept: %v", err)
	}
	if out, _ := s.Outbox(ctx); len(out) != 0 {
		t.Fatalf("a refused accept queued %d messages", len(out))
	}
}

// The outbox delivers in order per channel, backs off, remembers what was
// sent and purges old rows.
func TestOutboxLifecycle(t *testing.T) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, filepath.Join(t.TempDir(), "t.db"), fc)
	for _, m := range []Message{{Channel: "a", Payload: "a1"}, {Channel: "a", Payload: "a2"}, {Channel: "b", Payload: "b1"}} {
		if _, err := s.Enqueue(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := s.ClaimOutbox(ctx, t0, time.Minute, 10)
	if err != nil || len(ms) != 3 || ms[0].Payload != "a1" || ms[0].Attempts != 1 {
		t.Fatalf("claim: %v %+v", err, ms)
	}
	if again, _ := s.ClaimOutbox(ctx, t0, time.Minute, 10); len(again) != 0 {
		t.Fatalf("claimed twice: %+v", again)
	}
	// a1 fails and backs off: a2 must wait for it, b1 is sent.
	if err := s.Retry(ctx, ms[0].ID, t0.Add(10*time.Second), "503"); err != nil {
		t.Fatal(err)
	}
	if err := s.Retry(ctx, ms[1].ID, t0.Add(10*time.Second), "waiting"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSent(ctx, ms[2].ID, "m-b1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ClaimOutbox(ctx, t0.Add(5*time.Second), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed during backoff: %+v", got)
	}
	got, _ := s.ClaimOutbox(ctx, t0.Add(10*time.Second), time.Minute, 10)
	if len(got) != 2 || got[0].Payload != "a1" || got[0].Attempts != 2 || got[0].Nonce != ms[0].Nonce {
		t.Fatalf("after the backoff: %+v", got)
	}
	if err := s.GiveUp(ctx, got[0].ID, "gone"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSent(ctx, got[1].ID, "m-a2"); err != nil {
		t.Fatal(err)
	}
	all, _ := s.Outbox(ctx)
	states := []string{}
	for _, e := range all {
		states = append(states, e.State+":"+e.MessageID)
	}
	if strings.Join(states, ",") != "failed:,sent:m-a2,sent:m-b1" {
		t.Fatalf("states %v", states)
	}
	fc.Advance(8 * 24 * time.Hour)
	if n, err := s.Purge(ctx, fc.Now().Add(-7*24*time.Hour)); err != nil || n != 3 {
		t.Fatalf("purge: %d %v", n, err)
	}
}

// Completed events are purged after the retention; pending ones never.
func TestPurgeEvents(t *testing.T) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, filepath.Join(t.TempDir(), "t.db"), fc)
	done, _ := s.Schedule(ctx, Event{Kind: "remind", Ref: 1, Due: t0})
	if _, err := s.Schedule(ctx, Event{Kind: "flag", Ref: 1, Due: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Complete(ctx, done, Effects{Outbox: []Message{{Channel: "c", Payload: "reminder"}}}); err != nil {
		t.Fatal(err)
	}
	// Completing again (a lease ran out, another bot finished it) queues nothing.
	if err := s.Complete(ctx, done, Effects{Outbox: []Message{{Channel: "c", Payload: "reminder"}}}); err != nil {
		t.Fatal(err)
	}
	if out, _ := s.Outbox(ctx); len(out) != 1 {
		t.Fatalf("%d reminders queued, want 1", len(out))
	}
	fc.Advance(3 * 24 * time.Hour)
	if n, _ := s.Purge(ctx, fc.Now().Add(-7*24*time.Hour)); n != 0 {
		t.Fatalf("purged %d rows inside the retention", n)
	}
	fc.Advance(5 * 24 * time.Hour)
	if n, _ := s.Purge(ctx, fc.Now().Add(-7*24*time.Hour)); n != 1 {
		t.Fatalf("purged %d events, want the completed one", n)
	}
	if evs, _ := s.PendingEvents(ctx, 1, ""); len(evs) != 1 {
		t.Fatalf("pending events after purge: %+v", evs)
	}
}

// Reconcile leaves exactly one flag event for the current ply of every
// active timed game.
func TestReconcileFlags(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "t.db"), nil)
	missing, _ := s.CreateGame(ctx, newGame("c1", "a", "b"))
	dup, _ := s.CreateGame(ctx, newGame("c2", "a", "b"))
	stale, _ := s.CreateGame(ctx, newGame("c3", "a", "b"))
	untimed := newGame("c4", "a", "b")
	untimed.Clock = "none"
	u, _ := s.CreateGame(ctx, untimed)
	for _, e := range []Event{
		{Kind: "flag", Ref: dup.ID, Due: t0}, {Kind: "flag", Ref: dup.ID, Due: t0},
		{Kind: "flag", Ref: stale.ID, Ply: 7, Due: t0},
	} {
		if _, err := s.Schedule(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	plan := func(g *Game) (Event, []Event, bool) {
		cs, _ := clock.ParseSettings(g.Clock)
		return Event{Kind: "flag", Due: g.ClockState.Deadline(cs)}, []Event{{Kind: "remind", Due: t0}}, true
	}
	n, err := s.ReconcileFlags(ctx, "flag", plan)
	if err != nil || n != 3 {
		t.Fatalf("reconcile: %d %v", n, err)
	}
	for _, g := range []*Game{missing, dup, stale} {
		evs, _ := s.PendingEvents(ctx, g.ID, "flag")
		if len(evs) != 1 || evs[0].Ply != 0 {
			t.Errorf("game %d flags %+v", g.ID, evs)
		}
	}
	if evs, _ := s.PendingEvents(ctx, u.ID, ""); len(evs) != 0 {
		t.Errorf("untimed game got events %+v", evs)
	}
	if n, _ := s.ReconcileFlags(ctx, "flag", plan); n != 0 {
		t.Errorf("second pass fixed %d games", n)
	}
}

// Seq advances with every move and every takeback and never goes back.
func TestSeqNeverRepeats(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "t.db"), nil)
	g, _ := s.CreateGame(ctx, newGame("c", "a", "b"))
	seqs := []int64{g.Seq}
	step := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		cur, _ := s.Game(ctx, g.ID)
		seqs = append(seqs, cur.Seq)
	}
	step(s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "m1", Position: "p1"}, GameUpdate{}))
	step(s.Takeback(ctx, g.ID, 1, 1, GameUpdate{}))
	step(s.AppendMove(ctx, g.ID, 0, MoveRecord{Notation: "m1b", Position: "p1b"}, GameUpdate{}))
	for i := 1; i < len(seqs); i++ {
		if seqs[i] <= seqs[i-1] {
			t.Fatalf("seq went %v", seqs)
		}
	}
}

// Repetitions are counted from stored keys; a log from before the keys is
// reported partial.
func TestRepetitionCount(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "t.db"), nil)
	g, _ := s.CreateGame(ctx, newGame("c", "a", "b"))
	for i, k := range []string{"A", "B", "A", "B", "A"} {
		if err := s.AppendMove(ctx, g.ID, i, MoveRecord{Notation: "m", Position: "p", RepKey: k}, GameUpdate{}); err != nil {
			t.Fatal(err)
		}
	}
	if n, partial, err := s.RepetitionCount(ctx, g.ID, "A"); err != nil || n != 3 || partial {
		t.Fatalf("A: %d %v %v", n, partial, err)
	}
	if err := s.AppendMove(ctx, g.ID, 5, MoveRecord{Notation: "m", Position: "p"}, GameUpdate{}); err != nil {
		t.Fatal(err)
	}
	if _, partial, _ := s.RepetitionCount(ctx, g.ID, "A"); !partial {
		t.Fatal("a move without a key is not reported")
	}
}

// The database and its companions are private to the user whatever the
// umask; a directory the store creates is 0700.
func TestDatabaseIsPrivate(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "new")
	path := filepath.Join(dir, "t.db")
	s := open(t, path, nil)
	if _, err := s.CreateGame(ctx, newGame("c", "a", "b")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("dir: %v %v", err, fi.Mode())
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", f, fi.Mode().Perm())
		}
	}
	// An existing world-readable file is tightened on open.
	s.Close()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	open(t, path, nil)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("reopened mode %v", fi.Mode().Perm())
	}
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(filepath.Join(t.TempDir(), "target.db"), link); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, link); err == nil {
		t.Error("opened through a dangling symbolic link")
	}
}

// The seen locale and the heartbeat are stored apart from the settings.
func TestSeenLocaleAndHeartbeat(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "t.db"), nil)
	if err := s.PutPlayer(ctx, Player{ID: "u", Locale: "th", Flip: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeenLocale(ctx, "u", "pt-BR"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeenLocale(ctx, "v", "th"); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Player(ctx, "u")
	if p.Locale != "th" || !p.Flip || p.SeenLocale != "pt-BR" {
		t.Fatalf("player %+v", p)
	}
	if last, err := s.LastHeartbeat(ctx); err != nil || !last.IsZero() {
		t.Fatalf("heartbeat before any: %v %v", last, err)
	}
	if err := s.Heartbeat(ctx, t0); err != nil {
		t.Fatal(err)
	}
	if last, _ := s.LastHeartbeat(ctx); !last.Equal(t0) {
		t.Fatalf("heartbeat %v", last)
	}
}

// Postpone puts a claimed message back without counting the claim as an
// attempt; Retry counts it. A fallback ping keeps at least 1 (a claimed
// ping is late: it holds back its channel). Both backends.
func TestOutboxPostpone(t *testing.T) { storetest.Run(t, testOutboxPostpone) }

func testOutboxPostpone(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), clock.NewFake(t0))
	id, err := s.Enqueue(ctx, Message{Channel: "c", Payload: "{}"})
	if err != nil {
		t.Fatal(err)
	}
	at := t0
	claim := func() Message {
		t.Helper()
		ms, err := s.ClaimOutbox(ctx, at, time.Minute, 10)
		if err != nil || len(ms) != 1 || ms[0].ID != id {
			t.Fatalf("claim at %v: %+v %v", at.Sub(t0), ms, err)
		}
		return ms[0]
	}
	for i := range 4 {
		if m := claim(); m.Attempts != 1 {
			t.Fatalf("claim %d after postponing: %d attempts, want 1", i+1, m.Attempts)
		}
		at = at.Add(time.Second)
		if err := s.Postpone(ctx, id, at, "429"); err != nil {
			t.Fatal(err)
		}
	}
	claim()
	at = at.Add(time.Second)
	if err := s.Retry(ctx, id, at, "503"); err != nil {
		t.Fatal(err)
	}
	if m := claim(); m.Attempts != 2 {
		t.Fatalf("after a retry: %d attempts, want 2", m.Attempts)
	}
	at = at.Add(time.Second)
	if err := s.Postpone(ctx, id, at, "429"); err != nil {
		t.Fatal(err)
	}
	if m := claim(); m.Attempts != 2 {
		t.Fatalf("a postponed retry: %d attempts, want 2 (the failure stays counted)", m.Attempts)
	}
	if err := s.MarkSent(ctx, id, "m1"); err != nil {
		t.Fatal(err)
	}

	g, err := s.CreateGame(ctx, newGame("c", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if id, err = s.Enqueue(ctx, Message{Channel: "c", Payload: "{}", Kind: OutboxPing, Game: g.ID, Seq: 1}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		claim()
		at = at.Add(time.Second)
		if err := s.Postpone(ctx, id, at, "429"); err != nil {
			t.Fatal(err)
		}
	}
	if m := claim(); m.Attempts != 2 {
		t.Fatalf("a postponed ping: %d attempts, want 2 (1 kept, 1 for this claim)", m.Attempts)
	}
}
