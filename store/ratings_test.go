package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
)

// A database created by the schema before ratings (migrations 0001–0002),
// holding games in two guilds, migrates without losing any game, numbers
// them per guild in creation order and leaves them unrated.
func TestMigrateOldDatabaseKeepsGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for v, name := range []string{"0001_init.sql", "0002_pair_per_place.sql"} {
		body, err := migrationFS.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := db.Exec(`INSERT INTO schema_version VALUES(?, 1)`, v+1); err != nil {
			t.Fatal(err)
		}
	}
	type old struct{ guild, status, result string }
	olds := []old{{"g1", "finished", "1-0"}, {"g2", "finished", "0-1"}, {"g1", "active", ""}, {"g1", "finished", "1/2-1/2"}, {"g2", "active", ""}}
	for i, o := range olds {
		id := int64(i + 1)
		if _, err := db.Exec(`INSERT INTO games(id, kind, guild, channel, player0, player1, start_pos, pos, ply, status, result, created_at, updated_at)
			VALUES(?, 'tank', ?, ?, 'a', 'b', 'start', 'p', 1, ?, ?, 1, 1)`, id, o.guild, fmt.Sprint("c", i), o.status, o.result); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO moves(game_id, ply, side, notation, pos, at) VALUES(?, 1, 0, 'm', 'p', 1)`, id); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := open(t, path, nil)
	if v, _ := s.SchemaVersion(ctx); v < 4 {
		t.Fatalf("schema version %d after migration", v)
	}
	wantNum := []int{1, 1, 2, 3, 2}
	for i, o := range olds {
		g, ms, err := s.LoadGame(ctx, int64(i+1))
		if err != nil || g.Guild != o.guild || g.Status != o.status || g.Result != o.result || len(ms) != 1 {
			t.Fatalf("game %d after migration: %+v %v %v", i+1, g, ms, err)
		}
		n, rated, err := s.GameNumber(ctx, g.ID)
		if err != nil || n != wantNum[i] || rated {
			t.Fatalf("game %d: number %d rated %v %v, want #%d unrated", g.ID, n, rated, err, wantNum[i])
		}
		a, _, err := s.GameByNumber(ctx, o.guild, n)
		if err != nil || a.ID != g.ID {
			t.Fatalf("game #%d of %s: %+v %v", n, o.guild, a, err)
		}
	}
	// New games continue each guild's numbering.
	g, err := s.CreateGame(ctx, Game{Kind: "tank", Guild: "g1", Channel: "new", Players: [2]string{"a", "b"}, Start: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if n, rated, _ := s.GameNumber(ctx, g.ID); n != 4 || !rated {
		t.Fatalf("new game #%d rated %v, want #4 rated", n, rated)
	}
	fin, err := s.FinishedGames(ctx, "g1", "", 0, 10)
	if err != nil || len(fin) != 2 || fin[0].Number != 3 || fin[1].Number != 1 {
		t.Fatalf("finished games of g1: %v %v", fin, err)
	}
}

// finished creates a finished game in guild g1 between a and b.
func finished(t *testing.T, s *Store, a, b, result, reason string) *Game {
	t.Helper()
	ctx := context.Background()
	g, err := s.CreateGame(ctx, newGame(fmt.Sprint("ch-", a, b, result, reason, time.Now().UnixNano()), a, b))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishGame(ctx, g.ID, 0, Outcome{result, reason}); err != nil {
		t.Fatal(err)
	}
	return g
}

// plusMinus is a stand-in rating rule for the store's tests: the winner
// gains 10, the loser drops 10, the deviation shrinks by 100 a game.
func plusMinus(g *Game, before [2]*PlayerRating) ([2]Glicko, error) {
	var out [2]Glicko
	for side := range before {
		cur := Glicko{1500, 350, 0.06}
		if before[side] != nil {
			cur = before[side].Glicko
		}
		switch {
		case g.Result == "1-0" && side == 0, g.Result == "0-1" && side == 1:
			cur.Rating += 10
		case g.Result != "1/2-1/2":
			cur.Rating -= 10
		}
		cur.RD = max(cur.RD-100, 50)
		out[side] = cur
	}
	return out, nil
}

func TestApplyRatedResult(t *testing.T) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, filepath.Join(t.TempDir(), "r.db"), fc)
	g := finished(t, s, "alice", "bob", "1-0", "resignation")
	ch, err := s.ApplyRatedResult(ctx, g.ID, plusMinus)
	if err != nil || !ch[0].Applied || ch[0].After.Rating != 1510 || ch[1].After.Rating != 1490 || ch[0].Before.Rating != 0 {
		t.Fatalf("first apply: %+v %v", ch, err)
	}
	calls := 0
	again, err := s.ApplyRatedResult(ctx, g.ID, func(g *Game, b [2]*PlayerRating) ([2]Glicko, error) { calls++; return plusMinus(g, b) })
	if err != nil || calls != 0 || again[0].Applied || again[0].After != ch[0].After || again[1].Player != "bob" {
		t.Fatalf("second apply must return the first changes untouched: %+v %v calls %d", again, err, calls)
	}
	a, err := s.Rating(ctx, "g1", "tank", "alice")
	if err != nil || a.Rating != 1510 || a.Games != 1 || a.Wins != 1 || a.Streak != 1 || a.BestStreak != 1 {
		t.Fatalf("alice %+v %v", a, err)
	}
	// Three more: alice wins, loses, then a draw.
	finishedRate := func(a, b, res string) {
		t.Helper()
		g := finished(t, s, a, b, res, "x")
		if _, err := s.ApplyRatedResult(ctx, g.ID, plusMinus); err != nil {
			t.Fatal(err)
		}
	}
	finishedRate("bob", "alice", "0-1")
	finishedRate("alice", "bob", "0-1")
	finishedRate("alice", "bob", "1/2-1/2")
	a, _ = s.Rating(ctx, "g1", "tank", "alice")
	if a.Games != 4 || a.Wins != 2 || a.Losses != 1 || a.Draws != 1 || a.BestStreak != 2 || a.Streak != 0 || a.Rating != 1510 {
		t.Fatalf("alice after 4 games %+v", a)
	}
	b, _ := s.Rating(ctx, "g1", "tank", "bob")
	if b.Games != 4 || b.Losses != 2 || b.Wins != 1 || b.Rating != 1490 {
		t.Fatalf("bob after 4 games %+v", b)
	}

	// Not rated: aborted, casual, unfinished, no result.
	ab := finished(t, s, "alice", "carol", "*", "aborted")
	casual, _ := s.CreateGame(ctx, newGame("casual", "alice", "dave"))
	if err := s.SetRated(ctx, casual.ID, false); err != nil {
		t.Fatal(err)
	}
	s.FinishGame(ctx, casual.ID, 0, Outcome{"1-0", "resignation"})
	active, _ := s.CreateGame(ctx, newGame("active", "alice", "erin"))
	for _, id := range []int64{ab.ID, casual.ID, active.ID} {
		if _, err := s.ApplyRatedResult(ctx, id, plusMinus); !errors.Is(err, ErrNotRated) {
			t.Fatalf("game %d: %v, want ErrNotRated", id, err)
		}
	}
	if err := s.SetRated(ctx, casual.ID, true); err == nil {
		t.Fatal("a finished game's rated flag must not change")
	}
	if _, err := s.Rating(ctx, "g1", "tank", "carol"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("carol has no rating: %v", err)
	}
	// A failing rule changes nothing.
	g5 := finished(t, s, "alice", "bob", "1-0", "x")
	if _, err := s.ApplyRatedResult(ctx, g5.ID, func(*Game, [2]*PlayerRating) ([2]Glicko, error) { return [2]Glicko{}, errors.New("boom") }); err == nil {
		t.Fatal("want the rule's error")
	}
	if cs, _ := s.RatingChanges(ctx, g5.ID); len(cs) != 0 {
		t.Fatalf("changes after a failed apply: %v", cs)
	}
}

func TestLeaderboardOrderAndProfile(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "l.db"), nil)
	put := func(kind, player string, rating, rd float64, games int) {
		_, err := s.w.Exec(`INSERT INTO ratings(`+ratingCols+`) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			"g1", kind, player, rating, rd, 0.06, games, games, 0, 0, 0, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
	}
	put("tank", "newbie", 1900, 300, 1) // provisional, highest rating
	put("tank", "ann", 1600, 60, 30)
	put("tank", "ben", 1700, 90, 20)
	put("tank", "cid", 1600, 100, 40) // ties ann on rating, more games
	put("tank", "dot", 1400, 200, 3)  // provisional
	put("camelot", "ann", 2000, 50, 5)
	_, err := s.w.Exec(`INSERT INTO ratings(` + ratingCols + `) VALUES('g2','tank','zed',2500,40,0.06,9,9,0,0,0,0,1)`)
	if err != nil {
		t.Fatal(err)
	}
	page, total, err := s.Leaderboard(ctx, "g1", "tank", 110, 0, 10)
	if err != nil || total != 5 {
		t.Fatal(total, err)
	}
	var got []string
	for _, p := range page {
		got = append(got, p.Player)
	}
	if fmt.Sprint(got) != "[ben cid ann newbie dot]" {
		t.Fatalf("order %v", got)
	}
	page, _, _ = s.Leaderboard(ctx, "g1", "tank", 110, 2, 2)
	if len(page) != 2 || page[0].Player != "ann" || page[1].Player != "newbie" {
		t.Fatalf("second page %v", page)
	}
	prof, err := s.PlayerRatings(ctx, "g1", "ann")
	if err != nil || len(prof) != 2 || prof[0].Kind != "camelot" || prof[1].Kind != "tank" || prof[1].Games != 30 {
		t.Fatalf("profile %v %v", prof, err)
	}
}

