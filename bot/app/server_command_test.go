package app

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
)

// admin runs /server (its answers are ephemeral: mustRefuse checks them) as a member with Manage Server.
func (h *harness) admin(who User, opts ...string) []view.Reply {
	h.t.Helper()
	c := Command{Kind: KindSlash, Name: "server", User: who, GuildID: "guild", ChannelID: "chan", ManageServer: true, Options: map[string]string{}}
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		c.Options[k] = v
	}
	return h.handle(c)
}

// /server: refused to members without Manage Server and outside a server;
// an admin sets and shows the settings; bad values change nothing; the
// defaults reach /challenge (game, clock, public language, threads) and
// the computer can be turned off.
func TestServerSettings(t *testing.T) {
	h := newHarness(t, aiConfig())
	owner, alice, bob := user("owner"), user("alice"), user("bob")
	st := h.b.St.(*storeRepo).st

	mustRefuse(t, h.slash(alice, "server", "default_game=camelot"), "Manage Server")
	if gs, _ := st.GuildSettings(h.ctx, "guild"); gs.Game != "" {
		t.Fatalf("a refused /server saved %+v", gs)
	}
	mustRefuse(t, h.handle(Command{Kind: KindSlash, Name: "server", User: owner, ManageServer: true}), "only in a server")

	rs := h.admin(owner)
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "Server settings:") || !strings.Contains(rs[0].Content, "Web links: on") {
		t.Fatalf("show: %+v", rs)
	}
	mustRefuse(t, h.admin(owner, "default_clock=soon"), "Unknown clock")
	mustRefuse(t, h.admin(owner, "default_game=checkers"), "checkers")
	mustRefuse(t, h.admin(owner, "public_language=xx"), "Unknown language")
	if gs, _ := st.GuildSettings(h.ctx, "guild"); gs.Game != "" || gs.Clock != "" || gs.Locale != "" {
		t.Fatalf("refused values saved: %+v", gs)
	}

	rs = h.admin(owner, "default_game=camelot", "default_clock=1d", "public_language=pt-BR", "threads=false", "web_links=false", "ai=false")
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "Server settings saved") {
		t.Fatalf("set: %+v", rs)
	}
	for _, want := range []string{"Português", "Default clock: 1d", "Threads for games: off", "Web links: off", "Games against the computer: off"} {
		if !strings.Contains(rs[0].Content, want) {
			t.Errorf("saved settings do not show %q:\n%s", want, rs[0].Content)
		}
	}
	gs, err := st.GuildSettings(h.ctx, "guild")
	if err != nil || gs.Game != "camelot" || gs.Clock != "1d" || gs.Locale != i18n.Portuguese || gs.Thread == nil || *gs.Thread || !gs.NoAI {
		t.Fatalf("stored %+v %v", gs, err)
	}
	if on, err := st.WebLinks(h.ctx, "guild"); err != nil || on {
		t.Fatalf("web links %v %v", on, err)
	}

	// /help shows them to everybody.
	if txt := text(h.slash(alice, "help")); !strings.Contains(txt, "Default clock: 1d") {
		t.Errorf("/help does not show the server settings:\n%s", txt)
	}

	// A challenge without game or clock: the server's defaults, its
	// buttons in the server's language; the game opens no thread.
	rs = h.slash(alice, "challenge", "opponent=bob")
	mustNotRefuse(t, rs)
	var cid int64
	for _, r := range rs {
		if challengeOf(r) != 0 {
			cid = challengeOf(r)
			if r.Components[0][0].Label != i18n.T(i18n.Portuguese, "btn.accept") {
				t.Errorf("challenge button %q, want the server's language", r.Components[0][0].Label)
			}
		}
	}
	c, err := h.b.St.Challenge(h.ctx, cid)
	if err != nil || c.Game != "camelot" || c.Clock != "1d" || c.Thread {
		t.Fatalf("challenge %+v %v", c, err)
	}
	mustNotRefuse(t, h.click(bob, findID(t, rs, "accept")))
	if h.n.threads != 0 {
		t.Errorf("threads opened with threads off: %v", h.n.threads)
	}

	// The computer is off here, and on again when the admin says so.
	mustRefuse(t, h.slash(alice, "challenge", "level=1"), "turned off")
	mustRefuse(t, h.admin(owner, "ai=true"), "Server settings saved")
	aiGame := h.aiGame("level=1", "game=tank")
	mustRefuse(t, h.admin(owner, "ai=false"), "Server settings saved")
	g, err := h.b.St.game(h.ctx, aiGame)
	if err != nil {
		t.Fatal(err)
	}
	mustNotRefuse(t, h.click(alice, view.GameID(g.ID, g.Seq, "resignyes")))
	mustRefuse(t, h.click(alice, view.GameID(g.ID, g.Seq+1, "rematch")), "turned off")
	mustRefuse(t, h.admin(owner, "ai=true"), "Server settings saved")
	if gs, _ := st.GuildSettings(h.ctx, "guild"); gs.NoAI || gs.Game != "camelot" {
		t.Fatalf("changing one setting changed others: %+v", gs)
	}
	mustRefuse(t, h.admin(owner, "public_language=auto"), "Server settings saved")
	if gs, _ := st.GuildSettings(h.ctx, "guild"); gs.Locale != "" {
		t.Fatalf("auto kept %q", gs.Locale)
	}
}

// Only /server is registered for Manage Server members.
func TestServerRegisteredForManagers(t *testing.T) {
	h := newHarness(t, Config{})
	for _, c := range h.b.Commands() {
		if c.ManageServer != (c.Name == "server") {
			t.Errorf("/%s: ManageServer %v", c.Name, c.ManageServer)
		}
	}
}
