package discord

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store"
)

// /server and /data through the fake Discord, in both transports: the
// member's permissions come from the interaction (Manage Server = 32),
// refusals are ephemeral, the server's default game reaches /challenge,
// and /data exports a decodable file and deletes only after a confirm.
func TestE2EServerAndData(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			e := startBot(t, newWorld(t, m))
			r := response(t, e.do(e.slash(bob, gameChannel, "server", "default_game", "camelot")))
			if flags(r) != 64 || !strings.Contains(text(r), "Manage Server") {
				t.Fatalf("/server without Manage Server: flags %d %s", flags(r), text(r))
			}
			ev := e.slash(alice, gameChannel, "server", "default_game", "camelot")
			ev["member"].(map[string]any)["permissions"] = "32"
			r = response(t, e.do(ev))
			if flags(r) != 64 || !strings.Contains(text(r), "Server settings saved") || !strings.Contains(text(r), "Camelot") {
				t.Fatalf("/server as a manager: flags %d %s", flags(r), text(r))
			}
			r = response(t, e.do(e.slash(alice, gameChannel, "challenge")))
			if flags(r) == 64 || !strings.Contains(text(r), "Camelot") {
				t.Fatalf("open challenge with the server's default game: flags %d %s", flags(r), text(r))
			}

			r = response(t, e.do(e.slash(alice, gameChannel, "data", "request", "export")))
			if flags(r) != 64 || len(r.Files) != 1 {
				t.Fatalf("export: flags %d, %d files: %s", flags(r), len(r.Files), text(r))
			}
			var d store.UserData
			if err := json.Unmarshal(r.Files[0].Data, &d); err != nil || d.User != alice.id || len(d.Challenges) != 1 {
				t.Fatalf("export file: %v, user %s, %d challenges", err, d.User, len(d.Challenges))
			}
			r = response(t, e.do(e.slash(alice, gameChannel, "data", "request", "delete")))
			if flags(r) != 64 {
				t.Fatalf("delete did not ask privately: %s", text(r))
			}
			r = response(t, e.do(e.click(alice, gameChannel, r.MsgID, idWith(t, r, `^pd:yes$`))))
			if !strings.Contains(text(r), "Your data is deleted") {
				t.Fatalf("delete: %s", text(r))
			}
			r = response(t, e.do(e.slash(alice, gameChannel, "data", "request", "export")))
			var d2 store.UserData
			if len(r.Files) != 1 {
				t.Fatalf("second export: %s", text(r))
			}
			if err := json.Unmarshal(r.Files[0].Data, &d2); err != nil || len(d2.Challenges) != 0 {
				t.Fatalf("after deletion: %v, %d challenges", err, len(d2.Challenges))
			}
		})
	}
}

// Channel ids of the fake server: text channels and a voice channel.
const (
	gamesChannel = "402"
	dailyChannel = "410"
	voiceChannel = "403"
	playerRole   = "700"
)

// asManager gives ev's member the Manage Server permission (32).
func asManager(ev map[string]any) map[string]any {
	ev["member"].(map[string]any)["permissions"] = "32"
	return ev
}

// withRoles gives ev's member roles.
func withRoles(ev map[string]any, roles ...string) map[string]any {
	rs := []any{}
	for _, r := range roles {
		rs = append(rs, r)
	}
	ev["member"].(map[string]any)["roles"] = rs
	return ev
}

// withOption adds a channel (type 7: a channel id, its type resolved as
// Discord sends it), role (8) or integer (4) option to a slash command.
func withOption(ev map[string]any, name string, typ int, value any, channelType int) map[string]any {
	d := ev["data"].(map[string]any)
	opts, _ := d["options"].([]any)
	d["options"] = append(opts, map[string]any{"name": name, "type": typ, "value": value})
	res, _ := d["resolved"].(map[string]any)
	if res == nil {
		res = map[string]any{}
		d["resolved"] = res
	}
	switch typ {
	case 7:
		chs, _ := res["channels"].(map[string]any)
		if chs == nil {
			chs = map[string]any{}
			res["channels"] = chs
		}
		chs[value.(string)] = map[string]any{"id": value, "type": channelType, "name": "ch" + value.(string), "permissions": "0"}
	case 8:
		roles, _ := res["roles"].(map[string]any)
		if roles == nil {
			roles = map[string]any{}
			res["roles"] = roles
		}
		roles[value.(string)] = map[string]any{"id": value, "name": "players"}
	}
	return ev
}

