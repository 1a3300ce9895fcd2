package app

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store/clock"
)

// A database written by commit 441ce77, the last before bot/ was split
// into layers (testdata/olddb/make.sh says how), opens with today's code
// and plays on: its games, challenges, settings, server settings and
// outbox rows (stored then as whole replies) are all read as they were
// meant.
func TestOldDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	copyFile(t, filepath.Join("testdata", "olddb", "441ce77.db"), path)
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatalf("open the old database: %v", err)
	}
	defer st.Close()

	// Game #2 (alice vs bob, 10 min + 5 s) is running, alice to move;
	// the clock starts a minute after its turn began.
	g2, err := st.numberedGame(ctx, "local", 2)
	if err != nil {
		t.Fatalf("game #2: %v", err)
	}
	if g2.Status != GmActive || g2.Ply != 2 || g2.White.ID != "alice" || g2.Last != "D14 > C12S" {
		t.Fatalf("game #2 read as %+v", g2)
	}
	clk := clock.NewFake(g2.ClockState.TurnStart.Add(time.Minute))
	n := &fakeNotifier{}
	b := newBot(Config{}, st, clk, n, nil)
	h := &harness{t: t, b: b, clk: clk, n: n, ctx: ctx}
	at := func(who string, name string, opts ...string) []view.Reply {
		c := Command{Kind: KindSlash, Name: name, User: User{ID: who, Name: who}, GuildID: "local", ChannelID: "table", Options: map[string]string{}}
		for _, o := range opts {
			k, v, _ := strings.Cut(o, "=")
			c.Options[k] = v
		}
		return h.handle(c)
	}

	// The rows queued before the crash (make.sh step 3) go out first, in
	// their old form: the daily puzzle with its image, the flag-fall's
	// final board with its record, the computer's move with its board.
	if err := b.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	posts := n.all()
	if len(posts) != 3 {
		t.Fatalf("pending old posts delivered: %d, want 3: %+v", len(posts), posts)
	}
	for i, want := range []struct{ text, file string }{
		{"Quebra-cabeça diário", ".png"},
		{"ran out of time in game #1", "game-1.txt"},
		{"played", ".png"},
	} {
		p := posts[i]
		text := p.Reply.Content
		if p.Reply.Embed != nil {
			text += p.Reply.Embed.Title
		}
		if !strings.Contains(text, want.text) {
			t.Errorf("old post %d: %q, want %q", i, text, want.text)
		}
		var names []string
		for _, f := range p.Reply.Files {
			names = append(names, f.Name)
		}
		if !strings.Contains(strings.Join(names, " "), want.file) {
			t.Errorf("old post %d (%q) files %v, want one like %q (drawn at delivery)", i, want.text, names, want.file)
		}
	}

	// alice's /settings (pt-BR) and the server's (public language pt-BR,
	// daily puzzle in #table) are read.
	if s, err := st.Settings(ctx, "alice"); err != nil || s.Locale != "pt-BR" {
		t.Errorf("alice's settings: %+v, %v", s, err)
	}
	if gs, err := st.GuildSettings(ctx, "local"); err != nil || gs.Locale != "pt-BR" || gs.DailyChannel != "table" {
		t.Errorf("server settings: %+v, %v", gs, err)
	}

	// Game #2 plays on: alice moves (answered in her language), bob answers.
	out := at("alice", "move", "move=F3 > F5N")
	if len(out) == 0 || out[0].Ephemeral || !isBoard(out[0]) {
		t.Fatalf("alice's move in game #2: %+v", out)
	}
	if got := replyText(out); !strings.Contains(got, "jogou F3 > F5N") {
		t.Errorf("alice's move answered as %q, want Portuguese (her /settings)", got)
	}
	out = at("bob", "move", "move=C12 > C11S")
	if len(out) == 0 || out[0].Ephemeral {
		t.Fatalf("bob's move in game #2: %+v", out)
	}
	g2, err = st.numberedGame(ctx, "local", 2)
	if err != nil || g2.Ply != 4 {
		t.Fatalf("game #2 after two moves: ply %d, %v", g2.Ply, err)
	}
	if log, err := st.MoveLog(ctx, g2.ID); err != nil || len(log) != 4 || log[0] != "C3 > C5N" {
		t.Errorf("game #2's log: %v, %v", log, err)
	}

	// The game against the computer (#4) plays on: dave moves, the
	// computer answers out of band.
	out = at("dave", "move", "move=H1 > H2N")
	if len(out) == 0 || out[0].Ephemeral {
		t.Fatalf("dave's move in game #4: %+v", out)
	}
	before := len(n.all())
	for i := 0; i < 3 && len(n.all()) == before; i++ {
		if err := b.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		b.WaitAI()
	}
	if err := b.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	g4, err := st.numberedGame(ctx, "local", 4)
	if err != nil || g4.Ply != 6 || g4.Status != GmActive {
		t.Fatalf("game #4 after dave's move: %+v, %v", g4, err)
	}

	// The finished games' records and the pending challenge are there.
	if out := at("carol", "history", "game=#3"); len(out) == 0 || !strings.Contains(replyText(out), "#3") {
		t.Errorf("/history game:#3: %+v", out)
	}
	if cs, err := st.PendingChallenges(ctx, "frank"); err != nil || len(cs) != 1 || cs[0].Game != "gungi" {
		t.Errorf("frank's pending challenge: %+v, %v", cs, err)
	}
}

func replyText(rs []view.Reply) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.Content)
		if r.Embed != nil {
			b.WriteString(" " + r.Embed.Title + " " + r.Embed.Description)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
