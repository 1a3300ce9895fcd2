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
		// A subcommand's options (/tournament's) count under the command.
		opts := c.Options
		for _, o := range c.Options {
			if o["type"] == float64(discordgo.ApplicationCommandOptionSubCommand) {
				sub, _ := o["options"].([]any)
				for _, so := range sub {
					opts = append(opts, so.(map[string]any))
				}
			}
		}
		for _, o := range opts {
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
		"tournament players": "2..128",
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

// /tournament is registered as one subcommand per action, each with its
// own options (not twelve options for eight actions), and a subcommand
// reaches the core as the option bot.SubcommandOption beside its options.
func TestTournamentSubcommands(t *testing.T) {
	b := bot.New(bot.Config{}, nil, nil, nil, nil)
	var tour *discordgo.ApplicationCommand
	for _, ac := range toApplicationCommands(b.Commands()) {
		if ac.Name == "tournament" {
			tour = ac
		}
	}
	if tour == nil {
		t.Fatal("no /tournament")
	}
	subs := map[string][]string{}
	for _, o := range tour.Options {
		if o.Type != discordgo.ApplicationCommandOptionSubCommand {
			t.Errorf("top-level option %q of type %d beside the subcommands", o.Name, o.Type)
			continue
		}
		for _, so := range o.Options {
			subs[o.Name] = append(subs[o.Name], so.Name)
		}
		if _, ok := subs[o.Name]; !ok {
			subs[o.Name] = nil
		}
	}
	if len(subs) != 9 || len(subs["create"]) != 9 || fmt.Sprint(subs["export"]) != "[id]" || fmt.Sprint(subs["join"]) != "[id level]" || fmt.Sprint(subs["cancel"]) != "[id]" {
		t.Errorf("subcommands %v", subs)
	}

	var i discordgo.Interaction
	raw := `{"type":2,"data":{"name":"tournament","options":[{"type":1,"name":"join","options":[{"type":4,"name":"id","value":3}]}]},` +
		`"member":{"user":{"id":"1","username":"a"}},"guild_id":"g","channel_id":"c"}`
	if err := json.Unmarshal([]byte(raw), &i); err != nil {
		t.Fatal(err)
	}
	c, _ := toCommand(&i, nil)
	if c.Name != "tournament" || c.Options[bot.SubcommandOption] != "join" || c.Options["id"] != "3" || len(c.Options) != 2 {
		t.Errorf("converted as %q %v", c.Name, c.Options)
	}
	raw = `{"type":2,"data":{"name":"tournament","options":[{"type":1,"name":"standings"}]},"member":{"user":{"id":"1","username":"a"}},"guild_id":"g","channel_id":"c"}`
	i = discordgo.Interaction{}
	if err := json.Unmarshal([]byte(raw), &i); err != nil {
		t.Fatal(err)
	}
	if c, _ := toCommand(&i, nil); c.Options[bot.SubcommandOption] != "standings" || len(c.Options) != 1 {
		t.Errorf("a subcommand without options converted as %v", c.Options)
	}
}
