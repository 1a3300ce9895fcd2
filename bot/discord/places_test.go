package discord

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// Every command is registered with the installation types and contexts
// of docs/discord.md: /tournament and /server in servers that installed
// the app only, the rest everywhere; for a development server (guild
// scope), where Discord knows no user installs nor DMs, the server only.
func TestRegisterPlaces(t *testing.T) {
	b := bot.New(bot.Config{}, nil, nil, nil, nil)
	everywhere, serverOnly := "[0 1] [0 1 2]", "[0] [0]"
	for _, guildScoped := range []bool{false, true} {
		for _, ac := range toCommandsFor(b.Commands(), guildScoped) {
			want := everywhere
			if guildScoped || ac.Name == "tournament" || ac.Name == "server" {
				want = serverOnly
			}
			if ac.IntegrationTypes == nil || ac.Contexts == nil {
				t.Fatalf("/%s without integration_types or contexts", ac.Name)
			}
			if got := fmt.Sprint(*ac.IntegrationTypes, " ", *ac.Contexts); got != want {
				t.Errorf("/%s (guild scope %v): integration_types and contexts %s, want %s", ac.Name, guildScoped, got, want)
			}
		}
	}
}

// An interaction's place: the context and authorizing_integration_owners
// Discord sends, read as the core's BotAbsent and BotDM.
func TestPlaceOfInteraction(t *testing.T) {
	cases := []struct {
		name, raw        string
		botAbsent, botDM bool
	}{
		{"server with the bot", `{"guild_id":"g","context":0,"authorizing_integration_owners":{"0":"g","1":"u"}}`, false, false},
		{"server without the bot", `{"guild_id":"g","context":0,"authorizing_integration_owners":{"1":"u"}}`, true, false},
		{"DM with a friend", `{"context":2,"authorizing_integration_owners":{"1":"u"}}`, true, false},
		{"group DM", `{"context":2,"authorizing_integration_owners":{"1":"u"}}`, true, false},
		{"DM with the bot, installed to the user", `{"context":1,"authorizing_integration_owners":{"1":"u"}}`, false, true},
		{"DM with the bot, from a shared server", `{"context":1,"authorizing_integration_owners":{"0":"0"}}`, false, true},
		{"old payload in a server", `{"guild_id":"g"}`, false, false},
		{"old payload in a DM", `{}`, false, true},
	}
	for _, c := range cases {
		var i discordgo.Interaction
		raw := `{"type":2,"data":{"name":"board"},"channel_id":"c","user":{"id":"u"}` + strings.TrimPrefix(c.raw, "{")
		if c.raw != "{}" {
			raw = `{"type":2,"data":{"name":"board"},"channel_id":"c","user":{"id":"u"},` + strings.TrimPrefix(c.raw, "{")
		}
		if err := json.Unmarshal([]byte(raw), &i); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cmd, _ := toCommand(&i, nil)
		if cmd.BotAbsent != c.botAbsent || cmd.BotDM != c.botDM {
			t.Errorf("%s: BotAbsent %v BotDM %v, want %v %v", c.name, cmd.BotAbsent, cmd.BotDM, c.botAbsent, c.botDM)
		}
	}
}
