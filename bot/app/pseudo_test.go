package app

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
)

// checkWrapped fails if any player-facing text of rs did not come from the
// catalog: with the pseudo locale every catalog string is wrapped in ⟦ ⟧, so
// anything outside the brackets (other than punctuation) was built by hand.
// Embed field values are data (clock readings, move notation) and exempt.
func checkWrapped(t *testing.T, what string, rs []view.Reply) {
	t.Helper()
	for _, r := range rs {
		texts := []string{r.Content}
		if e := r.Embed; e != nil {
			texts = append(texts, e.Title, e.Description, e.Footer)
			for _, f := range e.Fields {
				texts = append(texts, f.Name)
			}
		}
		for _, row := range r.Components {
			for _, c := range row {
				if c.Kind == view.Button {
					texts = append(texts, c.Label)
				}
				texts = append(texts, c.Placeholder)
			}
		}
		if r.Modal != nil {
			texts = append(texts, r.Modal.Title)
			for _, in := range r.Modal.Inputs {
				texts = append(texts, in.Label)
			}
		}
		for _, s := range texts {
			if !i18n.Wrapped(s) {
				t.Errorf("%s: text outside the catalog: %q", what, s)
			}
		}
	}
}

func TestNoTextOutsideCatalog(t *testing.T) {
	// Public text and the pings of players the bot has not heard from use
	// the default language: pseudo too.
	h := newHarness(t, Config{ChallengeExpiry: time.Hour, DefaultLocale: i18n.Pseudo})
	h.loc = i18n.Pseudo
	run := func(what string, rs []view.Reply) []view.Reply {
		t.Helper()
		checkWrapped(t, what, rs)
		return rs
	}
	run("self", h.slash(alice, "challenge", "opponent=alice"))
	run("bot", h.slash(alice, "challenge", "opponent=robobot"))
	run("badmap", h.slash(alice, "challenge", "opponent=bob", "map=../.. w"))
	run("badclock", h.slash(alice, "challenge", "opponent=bob", "clock=9x"))
	rs := run("challenge", h.slash(alice, "challenge", "opponent=bob", "color=white", "clock=10m+5s"))
	run("dup", h.slash(bob, "challenge", "opponent=alice"))
	run("own", h.click(alice, findID(t, rs, "accept")))
	rs = run("accept", h.click(bob, findID(t, rs, "accept")))
	var id int64
	for _, r := range rs {
		if isBoard(r) {
			id = gameOf(r)
		}
	}
	run("notturn", h.slash(bob, "move", "move=e1"))
	run("illegal", h.slash(alice, "move", "move=a1 > a9n"))
	run("garbage", h.slash(alice, "move", "move=%%%"))
	run("move", h.slash(alice, "move", "move="+h.legalMove(id, nil)))
	run("stale", h.click(bob, view.GameID(id, 0, "resign")))
	run("board", h.slash(carol, "board", "game="+strconv.FormatInt(id, 10)))
	run("flip", h.click(carol, view.GameID(id, 1, "flip")))
	run("type", h.click(bob, view.GameID(id, 1, "type")))
	run("spectator", h.click(carol, view.GameID(id, 1, "resign")))
	dr := run("draw", h.slash(bob, "draw"))
	run("drawno", h.click(alice, findID(t, dr, "drawno")))
	run("games", h.slash(carol, "games"))
	run("history", h.slash(alice, "history"))
	run("rules", h.slash(alice, "rules"))
	run("help", h.slash(alice, "help"))
	run("nogame", h.slash(carol, "move", "move=e1"))
	run("unknown", h.slash(alice, "frobnicate"))
	h.clk.Advance(time.Hour)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	run("resign-finished", h.slash(bob, "resign"))
	run("abort", h.slash(alice, "abort"))
	run("rematch", h.slash(alice, "rematch"))
	if !strings.Contains(h.slash(alice, "settings", "language=th")[0].Content, "บันทึก") {
		t.Error("settings in Thai")
	}
}

// Scheduler posts (reminders, flag-falls, expiries) come from the catalog
// too.
func TestSchedulerTextFromCatalog(t *testing.T) {
	h := newHarness(t, Config{DefaultLocale: i18n.Pseudo, ChallengeExpiry: time.Hour})
	h.StartGame("clock=10m")
	h.slash(carol, "challenge", "opponent=bob")
	h.clk.Advance(time.Hour)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps := h.n.all()
	if len(ps) < 2 {
		t.Fatalf("posts: %+v", ps)
	}
	for _, p := range ps {
		checkWrapped(t, "post", []view.Reply{p.Reply})
	}
}
