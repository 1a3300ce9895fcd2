package discordtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// One test per installation rule (places.go, docs/discord.md "Playing
// anywhere: user-installed").

// fivePlaces declares the five places a game can be played in: a server
// with the bot ("g1", channel "c-bot"), a server without it ("g2",
// "c-user"), a DM between users 11 and 12 ("dm"), a group DM of 11, 12
// and 13 ("gdm"), and 11's DM with the bot ("bdm"). User 11 installed
// the app; 12 is a member of g1; 13 has nothing.
func fivePlaces(f *Fake) {
	f.AddGuild("g1", true)
	f.AddGuild("g2", false)
	f.AddChannel("c-bot", "g1")
	f.AddChannel("c-user", "g2")
	f.AddDM("dm", "11", "12")
	f.AddDM("gdm", "11", "12", "13")
	f.AddBotDM("bdm", "11")
	f.InstallToUser("11")
	f.JoinGuild("12", "g1")
}

// placeEvent is an interaction of type typ by user in channel, as a test
// builds it (a guild member by default, as harness_test does).
func placeEvent(n int, typ int, user, channel string) map[string]any {
	return map[string]any{
		"id": fmt.Sprint(800 + n), "token": fmt.Sprint("ptok", n), "type": typ, "channel_id": channel,
		"guild_id": "testguild", "member": map[string]any{"user": map[string]any{"id": user}},
		"data": map[string]any{"name": "board"},
	}
}

// Rule: an interaction carries the context, authorizing_integration_owners
// and app_permissions of its place, guild_id and member in a server, user
// in a DM; a click carries the owners of the interaction that made the
// message clicked, whoever clicks.
func TestRuleInteractionContext(t *testing.T) {
	f := New(t, "1")
	fivePlaces(f)
	cases := []struct {
		channel string
		context int
		owners  string
		perms   int
		guild   string
		chType  int
	}{
		{"c-bot", ContextGuild, `{"0":"g1","1":"11"}`, GuildBotPermissions, "g1", ChannelGuildText},
		{"c-user", ContextGuild, `{"1":"11"}`, PrivatePermissions, "g2", ChannelGuildText},
		{"dm", ContextPrivateChannel, `{"1":"11"}`, PrivatePermissions, "", ChannelDM},
		{"gdm", ContextPrivateChannel, `{"1":"11"}`, PrivatePermissions, "", ChannelGroupDM},
		{"bdm", ContextBotDM, `{"1":"11"}`, BotDMPermissions, "", ChannelDM},
	}
	for n, c := range cases {
		ev := placeEvent(n, 2, "11", c.channel)
		f.register(ev)
		owners, _ := json.Marshal(ev["authorizing_integration_owners"])
		if ev["context"] != c.context || string(owners) != c.owners || ev["app_permissions"] != fmt.Sprint(c.perms) {
			t.Errorf("%s: context %v owners %s app_permissions %v, want %d %s %d", c.channel, ev["context"], owners, ev["app_permissions"], c.context, c.owners, c.perms)
		}
		g, _ := ev["guild_id"].(string)
		ch, _ := ev["channel"].(map[string]any)
		_, member := ev["member"]
		_, user := ev["user"]
		if g != c.guild || ch["type"] != c.chType || member != (c.guild != "") || user == (c.guild != "") {
			t.Errorf("%s: guild %q channel %v member %v user %v", c.channel, g, ch, member, user)
		}
	}
	// 12 (no app) clicks a button on the message 11's command made in the
	// DM: the click carries 11's installation.
	ev := placeEvent(10, 2, "11", "dm")
	f.register(ev)
	do(t, f, "POST", "/interactions/810/ptok10/callback", map[string]any{"type": 4, "data": map[string]any{"content": "board"}})
	msg := f.Original("ptok10")
	click := placeEvent(11, 3, "12", "dm")
	click["message"] = map[string]any{"id": msg}
	f.register(click)
	if owners, _ := json.Marshal(click["authorizing_integration_owners"]); string(owners) != `{"1":"11"}` {
		t.Errorf("a click by 12 on 11's message: owners %s, want 11's", owners)
	}
}

