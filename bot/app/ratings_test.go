package app

import (
	"bytes"
	"errors"
	"fmt"
	"image/gif"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/i18n"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/store"
)

// playAndResign starts a game alice (white) vs bob, plays plies legal
// moves and has loser resign; it returns the game id.
func (h *harness) playAndResign(plies int, loser User) int64 {
	h.t.Helper()
	id := h.StartGame()
	for i := 0; i < plies; i++ {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		mustNotRefuse(h.t, h.slash(who, "move", "move="+h.legalMove(id, nil)))
	}
	mustNotRefuse(h.t, h.click(loser, findID(h.t, h.slash(loser, "resign"), "resignyes")))
	return id
}

func TestRateGameAndLines(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.playAndResign(3, bob)
	cs, err := h.b.rateGame(h.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !(cs[0].After.Rating > 1500 && cs[1].After.Rating < 1500) || cs[0].Player != alice.ID {
		t.Fatalf("changes %+v", cs)
	}
	again, err := h.b.rateGame(h.ctx, id)
	if err != nil || again[0].After != cs[0].After || again[0].Applied {
		t.Fatalf("rating twice must not change anything: %+v %v", again, err)
	}
	lines := ratingLines(i18n.English, cs, [2]string{"alice", "bob"})
	// Two new players, 350 RD: the winner gains about 160.
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "alice 1500? → 1662? (+162)") || !strings.HasPrefix(lines[1], "bob 1500? → 1338? (−162)") {
		t.Fatalf("lines %q", lines)
	}
	// An aborted or unfinished game does not count.
	id2 := h.StartGame()
	if _, err := h.b.rateGame(h.ctx, id2); !errors.Is(err, store.ErrNotRated) {
		t.Fatalf("active game rated: %v", err)
	}
	if ls, err := h.b.ratingsForGame(h.ctx, "en", h.game(id2)); err != nil || ls != nil {
		t.Fatalf("%v %v", ls, err)
	}
}

