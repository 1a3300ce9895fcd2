package store

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/storetest"
)

// userish are column names that may hold a user's id or name, or text
// naming them.
var userish = regexp.MustCompile(`^(.*player.*|.*name\d*|.*_name|creator|entrant.*|solver.*|author.*|.*user.*|owner|member|challenge[rd]|white|black|.*by|payload|extra|annotated|summary|data|body|text|content)$`)

// liveColumns lists "table.column" of the migrated schema.
func liveColumns(t *testing.T, s *Store) []string {
	t.Helper()
	ctx := context.Background()
	var lines []string
	var err error
	if s.pg {
		lines, err = pgSchema(ctx, s.w)
	} else {
		lines, err = sqliteSchema(ctx, s.w)
	}
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, l := range lines {
		if strings.HasPrefix(l, "index ") {
			continue
		}
		if f := strings.Fields(l); len(f) > 0 && strings.Contains(f[0], ".") {
			cols = append(cols, f[0])
		}
	}
	if len(cols) < 50 {
		t.Fatalf("introspection found only %d columns: %v", len(cols), lines[:min(5, len(lines))])
	}
	return cols
}

// TestUserColumnsCoverSchema walks the live schema of each backend: every
// column that looks like it holds a user (an id or name of a player,
// creator, entrant, solver, author, …, or a payload) is in UserColumns or
// NotUserColumns, and every listed column exists.
func TestUserColumnsCoverSchema(t *testing.T) { storetest.Run(t, testUserColumnsCoverSchema) }

func testUserColumnsCoverSchema(t *testing.T, b storetest.Backend) {
	s := open(t, b.New(t), nil)
	live := map[string]bool{}
	listed := map[string]bool{}
	for _, c := range UserColumns {
		listed[c.Table+"."+c.Column] = true
	}
	for _, col := range liveColumns(t, s) {
		live[col] = true
		name := col[strings.Index(col, ".")+1:]
		if !userish.MatchString(name) || listed[col] {
			continue
		}
		if _, ok := NotUserColumns[col]; !ok {
			t.Errorf("%s looks like it holds a user (id, name or text naming them) but is not in store.UserColumns (add it, with its erasure in DeleteUser and its rows in ExportUser) nor in NotUserColumns", col)
		}
	}
	for col := range listed {
		if !live[col] {
			t.Errorf("store.UserColumns lists %s, which the schema does not have", col)
		}
	}
	for col := range NotUserColumns {
		if !live[col] {
			t.Errorf("NotUserColumns lists %s, which the schema does not have", col)
		}
	}
}

// seedUser makes user appear everywhere a user can: a profile, games
// (one reviewed, with a stored picture), a challenge, a tournament they
// created and one they played in, puzzles, a daily puzzle and queued posts
// naming them. other is their opponent, who must keep their records.
func seedUser(t *testing.T, s *Store, user, name, other string) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.PutPlayer(ctx, Player{ID: user, Name: name, Locale: "en"}))
	g := newGame("c1", user, other)
	g.Names = [2]string{name, "Olga"}
	game, err := s.CreateGame(ctx, g)
	must(err)
	must(s.FinishGame(ctx, game.ID, 0, Outcome{Result: "1-0", Reason: "resignation"}))
	must(s.SaveGameReview(ctx, &GameReview{GameID: game.ID, Summary: `{"white":"` + name + `"}`,
		Annotated: "[White \"" + name + "\"]\n[Black \"Olga\"]\n1. a1 *", Created: t0}))
	must(s.SaveGameRender(ctx, game.ID, "replay.gif", []byte("GIF89a "+name)))
	g2 := newGame("c2", other, user)
	g2.Names = [2]string{"Olga", name}
	active, err := s.CreateGame(ctx, g2)
	must(err)
	_, err = s.CreateChallenge(ctx, Challenge{Guild: "g1", Channel: "c3", Challenger: user, Challenged: other, Kind: "tank",
		ChallengerName: name, ChallengedName: "Olga", Expires: t0.Add(time.Hour)})
	must(err)

	mine, err := s.CreateTournament(ctx, Tournament{Guild: "g1", Channel: "c4", Creator: user, Kind: "tank", Format: "swiss",
		Rounds: 3, RoundLength: time.Hour})
	must(err)
	must(s.AddEntrant(ctx, mine.ID, TournamentEntrant{Player: other, Name: "Olga", Rating: 1500, Joined: t0}))
	theirs, err := s.CreateTournament(ctx, Tournament{Guild: "g1", Channel: "c5", Creator: other, Kind: "tank", Format: "swiss",
		Rounds: 3, RoundLength: time.Hour})
	must(err)
	must(s.AddEntrant(ctx, theirs.ID, TournamentEntrant{Player: user, Name: name, Rating: 1500, Joined: t0}))
	must(s.AddEntrant(ctx, theirs.ID, TournamentEntrant{Player: other, Name: "Olga", Rating: 1500, Joined: t0}))
	post, _ := json.Marshal(map[string]string{"content": "Round 1: <@" + user + "> (" + name + ") vs <@" + other + ">"})
	must(s.StartRound(ctx, theirs.ID, "signup", 1, t0.Add(time.Hour), []TournamentPairing{{Round: 1, Board: 1, White: user, Black: other, GameID: active.ID}},
		Message{Channel: "c5", Payload: string(post)}))
	queued, _ := json.Marshal(map[string]string{"content": "Congratulations " + name + "!"})
	_, err = s.Enqueue(ctx, Message{Channel: "c9", Payload: string(queued)})
	must(err)
	keep, _ := json.Marshal(map[string]string{"content": "Olga to move"})
	_, err = s.Enqueue(ctx, Message{Channel: "c9", Payload: string(keep)})
	must(err)

	a := &ActivePuzzle{Player: user, Game: "tank", PuzzleID: "p1", Started: t0}
	must(s.SetActivePuzzle(ctx, a))
	_, _, err = s.FinishPuzzle(ctx, a, true, t0, plusTen)
	must(err)
	must(s.SetActivePuzzle(ctx, &ActivePuzzle{Player: user, Game: "tank", PuzzleID: "p2", Started: t0}))
	_, err = s.OpenDaily(ctx, "g1", "2026-03-01", user, name)
	must(err)
}

