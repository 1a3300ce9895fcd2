package app

import (
	"bytes"
	"errors"
	"image/gif"
	"image/png"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// fileNamed is the file of rs whose name ends with suffix.
func fileNamed(t *testing.T, rs []view.Reply, suffix string) []byte {
	t.Helper()
	for _, r := range rs {
		for _, f := range r.Files {
			if strings.HasSuffix(f.Name, suffix) {
				return f.Data
			}
		}
	}
	t.Fatalf("no %s file among the replies", suffix)
	return nil
}

// A finished game's replay and final board are drawn once, at the end,
// and then read from the store: by /history, by the Game record button
// and by a bot started afresh over the same database.
func TestReplayAndFinalBoardStoredOnce(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	h.playMoves(id, 3)
	before := h.b.rd.Drawn()
	fin := finalBoard(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))
	checkFinalFiles(t, fin, 1, 3)
	if n := h.b.rd.Drawn() - before; n != 2 {
		t.Fatalf("the final board drew %d stored pictures, want 2 (its board and the replay)", n)
	}
	st := h.b.St.(*storeRepo).st
	gifData, err := st.GameRender(h.ctx, id, renders.Replay(false))
	if err != nil || !bytes.Equal(gifData, fin.Files[2].Data) {
		t.Fatalf("stored replay (%v) is not the attached one", err)
	}
	g := h.game(id)
	pngData, err := st.GameRender(h.ctx, id, renders.Board(g.Ply, g.Ply, "en", h.b.PublicFlip(mustPos(t, g))))
	if err != nil || !bytes.Equal(pngData, fin.Files[0].Data) {
		t.Fatalf("stored final board (%v) is not the attached one", err)
	}

	drawn := h.b.rd.Drawn()
	hist := h.slash(carol, "history", "game=#1")
	if got := fileNamed(t, hist, ".gif"); !bytes.Equal(got, gifData) {
		t.Fatal("/history's replay differs from the stored one")
	}
	rec := h.click(carol, findID(t, []view.Reply{fin}, "record"))
	if got := fileNamed(t, rec, ".gif"); !bytes.Equal(got, gifData) {
		t.Fatal("the Game record button's replay differs from the stored one")
	}
	if h.b.rd.Drawn() != drawn {
		t.Fatalf("/history and the record button drew %d pictures again", h.b.rd.Drawn()-drawn)
	}

	// A restart: nothing is drawn again.
	fresh := newBot(Config{}, h.b.St, clock.NewFake(t0), h.n, nil)
	rs := fresh.Handle(h.ctx, Command{Kind: KindSlash, Name: "history", User: carol, GuildID: "guild", ChannelID: "chan", Options: map[string]string{"game": "#1"}, Users: map[string]User{}})
	anim, err := gif.DecodeAll(bytes.NewReader(fileNamed(t, rs, ".gif")))
	if err != nil || len(anim.Image) != 4 {
		t.Fatalf("replay after a restart: %v, frames %d, want 4", err, len(anim.Image))
	}
	if fresh.rd.Drawn() != 0 {
		t.Fatalf("a restarted bot drew %d pictures for /history", fresh.rd.Drawn())
	}
	// The final board, asked again (/board game:#1, seen from White's
	// side by a spectator): drawn once in that orientation, then read.
	board := func() []byte {
		rs := fresh.Handle(h.ctx, Command{Kind: KindSlash, Name: "board", User: carol, GuildID: "guild", ChannelID: "chan", Options: map[string]string{"game": "#1"}, Users: map[string]User{}})
		got := fileNamed(t, rs, ".png")
		if _, err := png.Decode(bytes.NewReader(got)); err != nil {
			t.Fatalf("board image: %v", err)
		}
		return got
	}
	first := board()
	drawn = fresh.rd.Drawn()
	if second := board(); !bytes.Equal(first, second) || fresh.rd.Drawn() != drawn || drawn > 1 {
		t.Fatalf("/board game:#1 twice drew %d pictures (same image: %v)", fresh.rd.Drawn(), bytes.Equal(first, second))
	}
}

// max_renders bounds the draws at once; defaults to one per core.
func TestMaxRendersConfig(t *testing.T) {
	h := newHarness(t, Config{MaxRenders: 3})
	if c := h.b.rd.Slots().Cap(); c != 3 {
		t.Fatalf("%d render slots, want 3", c)
	}
}

// Hide page: on a finished game's final board beside its link; either
// player hides and shows the page again, anyone else is refused, and
// the store's token then opens nothing.
func TestHideWebPage(t *testing.T) {
	h := newHarness(t, Config{WebBaseURL: "http://viewer.example"})
	id := h.StartGame()
	h.playMoves(id, 2)
	// A running game has no Hide page button and cannot be hidden.
	if strings.Contains(strings.Join(customIDs(h.slash(alice, "board")), " "), "webhide") {
		t.Fatal("a running game's board offers Hide page")
	}
	fin := finalBoard(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))
	if len(fin.Components) != 1 || len(fin.Components[0]) != 5 {
		t.Fatalf("final board rows %+v, want one row of 5", fin.Components)
	}
	row := fin.Components[0]
	if !strings.HasSuffix(row[3].CustomID, ":webhide") || row[3].Label != "Hide page" || row[4].Style != view.Link || !strings.HasPrefix(row[4].URL, "http://viewer.example/g/") {
		t.Fatalf("final board row %+v, want … Hide page, Watch / Replay", row)
	}
	tok := strings.TrimPrefix(row[4].URL, "http://viewer.example/g/")
	st := h.b.St.(*storeRepo).st
	if _, err := st.GameByWebToken(h.ctx, tok); err != nil {
		t.Fatalf("the page before hiding: %v", err)
	}

	rs := h.click(carol, row[3].CustomID)
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "Only the players of game #1") {
		t.Fatalf("a stranger's Hide page: %+v", rs)
	}
	if _, err := st.GameByWebToken(h.ctx, tok); err != nil {
		t.Fatalf("a stranger hid the page: %v", err)
	}

	rs = h.click(alice, row[3].CustomID)
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "is hidden") {
		t.Fatalf("Hide page: %+v", rs)
	}
	if _, err := st.GameByWebToken(h.ctx, tok); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the hidden page still opens: %v", err)
	}
	show := findID(t, rs, "webshow")
	// The other player shows it again, from the confirmation's button.
	rs = h.click(bob, show)
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "visible again") {
		t.Fatalf("Show page: %+v", rs)
	}
	if _, err := st.GameByWebToken(h.ctx, tok); err != nil {
		t.Fatalf("the page shown again: %v", err)
	}
	// /history offers the link and Hide page too.
	if ids := customIDs(h.slash(alice, "history", "game=#1")); !strings.Contains(strings.Join(ids, " "), ":webhide") {
		t.Fatalf("/history's buttons %v lack Hide page", ids)
	}
}

func mustPos(t *testing.T, g *Game) engine.Position {
	t.Helper()
	pos, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	return pos
}
