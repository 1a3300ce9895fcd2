package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
)

// in runs a command of who in channel, of a place without the bot (a DM
// between players: no server, BotAbsent) or of a server (guild).
func (h *harness) in(guild, channel string, botAbsent bool, c Command) []view.Reply {
	h.t.Helper()
	c.GuildID, c.ChannelID, c.BotAbsent, c.Locale = guild, channel, botAbsent, h.loc
	if c.Options == nil {
		c.Options = map[string]string{}
	}
	return h.handle(c)
}

// The server-only commands refuse, privately and in the reader's
// language, outside a server that added the bot: in a DM, and in a server
// reached only through a user's install. In the server with the bot they
// run.
func TestServerOnlyCommandsRefusedElsewhere(t *testing.T) {
	for _, loc := range i18n.Locales {
		h := newHarness(t, Config{})
		h.loc = loc
		alice := user("alice")
		for _, c := range []struct{ name, key string }{
			{"tournament", "place.serveronly.tournament"},
			{"server", "place.serveronly.server"},
		} {
			want := i18n.T(loc, c.key)
			for _, where := range []struct {
				guild  string
				absent bool
			}{{"", true}, {"g2", true}, {"", false}} {
				rs := h.in(where.guild, "somewhere", where.absent, Command{Kind: KindSlash, Name: c.name, User: alice,
					Options: map[string]string{SubcommandOption: "standings"}})
				if len(rs) != 1 || !rs[0].Ephemeral || rs[0].Content != want {
					t.Errorf("%s: /%s in guild %q (bot absent %v): %+v, want the private refusal %q", loc, c.name, where.guild, where.absent, rs, want)
				}
			}
			rs := h.in("g1", "chan", false, Command{Kind: KindSlash, Name: c.name, User: alice, ManageServer: true,
				Options: map[string]string{SubcommandOption: "standings"}})
			if len(rs) == 1 && rs[0].Content == want {
				t.Errorf("%s: /%s refused in the server with the bot", loc, c.name)
			}
		}
	}
}

// A game made where the bot is not a member: no thread, the global
// ladder, its flag-fall posted by nobody but held, then shown once by the
// next interaction there, pinging both.
func TestNoPostsGameHoldsWhatItCannotPost(t *testing.T) {
	h := newHarness(t, Config{ThreadPerGame: true})
	alice, bob := user("alice"), user("bob")
	rs := h.in("g2", "c-user", true, Command{Kind: KindSlash, Name: "challenge", User: alice,
		Options: map[string]string{"opponent": bob.ID, "color": "white", "clock": "10m"}, Users: map[string]User{bob.ID: bob}})
	mustNotRefuse(t, rs)
	rs = h.in("g2", "c-user", true, Command{Kind: KindComponent, CustomID: findID(t, rs, "accept"), User: bob})
	mustNotRefuse(t, rs)
	if h.n.threads != 0 {
		t.Errorf("a thread was opened where the bot is not a member")
	}
	var id int64
	for _, r := range rs {
		if isBoard(r) {
			id = gameOf(r)
		}
	}
	g, err := h.b.St.game(h.ctx, id)
	if err != nil || !g.NoPosts || g.Ladder != store.GlobalLadder || g.ChannelID != "c-user" {
		t.Fatalf("game %+v %v: want no posts, the global ladder, played in c-user", g, err)
	}
	h.clk.Advance(11 * time.Minute)
	for range 3 {
		if err := h.tick(); err != nil {
			t.Fatal(err)
		}
	}
	if ps := h.n.all(); len(ps) != 0 {
		t.Fatalf("the bot posted where it is not a member: %+v", ps)
	}
	rs = h.in("g2", "c-user", true, Command{Kind: KindSlash, Name: "games", User: bob})
	var held *view.Reply
	for k := range rs {
		if strings.HasPrefix(rs[k].Content, i18n.T(i18n.English, "place.held")) {
			held = &rs[k]
		}
	}
	if held == nil || held.Ephemeral || strings.Join(held.Mentions, ",") != alice.ID+","+bob.ID && strings.Join(held.Mentions, ",") != bob.ID+","+alice.ID {
		t.Fatalf("the next interaction did not show the held flag-fall to both: %+v", rs)
	}
	public := 0
	for _, r := range rs {
		if !r.Ephemeral {
			public++
		}
	}
	if public != 1 {
		t.Errorf("%d held posts shown, want the flag-fall alone (the reminder before it is stale): %+v", public, rs)
	}
	rs = h.in("g2", "c-user", true, Command{Kind: KindSlash, Name: "games", User: bob})
	if len(rs) != 1 {
		t.Errorf("the held post was shown twice: %+v", rs)
	}
	// The same game in a server with the bot posts its flag-fall.
	h2 := newHarness(t, Config{})
	h2.StartGame("clock=10m")
	h2.clk.Advance(11 * time.Minute)
	for range 3 {
		if err := h2.tick(); err != nil {
			t.Fatal(err)
		}
	}
	if len(h2.n.all()) == 0 {
		t.Errorf("in the server with the bot the flag-fall was not posted")
	}
}

// The leaderboard outside a server with the bot is the global ladder.
func TestLeaderboardOutsideServerIsGlobal(t *testing.T) {
	h := newHarness(t, Config{})
	rs := h.in("", "dm", true, Command{Kind: KindSlash, Name: "leaderboard", User: user("alice"), Options: map[string]string{"game": "tank"}})
	if len(rs) != 1 || !strings.Contains(rs[0].Content, "global ladder") {
		t.Errorf("/leaderboard in a DM: %+v", rs)
	}
	rs = h.in("guild", "chan", false, Command{Kind: KindSlash, Name: "leaderboard", User: user("alice"), Options: map[string]string{"game": "tank"}})
	if len(rs) != 1 || strings.Contains(rs[0].Content, "global ladder") {
		t.Errorf("/leaderboard in the server: %+v", rs)
	}
}

// The computer's move in a game where the bot may not post, with no
// interaction token to carry it (this transport has none, as after 15
// minutes): posted nowhere, held, and shown after the next answer there.
func TestNoPostsComputerMoveHeld(t *testing.T) {
	h := newHarness(t, aiConfig())
	rs := h.in("", "dm", true, Command{Kind: KindSlash, Name: "challenge", User: alice,
		Options: map[string]string{"level": "2", "game": "gungi", "color": "white"}})
	mustNotRefuse(t, rs)
	h.aiTick()
	if ps := h.n.all(); len(ps) != 0 {
		t.Fatalf("the computer's move was posted where the bot is not a member: %+v", ps)
	}
	rs = h.in("", "dm", true, Command{Kind: KindSlash, Name: "games", User: alice})
	if len(rs) != 2 || rs[1].Ephemeral || !isBoard(rs[1]) || !strings.HasPrefix(rs[1].Content, i18n.T(i18n.English, "place.held")) {
		t.Fatalf("the held computer move was not shown after the next answer: %+v", rs)
	}
}
