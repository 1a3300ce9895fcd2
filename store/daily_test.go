package store

import (
	"context"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/storetest"
)

// The newer server settings read back as saved, and a bad daily hour is
// refused without a write.
func TestGuildSettingsDaily(t *testing.T) { storetest.Run(t, testGuildSettingsDaily) }

func testGuildSettingsDaily(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	want := GuildSettings{Guild: "g1", GamesChannel: "10", DailyChannel: "11", DailyHour: 23, ChallengeRole: "12",
		Variants: map[string]string{"tank": "basic20", "gungi": "quick"}}
	ev := Event{Kind: "daily", Ref: 7, Due: t0.Add(time.Hour), Payload: "g1"}
	if err := s.SaveGuildSettings(ctx, want, Effects{Schedule: []Event{ev}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GuildSettings(ctx, "g1")
	if err != nil || got.GamesChannel != "10" || got.DailyChannel != "11" || got.DailyHour != 23 || got.ChallengeRole != "12" ||
		len(got.Variants) != 2 || got.Variants["tank"] != "basic20" || got.Variants["gungi"] != "quick" {
		t.Fatalf("read back %+v %v", got, err)
	}
	if evs, err := s.PendingEvents(ctx, 7, "daily"); err != nil || len(evs) != 1 || evs[0].Payload != "g1" {
		t.Fatalf("the save's event: %+v %v", evs, err)
	}
	if err := s.SaveGuildSettings(ctx, GuildSettings{Guild: "g1", DailyHour: 24}); err == nil {
		t.Fatal("saved the hour 24")
	}
	if got, _ := s.GuildSettings(ctx, "g1"); got.DailyHour != 23 || got.DailyChannel != "11" {
		t.Fatalf("a refused save changed the settings: %+v", got)
	}
}

// A day's puzzle is posted once however often it is fired (its
// announcement queued once), each firing leaves exactly one pending
// event for the next day, and solves and misses are recorded per day.
func TestDailyPuzzle(t *testing.T) { storetest.Run(t, testDailyPuzzle) }

func testDailyPuzzle(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	day1 := t0.Truncate(24 * time.Hour).Add(9 * time.Hour)
	p := DailyPost{Guild: "g1", Day: day1.Format(time.DateOnly), Game: "tank", PuzzleID: "tk-1", Channel: "11", Posted: day1}
	next := Event{Kind: "daily", Ref: 7, Due: day1.Add(24 * time.Hour), Payload: "g1"}
	eff := Effects{Outbox: []Message{{Channel: "11", Payload: "day 1"}}}
	for i, want := range []bool{true, false} {
		fresh, err := s.PostDaily(ctx, p, next, eff)
		if err != nil || fresh != want {
			t.Fatalf("firing %d: fresh %v, %v", i, fresh, err)
		}
	}
	out, err := s.Outbox(ctx)
	if err != nil || len(out) != 1 || out[0].Payload != "day 1" {
		t.Fatalf("outbox after two firings: %+v %v", out, err)
	}
	if evs, err := s.PendingEvents(ctx, 7, "daily"); err != nil || len(evs) != 1 || !evs[0].Due.Equal(next.Due) {
		t.Fatalf("pending daily events: %+v %v", evs, err)
	}
	if _, err := s.DailyPost(ctx, "g1", "1999-01-01"); err == nil {
		t.Fatal("found a post of a day without one")
	}
	if err := s.SetDailyMessage(ctx, "g1", p.Day, "m1"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.DailyPost(ctx, "g1", p.Day); err != nil || got.PuzzleID != "tk-1" || !got.Posted.Equal(day1) || got.MessageID != "m1" {
		t.Fatalf("read the post: %+v %v", got, err)
	}

	if d, err := s.OpenDaily(ctx, "g1", p.Day, "u1", "alice"); err != nil || d.Misses != 0 || !d.Solved.IsZero() {
		t.Fatalf("open: %+v %v", d, err)
	}
	if _, err := s.OpenDaily(ctx, "g1", p.Day, "u2", "bob"); err != nil {
		t.Fatal(err)
	}
	// A puzzle that is not the daily one changes nothing.
	if err := s.FinishDaily(ctx, "u1", "other", true, day1.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishDaily(ctx, "u2", "tk-1", false, day1.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishDaily(ctx, "u2", "tk-1", true, day1.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishDaily(ctx, "u1", "tk-1", true, day1.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A later attempt after the solve keeps the first solve's time.
	if err := s.FinishDaily(ctx, "u1", "tk-1", true, day1.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	ds, err := s.DailySolvers(ctx, "g1", p.Day, day1.Add(24*time.Hour))
	if err != nil || len(ds) != 2 {
		t.Fatalf("solvers: %+v %v", ds, err)
	}
	if ds[0].Name != "bob" || ds[0].Misses != 1 || !ds[0].Solved.Equal(day1.Add(3*time.Minute)) ||
		ds[1].Name != "alice" || ds[1].Misses != 0 || !ds[1].Solved.Equal(day1.Add(4*time.Minute)) {
		t.Fatalf("solvers: %+v", ds)
	}
	if ds, err := s.DailySolvers(ctx, "g1", p.Day, day1.Add(4*time.Minute)); err != nil || len(ds) != 1 {
		t.Fatalf("solvers before alice's solve: %+v %v", ds, err)
	}
	if d, err := s.OpenDaily(ctx, "g1", p.Day, "u1", "alice2"); err != nil || d.Solved.IsZero() || d.Name != "alice2" {
		t.Fatalf("open again after the solve: %+v %v", d, err)
	}

	p2 := p
	p2.Day, p2.PuzzleID, p2.Posted = day1.Add(24*time.Hour).Format(time.DateOnly), "tk-2", day1.Add(24*time.Hour)
	next.Due = day1.Add(48 * time.Hour)
	if fresh, err := s.PostDaily(ctx, p2, next, Effects{}); err != nil || !fresh {
		t.Fatalf("day 2: %v %v", fresh, err)
	}
	rec, err := s.RecentDailies(ctx, "g1", 10)
	if err != nil || len(rec) != 2 || rec[0].PuzzleID != "tk-2" || rec[1].PuzzleID != "tk-1" {
		t.Fatalf("recent: %+v %v", rec, err)
	}
	if rec, err := s.RecentDailies(ctx, "g2", 10); err != nil || len(rec) != 0 {
		t.Fatalf("another server's: %+v %v", rec, err)
	}
}

// A player's data export lists the daily puzzles they opened; deleting
// their data removes them from the solvers.
func TestDailySolversDeleted(t *testing.T) { storetest.Run(t, testDailySolversDeleted) }

func testDailySolversDeleted(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	p := DailyPost{Guild: "g1", Day: "2026-01-02", Game: "tank", PuzzleID: "tk-1", Channel: "11", Posted: t0}
	if _, err := s.PostDaily(ctx, p, Event{Kind: "daily", Ref: 7, Due: t0.Add(24 * time.Hour), Payload: "g1"}, Effects{}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"u1", "u2"} {
		if _, err := s.OpenDaily(ctx, "g1", p.Day, u, u); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishDaily(ctx, u, "tk-1", true, t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := s.ExportUser(ctx, "u1")
	if err != nil || len(d.Daily) != 1 || d.Daily[0].PuzzleID != "tk-1" || d.Daily[0].Guild != "g1" || !d.Daily[0].Solved.Equal(t0.Add(time.Minute)) {
		t.Fatalf("export: %+v %v", d, err)
	}
	if _, err := s.DeleteUser(ctx, "u1", Scrub{}); err != nil {
		t.Fatal(err)
	}
	ds, err := s.DailySolvers(ctx, "g1", p.Day, t0.Add(time.Hour))
	if err != nil || len(ds) != 1 || ds[0].Player != "u2" {
		t.Fatalf("solvers after deleting u1: %+v %v", ds, err)
	}
	if d, err := s.ExportUser(ctx, "u1"); err != nil || len(d.Daily) != 0 {
		t.Fatalf("export after deletion: %+v %v", d, err)
	}
}