func TestLeaderboardAndProfile(t *testing.T) {
	h := newHarness(t, Config{})
	if s := text(h.slash(alice, "leaderboard")); !strings.Contains(s, "No rated games") {
		t.Fatalf("empty leaderboard: %s", s)
	}
	for i := 0; i < 3; i++ {
		loser := bob
		if i == 0 {
			loser = alice
		}
		id := h.playAndResign(2, loser)
		if _, err := h.b.rateGame(h.ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	rs := h.slash(carol, "leaderboard", "game=tank")
	s := text(rs)
	ia, ib := strings.Index(s, "<@id-alice>"), strings.Index(s, "<@id-bob>")
	if ia < 0 || ib < 0 || ia > ib || !strings.Contains(s, "1. <@id-alice>") || !strings.Contains(s, "3 games") || !strings.Contains(s, "?") {
		t.Fatalf("leaderboard:\n%s", s)
	}
	if len(rs[0].Mentions) != 0 || !rs[0].Ephemeral {
		t.Fatalf("a leaderboard pings nobody and is personal: %+v", rs[0])
	}
	mustRefuse(t, h.slash(alice, "leaderboard", "game=chess"), "chess")
	if s := text(h.slash(alice, "leaderboard", "game=camelot")); !strings.Contains(s, "No rated games") {
		t.Fatalf("camelot: %s", s)
	}

	p := text(h.slash(carol, "profile", "user=id-alice"))
	for _, want := range []string{"Profile of <@id-alice>", "Tank Chess:", "2 W / 0 D / 1 L", "longest winning streak 2", "#3 Tank Chess vs <@id-bob>: won", "#1 Tank Chess vs <@id-bob>: lost", "/history"} {
		if !strings.Contains(p, want) {
			t.Fatalf("profile lacks %q:\n%s", want, p)
		}
	}
	if p := text(h.slash(carol, "profile")); !strings.Contains(p, "No rated games") {
		t.Fatalf("carol's profile:\n%s", p)
	}
	h.loc = "th"
	if p := text(h.slash(alice, "profile")); !strings.Contains(p, "โปรไฟล์ของ") {
		t.Fatalf("thai profile:\n%s", p)
	}
}

// Pages: 20 rated players, 15 a page, buttons move and edit in place.
func TestLeaderboardPages(t *testing.T) {
	h := newHarness(t, Config{})
	st := h.b.St.(*storeRepo).st
	for i := 0; i < 10; i++ {
		a, b := user(fmt.Sprint("p", 2*i)), user(fmt.Sprint("p", 2*i+1))
		g, err := st.CreateGame(h.ctx, store.Game{Kind: "tank", Guild: "guild", Channel: fmt.Sprint("c", i), Players: [2]string{a.ID, b.ID}, Start: "x"})
		if err != nil {
			t.Fatal(err)
		}
		st.FinishGame(h.ctx, g.ID, 0, store.Outcome{Result: "1-0", Reason: "resignation"})
		if _, err := h.b.rateGame(h.ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	rs := h.slash(alice, "leaderboard", "game=tank")
	if !strings.Contains(text(rs), "Page 1 of 2") || len(rs[0].Components) != 1 || !rs[0].Components[0][0].Disabled {
		t.Fatalf("first page: %+v", rs[0])
	}
	next := rs[0].Components[0][1].CustomID
	rs = h.click(alice, next)
	if !rs[0].Update || !strings.Contains(text(rs), "Page 2 of 2") || !strings.Contains(text(rs), "16. ") || !rs[0].Components[0][1].Disabled {
		t.Fatalf("second page: %+v", rs[0])
	}
	mustRefuse(t, h.click(alice, "lb:chess:0"), "")
}

func TestGameFilesAndArchive(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.playAndResign(5, bob)
	h.b.rateGame(h.ctx, id)
	g := h.game(id)
	files, err := h.b.GameFiles(h.ctx, g, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "game-1.txt" || files[1].Name != "game-1.gif" {
		t.Fatalf("files %+v", files)
	}
	rec, err := recfile.Parse(string(files[0].Data))
	if err != nil {
		t.Fatalf("%v\n%s", err, files[0].Data)
	}
	if len(rec.Moves) != 5 || rec.White != "alice" || rec.Number != 1 || !rec.Rated || rec.WhiteRating != "1500?" || rec.Outcome.Reason != "resignation" {
		t.Fatalf("record %+v", rec)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(files[1].Data))
	if err != nil || len(anim.Image) != 6 {
		t.Fatalf("gif: %v", err)
	}
	// /history by number attaches both.
	rs := h.slash(carol, "history", "game=#1")
	if len(rs) != 1 || len(rs[0].Files) != 2 || !strings.Contains(rs[0].Content, "Result:") {
		t.Fatalf("history #1: %+v", rs)
	}
	mustRefuse(t, h.slash(carol, "history", "game=#7"), "no game #7")
	// #N finds the game; positions at several plies.
	r := &Req{Command: Command{GuildID: "guild"}, Loc: "en"}
	got, ok, err := h.b.gameByNumber(h.ctx, r, "#1")
	if !ok || err != nil || got.ID != id {
		t.Fatalf("#1: %+v %v %v", got, ok, err)
	}
	if _, ok, _ := h.b.gameByNumber(h.ctx, r, "alice"); ok {
		t.Fatal("a name is not a number")
	}
	if _, _, err := h.b.gameByNumber(h.ctx, r, "#9"); err == nil {
		t.Fatal("#9 does not exist")
	}
	log, _ := h.b.St.MoveLog(h.ctx, id)
	for _, k := range []int{0, 1, 3, 5, -1} {
		pos, last, err := h.b.PositionAt(h.ctx, got, k)
		if err != nil {
			t.Fatal(err)
		}
		if (k == 0) != (last == nil) {
			t.Fatalf("ply %d: last move %v", k, last)
		}
		if k > 0 && pos == nil {
			t.Fatal("no position")
		}
		if k == 5 || k == -1 {
			if pos.Encode() != g.Pos {
				t.Fatalf("ply %d: %s, want the final %s", k, pos.Encode(), g.Pos)
			}
		}
		if k > 0 && k <= len(log) {
			prev, _, _ := h.b.PositionAt(h.ctx, got, k-1)
			if prev.FormatMove(last) != log[k-1] {
				t.Fatalf("ply %d: move %s, log %s", k, prev.FormatMove(last), log[k-1])
			}
		}
	}
	if _, _, err := h.b.PositionAt(h.ctx, got, 6); err == nil {
		t.Fatal("ply 6 of a 5-ply game")
	}
}