// Rule: a message or an edit with the bot token in a channel where the
// bot is not a member (a server without it, a DM between users, a group
// DM) is refused with 403 Missing Access (50001); in the server with the
// bot it goes.
func TestRuleBotTokenOnlyWhereMember(t *testing.T) {
	f := New(t, "1")
	fivePlaces(f)
	for _, ch := range []string{"c-user", "dm", "gdm"} {
		st, out := do(t, f, "POST", "/channels/"+ch+"/messages", map[string]any{"content": "flag fell"})
		if st != 403 || out["code"] != float64(CodeMissingAccess) {
			t.Errorf("post to %s: %d %v, want 403 with code 50001", ch, st, out)
		}
		st, out = do(t, f, "PATCH", "/channels/"+ch+"/messages/1", map[string]any{"components": []any{}})
		if st != 403 || out["code"] != float64(CodeMissingAccess) {
			t.Errorf("edit in %s: %d %v, want 403 with code 50001", ch, st, out)
		}
		st, _ = do(t, f, "POST", "/channels/"+ch+"/threads", map[string]any{"name": "game"})
		if st != 403 {
			t.Errorf("thread in %s: %d, want 403", ch, st)
		}
	}
	if n := len(f.Refused()); n != 9 {
		t.Errorf("%d calls marked refused, want 9", n)
	}
	if st, _ := do(t, f, "POST", "/channels/c-bot/messages", map[string]any{"content": "flag fell"}); st != 200 {
		t.Errorf("post in the server with the bot: %d", st)
	}
	// A channel the test never declared is a server channel with the bot.
	if st, _ := do(t, f, "POST", "/channels/elsewhere/messages", map[string]any{"content": "x"}); st != 200 {
		t.Errorf("post to an undeclared channel: %d", st)
	}
}

// Rule: the bot reaches a user in its own DM when they share a server
// with it or installed the app; otherwise 50278.
func TestRuleBotDM(t *testing.T) {
	f := New(t, "1")
	fivePlaces(f)
	for user, want := range map[string]int{"11": 200, "12": 200, "13": 403} {
		st, out := do(t, f, "POST", "/users/@me/channels", map[string]any{"recipient_id": user})
		if st != 200 {
			t.Fatalf("create DM with %s: %d %v", user, st, out)
		}
		ch, _ := out["id"].(string)
		if ch != f.BotDM(user) {
			t.Errorf("DM channel %s, BotDM says %s", ch, f.BotDM(user))
		}
		st, out = do(t, f, "POST", "/channels/"+ch+"/messages", map[string]any{"content": "your move"})
		if st != want || want != 200 && out["code"] != float64(CodeNoMutualGuilds) {
			t.Errorf("DM to %s: %d %v, want %d", user, st, out, want)
		}
	}
	if ch := f.BotDM("11"); ch != "bdm" {
		t.Errorf("11's declared DM with the bot is %q, want bdm", ch)
	}
}

// Rule: an interaction whose owners hold only USER_INSTALL gets five
// follow-up messages; the sixth is refused (40094). Counted per token; an
// interaction where the app is installed has no such limit.
func TestRuleFollowupLimit(t *testing.T) {
	f := New(t, "1")
	fivePlaces(f)
	followups := func(n int, channel string) (ok int, last map[string]any) {
		ev := placeEvent(n, 2, "11", channel)
		f.register(ev)
		id, tok := ev["id"].(string), ev["token"].(string)
		do(t, f, "POST", "/interactions/"+id+"/"+tok+"/callback", map[string]any{"type": 4, "data": map[string]any{"content": "x"}})
		for k := 0; k < 7; k++ {
			st, out := do(t, f, "POST", "/webhooks/1/"+tok, map[string]any{"content": fmt.Sprint("follow-up ", k)})
			if st != 200 {
				return ok, out
			}
			ok++
		}
		return ok, nil
	}
	for n, ch := range []string{"c-user", "dm", "gdm"} {
		ok, last := followups(20+n, ch)
		if ok != MaxUserAppFollowups || last["code"] != float64(CodeMaxFollowups) {
			t.Errorf("%s: %d follow-ups went, then %v; want 5 then code 40094", ch, ok, last)
		}
	}
	// Another interaction in the same place has its own five.
	if ok, _ := followups(30, "dm"); ok != MaxUserAppFollowups {
		t.Errorf("a second interaction in the DM: %d follow-ups, want 5", ok)
	}
	if ok, _ := followups(31, "c-bot"); ok != 7 {
		t.Errorf("in the server with the bot: %d of 7 follow-ups went", ok)
	}
}