// A finishing write with Rate counts the game in its own transaction: a
// finishing move (AppendMove) and an off-board end (UpdateGame) alike; a
// casual game (Casual at creation) is finished but not rated, and a write
// that loses its compare-and-set rates nothing.
func TestFinishingWriteRates(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "rate.db"), nil)
	calls := 0
	rate := func(g *Game, before [2]*PlayerRating) ([2]Glicko, error) {
		calls++
		return [2]Glicko{{Rating: 1600, RD: 300, Vol: 0.06}, {Rating: 1400, RD: 300, Vol: 0.06}}, nil
	}
	mk := func(ch string, casual bool) *Game {
		g, err := s.CreateGame(ctx, Game{Kind: "tank", Guild: "g", Channel: ch, Players: [2]string{"a", "b"}, Start: "s", Casual: casual})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g1 := mk("c1", false)
	if g1.Number != 1 || g1.Casual {
		t.Fatalf("first game: #%d casual %v", g1.Number, g1.Casual)
	}
	// A stale finishing move: nothing written, nothing rated.
	if err := s.AppendMove(ctx, g1.ID, 5, MoveRecord{Notation: "m", Position: "p"}, GameUpdate{Outcome: &Outcome{Result: "1-0", Reason: "clt-destroyed"}, Rate: rate}); !errors.Is(err, ErrStalePly) {
		t.Fatalf("stale move: %v", err)
	}
	if err := s.AppendMove(ctx, g1.ID, 0, MoveRecord{Notation: "m", Position: "p"}, GameUpdate{Outcome: &Outcome{Result: "1-0", Reason: "clt-destroyed"}, Rate: rate}); err != nil {
		t.Fatal(err)
	}
	if cs, err := s.RatingChanges(ctx, g1.ID); err != nil || len(cs) != 2 || cs[0].After.Rating != 1600 || calls != 1 {
		t.Fatalf("finishing move: %+v %v, %d calls", cs, err, calls)
	}
	g2 := mk("c2", true)
	if got, _ := s.Game(ctx, g2.ID); !got.Casual || got.Number != 2 {
		t.Fatalf("casual game read back: %+v", got)
	}
	if err := s.UpdateGame(ctx, g2.ID, g2.Rev, GameUpdate{Outcome: &Outcome{Result: "0-1", Reason: "resignation"}, Rate: rate}); err != nil {
		t.Fatal(err)
	}
	if cs, _ := s.RatingChanges(ctx, g2.ID); len(cs) != 0 || calls != 1 {
		t.Fatalf("casual game rated: %+v", cs)
	}
	if r, err := s.Rating(ctx, "g", "tank", "a"); err != nil || r.Games != 1 {
		t.Fatalf("a: %+v %v", r, err)
	}
	if n, err := s.NextNumber(ctx, "g"); err != nil || n != 3 {
		t.Fatalf("next number %d %v", n, err)
	}
	if n, _ := s.NextNumber(ctx, "other"); n != 1 {
		t.Fatalf("another guild's next number %d", n)
	}
}
