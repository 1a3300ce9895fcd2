package discord

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot"
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