// dump is every value of every table, as text (what a .dump or pg_dump
// would print, without the quoting).
func dump(t *testing.T, s *Store) string {
	t.Helper()
	ctx := context.Background()
	q := `SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'`
	if s.pg {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	tables, err := queryAll(ctx, s.w, func(r scanner) (string, error) {
		var n string
		return n, r.Scan(&n)
	}, q)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tb := range tables {
		rows, err := s.w.QueryContext(ctx, `SELECT * FROM `+tb)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s:", tb)
			for _, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, " %v", v)
			}
			b.WriteByte('\n')
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestDeleteUserLeavesNoTrace: after DeleteUser, no value in any table
// holds the user's id or name; the export before it listed their
// tournaments, puzzles, reviews and daily puzzles; the opponent's records
// stay.
func TestDeleteUserLeavesNoTrace(t *testing.T) { storetest.Run(t, testDeleteUserLeavesNoTrace) }

func testDeleteUserLeavesNoTrace(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	const user, name, other = "310000000000000001", "Zyxwq", "310000000000000002"
	seedUser(t, s, user, name, other)
	d, err := s.ExportUser(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	created, entered := 0, 0
	for _, ut := range d.Tournaments {
		if ut.Creator {
			created++
		}
		if ut.Entry != nil && len(ut.Pairings) == 1 {
			entered++
		}
	}
	if created != 1 || entered != 1 || len(d.Puzzles.Ratings) != 1 || len(d.Puzzles.Attempts) != 1 || d.Puzzles.Active == nil ||
		len(d.Reviews) != 1 || len(d.Daily) != 1 || len(d.Games) != 2 || len(d.Challenges) != 1 {
		body, _ := json.MarshalIndent(d, "", " ")
		t.Fatalf("export misses rows (created %d, entered %d):\n%s", created, entered, body)
	}
	if !strings.Contains(dump(t, s), name) {
		t.Fatal("the seed does not store the name: the test would prove nothing")
	}
	if _, err := s.DeleteUser(ctx, user, Scrub{}); err != nil {
		t.Fatal(err)
	}
	out := dump(t, s)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, user) || strings.Contains(line, name) {
			t.Errorf("after deletion the database still holds: %s", line)
		}
	}
	for _, want := range []string{"Olga to move", "Olga"} {
		if !strings.Contains(out, want) {
			t.Errorf("deletion removed the other player's %q", want)
		}
	}
	if got, err := s.ExportUser(ctx, other); err != nil || len(got.Games) != 2 || len(got.Tournaments) != 2 {
		t.Fatalf("the opponent's records after the deletion: %v, %+v", err, got)
	}
}
