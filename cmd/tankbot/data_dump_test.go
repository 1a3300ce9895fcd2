package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

// TestDataDeleteLeavesNothingInDump: after `tankbot data delete` on a user
// who created a tournament, played in one, solved puzzles, had a game
// reviewed and had posts queued, a dump of the database (sqlite3 .dump,
// pg_dump) holds neither their id nor their name; `data export` before the
// delete listed all of those rows.
func TestDataDeleteLeavesNothingInDump(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		t.Setenv("TANKBOT_DB", "")
		dsn := b.New(t)
		const user, name, other = "310000000000000071", "Quibbleton", "310000000000000072"
		seedDataUser(t, dsn, user, name, other)
		run := func(args ...string) string {
			t.Helper()
			var out, errb bytes.Buffer
			if code := runMain(append(args, "--db", dsn), &out, &errb); code != exitOK {
				t.Fatalf("%v: exit %d: %s", args, code, errb.String())
			}
			return out.String()
		}
		var d store.UserData
		if err := json.Unmarshal([]byte(run("data", "export", "--user", user)), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Tournaments) != 2 || len(d.Puzzles.Attempts) != 1 || len(d.Puzzles.Ratings) != 1 || len(d.Reviews) != 1 || len(d.Daily) != 1 {
			t.Fatalf("export misses rows: %d tournaments, %d attempts, %d puzzle ratings, %d reviews, %d daily",
				len(d.Tournaments), len(d.Puzzles.Attempts), len(d.Puzzles.Ratings), len(d.Reviews), len(d.Daily))
		}
		before := dumpDB(t, b.Name, dsn)
		if !strings.Contains(before, name) || !strings.Contains(before, user) {
			t.Fatal("the dump before deletion lacks the user: the test would prove nothing")
		}
		run("data", "delete", "--user", user, "--yes")
		after := dumpDB(t, b.Name, dsn)
		for _, line := range strings.Split(after, "\n") {
			if strings.Contains(line, user) || strings.Contains(line, name) {
				t.Errorf("the dump after deletion holds: %.300s", line)
			}
		}
		if !strings.Contains(after, other) {
			t.Error("the dump lost the other player")
		}
	})
}

// dumpDB runs the backend's own dump tool.
func dumpDB(t *testing.T, backend, dsn string) string {
	t.Helper()
	var cmd *exec.Cmd
	if backend == "sqlite" {
		bin, err := exec.LookPath("sqlite3")
		if err != nil {
			t.Skip("sqlite3 is not installed")
		}
		cmd = exec.Command(bin, dsn, ".dump")
	} else {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		schema := q.Get("search_path")
		q.Del("search_path")
		u.RawQuery = q.Encode()
		bin, err := exec.LookPath("pg_dump")
		if matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_dump"); len(matches) > 0 {
			bin, err = matches[len(matches)-1], nil
		}
		if err != nil {
			t.Skip("pg_dump is not installed")
		}
		cmd = exec.Command(bin, "--schema="+schema, "--data-only", u.String())
	}
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s: %v %s", cmd.Path, err, stderr)
	}
	return string(out)
}

// seedDataUser stores user everywhere a user can be stored.
func seedDataUser(t *testing.T, dsn, user, name, other string) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	must(s.PutPlayer(ctx, store.Player{ID: user, Name: name}))
	g, err := s.CreateGame(ctx, store.Game{Kind: "tank", Guild: "g", Channel: "c1", Players: [2]string{user, other},
		Names: [2]string{name, "Olga"}, Start: "s"})
	must(err)
	must(s.FinishGame(ctx, g.ID, 0, store.Outcome{Result: "1-0", Reason: "resignation"}))
	must(s.SaveGameReview(ctx, &store.GameReview{GameID: g.ID, Summary: "{}", Annotated: `[White "` + name + `"]`, Created: t0}))
	must(s.SaveGameRender(ctx, g.ID, "final.png", []byte("png "+name)))
	active, err := s.CreateGame(ctx, store.Game{Kind: "tank", Guild: "g", Channel: "c2", Players: [2]string{other, user},
		Names: [2]string{"Olga", name}, Start: "s"})
	must(err)
	mine, err := s.CreateTournament(ctx, store.Tournament{Guild: "g", Channel: "c3", Creator: user, Kind: "tank", Format: "swiss", Rounds: 2, RoundLength: time.Hour})
	must(err)
	must(s.AddEntrant(ctx, mine.ID, store.TournamentEntrant{Player: other, Name: "Olga", Rating: 1500, Joined: t0}))
	theirs, err := s.CreateTournament(ctx, store.Tournament{Guild: "g", Channel: "c4", Creator: other, Kind: "tank", Format: "swiss", Rounds: 2, RoundLength: time.Hour})
	must(err)
	must(s.AddEntrant(ctx, theirs.ID, store.TournamentEntrant{Player: user, Name: name, Rating: 1500, Joined: t0}))
	must(s.AddEntrant(ctx, theirs.ID, store.TournamentEntrant{Player: other, Name: "Olga", Rating: 1500, Joined: t0}))
	must(s.StartRound(ctx, theirs.ID, "signup", 1, t0.Add(time.Hour),
		[]store.TournamentPairing{{Round: 1, Board: 1, White: user, Black: other, GameID: active.ID}},
		store.Message{Channel: "c4", Payload: `{"content":"<@` + user + `> vs <@` + other + `>"}`}))
	_, err = s.Enqueue(ctx, store.Message{Channel: "c5", Payload: `{"content":"Well played, ` + name + `!"}`})
	must(err)
	a := &store.ActivePuzzle{Player: user, Game: "tank", PuzzleID: "p1", Started: t0}
	must(s.SetActivePuzzle(ctx, a))
	_, _, err = s.FinishPuzzle(ctx, a, true, t0, func(p, z *store.Glicko, solved, hinted bool) (store.Glicko, store.Glicko) {
		return store.Glicko{Rating: 1510, RD: 300, Vol: 0.06}, store.Glicko{Rating: 1490, RD: 300, Vol: 0.06}
	})
	must(err)
	_, err = s.OpenDaily(ctx, "g", "2026-03-01", user, name)
	must(err)
}
