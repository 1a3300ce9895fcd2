package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// Migration 0006 moves the names, the computer's level and side and the
// locale out of the opaque extra JSON into columns, undoing the markdown
// escapes older rows stored; new rows write the columns.
func TestMigrateNamesOutOfExtra(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	ms, err := migrations(false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.version >= 6 {
			break
		}
		body, err := migrationFS.ReadFile(migrationDir(false) + "/" + m.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%d: %v", m.version, err)
		}
		if _, err := db.Exec(`INSERT INTO schema_version VALUES(?, 1)`, m.version); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO games(id, kind, guild, channel, player0, player1, start_pos, pos, ply, status, created_at, updated_at, number, extra)
		VALUES(1, 'tank', 'g', 'c', 'a', 'bot', 's', 's', 0, 'active', 1, 1, 1, ?)`,
		`{"wn":"john\\_doe","bn":"tankbot \\(level 3\\)","moves":[0,0],"ai":3,"aiside":1,"loc":"th"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO challenges(id, challenger, challenged, kind, start_pos, clock, side, guild, channel, expires_at, status, created_at, extra)
		VALUES(1, 'a', 'b', 'tank', 's', 'none', 'white', 'g', 'c', 9, 'pending', 1, ?)`, `{"cn":"a\\*b","on":"x\\\\y","loc":"pt-BR"}`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := open(t, path, nil)
	g, err := s.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Names != [2]string{"john_doe", "tankbot (level 3)"} || g.AILevel != 3 || g.AISide != 1 || g.Locale != "th" {
		t.Errorf("game after migration: names %q ai %d/%d locale %q", g.Names, g.AILevel, g.AISide, g.Locale)
	}
	c, err := s.Challenge(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.ChallengerName != "a*b" || c.ChallengedName != `x\y` || c.Locale != "pt-BR" {
		t.Errorf("challenge after migration: %q %q %q", c.ChallengerName, c.ChallengedName, c.Locale)
	}
	n, err := s.CreateGame(ctx, Game{Kind: "tank", Guild: "g", Channel: "d", Players: [2]string{"a", "b"}, Names: [2]string{"a_b", "c"}, Start: "s", AILevel: 2, AISide: 0, Locale: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if n.Names != [2]string{"a_b", "c"} || n.AILevel != 2 || n.Locale != "en" {
		t.Errorf("new game: %+v", n)
	}
}