// Rule: in a user-installed place the token is all there is, and it ends
// 15 minutes after the interaction: then the board can no longer be
// edited (its buttons stay) nor a follow-up sent.
func TestRuleUserInstalledTokenExpires(t *testing.T) {
	f := New(t, "1")
	fivePlaces(f)
	now := time.Unix(9000, 0)
	f.Now = func() time.Time { return now }
	ev := placeEvent(40, 2, "11", "dm")
	f.register(ev)
	do(t, f, "POST", "/interactions/840/ptok40/callback", map[string]any{"type": 4, "data": map[string]any{"content": "board"}})
	now = now.Add(TokenWindow - time.Second)
	if st, _ := do(t, f, "PATCH", "/webhooks/1/ptok40/messages/@original", map[string]any{"components": []any{}}); st != 200 {
		t.Errorf("edit within 15 minutes: %d", st)
	}
	now = now.Add(2 * time.Second)
	if st, out := do(t, f, "PATCH", "/webhooks/1/ptok40/messages/@original", map[string]any{"components": []any{}}); st != 401 || out["code"] != float64(50027) {
		t.Errorf("edit after 15 minutes: %d %v, want 401 with 50027", st, out)
	}
	if st, _ := do(t, f, "POST", "/webhooks/1/ptok40", map[string]any{"content": "late"}); st != 401 {
		t.Errorf("follow-up after 15 minutes: %d, want 401", st)
	}
}

// Rule: a command reaches the app only from someone who can see it: the
// bot in the place or the app on their account, and the command's
// contexts and integration_types including the place.
func TestRuleCommandVisibility(t *testing.T) {
	rec := &errorsTB{T: t}
	f := New(rec, "1")
	fivePlaces(f)
	cmds := `[{"name":"board","description":"d","type":1,"integration_types":[0,1],"contexts":[0,1,2]},
		{"name":"server","description":"d","type":1,"integration_types":[0],"contexts":[0]}]`
	if st, _ := rawDo(t, f, "PUT", "/applications/1/commands", cmds); st != 200 {
		t.Fatalf("registration: %d %v", st, rec.taken())
	}
	send := func(n int, user, channel, name string) []string {
		ev := placeEvent(n, 2, user, channel)
		ev["data"] = map[string]any{"name": name}
		f.register(ev)
		return rec.taken()
	}
	for n, ch := range []string{"c-bot", "c-user", "dm", "gdm", "bdm"} {
		if errs := send(50+n, "11", ch, "board"); len(errs) != 0 {
			t.Errorf("/board by 11 in %s: %v", ch, errs)
		}
	}
	if errs := send(60, "11", "c-bot", "server"); len(errs) != 0 {
		t.Errorf("/server in the server with the bot: %v", errs)
	}
	for n, ch := range []string{"c-user", "dm", "bdm"} {
		if errs := send(61+n, "11", ch, "server"); len(errs) != 1 {
			t.Errorf("/server in %s: %v, want one complaint", ch, errs)
		}
	}
	// 13 has no app: no command of the app in the DM.
	if errs := send(70, "13", "gdm", "board"); len(errs) != 1 || !strings.Contains(errs[0], "cannot use the app's commands") {
		t.Errorf("/board by 13 (no app) in the group DM: %v", errs)
	}
	// 12, a member of the bot's server, uses it there.
	if errs := send(71, "12", "c-bot", "board"); len(errs) != 0 {
		t.Errorf("/board by 12 in the server with the bot: %v", errs)
	}
}

// rawDo sends a raw JSON body.
func rawDo(t *testing.T, f *Fake, method, path, body string) (int, map[string]any) {
	t.Helper()
	resp, out := request(t, f, method, "/api/v9"+path, "", body)
	return resp.StatusCode, out
}
