package discord

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

func TestToCommandOptionsAndUsers(t *testing.T) {
	h := &harness{}
	b, _ := json.Marshal(h.slashSeed())
	var i discordgo.Interaction
	if err := json.Unmarshal(b, &i); err != nil {
		t.Fatal(err)
	}
	c, focused := toCommand(&i, nil)
	if focused != "" || c.Name != "challenge" || c.Kind != bot.KindSlash {
		t.Fatalf("%+v focused %q", c, focused)
	}
	want := map[string]string{"opponent": "202", "thread": "true", "n": "3", "x": "y"}
	for k, v := range want {
		if c.Options[k] != v {
			t.Errorf("option %s = %q, want %q", k, c.Options[k], v)
		}
	}
	if u := c.Users["202"]; u.ID != "202" || u.Name != "Bobby" {
		t.Errorf("resolved user %+v", u)
	}
	if c.User.ID != alice.id || c.User.Name != "alice" {
		t.Errorf("caller %+v", c.User)
	}
}

func TestComponentsKeepToDiscordLimits(t *testing.T) {
	var rows [][]bot.Component
	for r := 0; r < 7; r++ {
		var row []bot.Component
		for b := 0; b < 7; b++ {
			row = append(row, bot.Component{Kind: bot.Button, CustomID: "b", Label: "b"})
		}
		rows = append(rows, row)
	}
	menu := bot.Component{Kind: bot.Select, CustomID: "m", Placeholder: "pick"}
	for k := 0; k < 30; k++ {
		menu.Options = append(menu.Options, bot.Option{Label: "o", Value: "v"})
	}
	rows[0] = []bot.Component{menu, {Kind: bot.Button, CustomID: "x"}}
	out := toMessage(bot.Reply{Components: rows}).components
	if len(out) != 5 {
		t.Fatalf("%d rows", len(out))
	}
	first := out[0].(discordgo.ActionsRow).Components
	if len(first) != 1 || len(first[0].(discordgo.SelectMenu).Options) != 25 {
		t.Errorf("menu row %+v", first)
	}
	if n := len(out[1].(discordgo.ActionsRow).Components); n != 5 {
		t.Errorf("%d buttons in a row", n)
	}
	if toComponents(nil) == nil {
		t.Error("no components must be an empty list, so that edits clear old buttons")
	}
}

// The member's permissions (a string of bits, as Discord sends them) give
// Manage Server (0x20), the tournament organiser's right.
func TestToCommandManageServer(t *testing.T) {
	for _, tc := range []struct {
		perms string
		want  bool
	}{{"32", true}, {"2147483647", true}, {"2048", false}, {"0", false}} {
		raw := `{"id":"1","type":2,"guild_id":"9","channel_id":"8","data":{"name":"tournament"},` +
			`"member":{"user":{"id":"201","username":"alice"},"permissions":"` + tc.perms + `"}}`
		var i discordgo.Interaction
		if err := json.Unmarshal([]byte(raw), &i); err != nil {
			t.Fatal(err)
		}
		if c, _ := toCommand(&i, nil); c.ManageServer != tc.want {
			t.Errorf("permissions %s: ManageServer %v, want %v", tc.perms, c.ManageServer, tc.want)
		}
	}
}