// The newer /server settings through the fake Discord: a voice channel, an
// unknown variant, an hour out of range and an unknown reset are refused
// privately and change nothing; the channel for games confines
// /challenge (threads of it included), the role refuses members without
// it, the default map reaches /challenge, and /help shows it all.
func TestE2EServerChannelsRolesMaps(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			e := startBot(t, newWorld(t, m))
			st := e.db
			before, err := st.GuildSettings(context.Background(), testGuild)
			if err != nil {
				t.Fatal(err)
			}
			bad := []struct {
				what string
				ev   map[string]any
				want string
			}{
				{"a voice channel for games", withOption(e.slash(alice, gameChannel, "server"), "games_channel", 7, voiceChannel, 2), "is not a text channel"},
				{"a category for the daily puzzle", withOption(e.slash(alice, gameChannel, "server", "default_game", "gungi"), "daily_channel", 7, "404", 4), "is not a text channel"},
				{"an unknown variant", e.slash(alice, gameChannel, "server", "default_map", "basic99"), "is not a variant"},
				{"a variant of another game", e.slash(alice, gameChannel, "server", "default_game", "camelot", "default_map", "basic20"), "is not a variant"},
				{"the hour 24", withOption(withOption(e.slash(alice, gameChannel, "server"), "daily_channel", 7, dailyChannel, 0), "daily_hour", 4, 24, 0), "is not an hour"},
				{"an unknown reset", e.slash(alice, gameChannel, "server", "reset", "everything"), "Unknown setting"},
			}
			for _, c := range bad {
				r := response(t, e.do(asManager(c.ev)))
				if flags(r) != 64 || !strings.Contains(text(r), c.want) || !strings.Contains(text(r), "Nothing was changed") {
					t.Fatalf("%s: flags %d %s", c.what, flags(r), text(r))
				}
			}
			after, err := st.GuildSettings(context.Background(), testGuild)
			if err != nil || !reflect.DeepEqual(before, after) {
				t.Fatalf("refused changes were saved: %+v -> %+v (%v)", before, after, err)
			}
			// A member without Manage Server changes nothing either.
			r := response(t, e.do(withOption(e.slash(bob, gameChannel, "server"), "games_channel", 7, gamesChannel, 0)))
			if flags(r) != 64 || !strings.Contains(text(r), "Manage Server") {
				t.Fatalf("/server games_channel without Manage Server: %s", text(r))
			}

			ev := withOption(withOption(e.slash(alice, gameChannel, "server", "default_map", "basic20"), "games_channel", 7, gamesChannel, 0), "challenge_role", 8, playerRole, 0)
			r = response(t, e.do(asManager(ev)))
			if flags(r) != 64 || !strings.Contains(text(r), "Server settings saved") || !strings.Contains(text(r), "<#"+gamesChannel+">") ||
				!strings.Contains(text(r), "<@&"+playerRole+">") || !strings.Contains(text(r), "basic20") {
				t.Fatalf("/server as a manager: flags %d %s", flags(r), text(r))
			}

			// Elsewhere: refused, naming the channel; nothing is posted.
			calls := e.do(withRoles(e.slash(bob, gameChannel, "challenge"), playerRole))
			r = response(t, calls)
			if flags(r) != 64 || !strings.Contains(text(r), "<#"+gamesChannel+">") || len(publicNew(calls)) != 0 {
				t.Fatalf("/challenge outside the games channel: flags %d %s", flags(r), text(r))
			}
			// Without the role: refused, naming it.
			r = response(t, e.do(e.slash(bob, gamesChannel, "challenge")))
			if flags(r) != 64 || !strings.Contains(text(r), "<@&"+playerRole+">") {
				t.Fatalf("/challenge without the role: flags %d %s", flags(r), text(r))
			}
			r = response(t, e.do(withRoles(e.slash(bob, gamesChannel, "challenge", "game", "camelot", "map", "start"), "701")))
			if flags(r) != 64 || !strings.Contains(text(r), "<@&"+playerRole+">") {
				t.Fatalf("/challenge with another role: flags %d %s", flags(r), text(r))
			}
			// With the role, in the channel: the default map (20×20).
			r = response(t, e.do(withRoles(e.slash(bob, gamesChannel, "challenge"), "701", playerRole)))
			if flags(r) == 64 || !strings.Contains(text(r), "20×20") {
				t.Fatalf("/challenge with the role in the games channel: flags %d %s", flags(r), text(r))
			}
			// In a thread of the games channel: allowed. Over the gateway
			// the thread is known from the state (GUILD_CREATE), over HTTP
			// from the interaction's channel.
			if !m.http {
				e.f.dispatch("GUILD_CREATE", map[string]any{
					"id": testGuild, "name": "g",
					"channels": []any{map[string]any{"id": gamesChannel, "type": 0, "guild_id": testGuild}},
					"threads":  []any{map[string]any{"id": "405", "type": 11, "guild_id": testGuild, "parent_id": gamesChannel}},
				})
				deadline := time.Now().Add(eventWait)
				for ch, err := e.a.s.State.Channel("405"); err != nil || ch.ParentID != gamesChannel; ch, err = e.a.s.State.Channel("405") {
					if time.Now().After(deadline) {
						t.Fatal("GUILD_CREATE never reached the state")
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
			th := withRoles(e.slash(carol, "405", "challenge", "map", "basic16"), playerRole)
			th["channel"] = map[string]any{"id": "405", "type": 11, "parent_id": gamesChannel}
			r = response(t, e.do(th))
			if flags(r) == 64 || !strings.Contains(text(r), "16×16") {
				t.Fatalf("/challenge in a thread of the games channel: flags %d %s", flags(r), text(r))
			}

			r = response(t, e.do(e.slash(bob, gameChannel, "help")))
			for _, want := range []string{"Channel for games: <#" + gamesChannel + ">", "Who may challenge: <@&" + playerRole + ">", "basic20", "Daily puzzle: off"} {
				if !strings.Contains(text(r), want) {
					t.Fatalf("/help lacks %q: %s", want, text(r))
				}
			}

			// Reset: anyone, anywhere again.
			r = response(t, e.do(asManager(e.slash(alice, gameChannel, "server", "reset", "challenge_role"))))
			if !strings.Contains(text(r), "Who may challenge: everyone") || !strings.Contains(text(r), "<#"+gamesChannel+">") {
				t.Fatalf("after resetting the role: %s", text(r))
			}
			r = response(t, e.do(asManager(e.slash(alice, gameChannel, "server", "reset", "games_channel"))))
			if !strings.Contains(text(r), "Channel for games: any channel") || !strings.Contains(text(r), "Who may challenge: everyone") {
				t.Fatalf("after the resets: %s", text(r))
			}
			r = response(t, e.do(e.slash(who{"204", "dave"}, gameChannel, "challenge")))
			if flags(r) == 64 {
				t.Fatalf("/challenge after the resets: %s", text(r))
			}
		})
	}
}
