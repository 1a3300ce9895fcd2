package discord

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/discord/discordtest"
)

// A Manage Server command registers with default_member_permissions 32
// (MANAGE_GUILD, as a string, as Discord documents it), so Discord hides it
// from other members; the others register without the field (everyone).
func TestRegisterManageServer(t *testing.T) {
	acs := toApplicationCommands([]bot.CommandSpec{{Name: "server", Description: "d", ManageServer: true}, {Name: "help", Description: "d"}})
	js, err := json.Marshal(acs)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	if got[0]["default_member_permissions"] != "32" {
		t.Errorf("server: default_member_permissions %v in %s", got[0]["default_member_permissions"], js)
	}
	if _, ok := got[1]["default_member_permissions"]; ok || strings.Count(string(js), "default_member_permissions") != 1 {
		t.Errorf("help carries default_member_permissions: %s", js)
	}
}

// Integer options register the bounds of the command table as Discord's
// min_value/max_value (so its client refuses other values before they are
// sent): a zero minimum is sent, not omitted; no maximum, no max_value.
// The whole list passes the fake's registration rules.
func TestRegisterIntegerBounds(t *testing.T) {
	b := bot.New(bot.Config{}, nil, nil, nil, nil)
	acs := toApplicationCommands(b.Commands())
	js, err := json.Marshal(acs)
	if err != nil {
		t.Fatal(err)
	}
	if why := discordtest.CommandsProblem(js); why != "" {
		t.Fatalf("Discord would refuse the commands: %s", why)
	}
	var got []struct {
		Name    string
		Options []map[string]any
	}
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	bounds := map[string]string{}
	for _, c := range got {
		for _, o := range c.Options {
			if o["type"] == float64(discordgo.ApplicationCommandOptionInteger) {
				bounds[c.Name+" "+o["name"].(string)] = fmt.Sprint(o["min_value"], "..", o["max_value"])
			}
		}
	}
	for opt, want := range map[string]string{
		"challenge level":    "1..5",
		"server daily_hour":  "0..23",
		"board ply":          "0..<nil>",
		"tournament level":   "1..5",
		"tournament rounds":  "1..20",
		"tournament players": "2..64",
		"tournament id":      "1..<nil>",
	} {
		if bounds[opt] != want {
			t.Errorf("%s: bounds %q, want %q", opt, bounds[opt], want)
		}
	}
	if len(bounds) != 7 {
		t.Errorf("integer options %v: a new one needs its bounds here", bounds)
	}
}
