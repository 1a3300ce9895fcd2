package discord

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tankbot/tankbot/bot"
)

// buildersDir holds @discordjs/builders at the version its package-lock
// pins (npm ci --prefix bot/discord/testdata/builders; .ci/test runs it).
var buildersDir = filepath.Join("testdata", "builders")

// TestCommandsPassDiscordJSBuilders hands the bot's registration, exactly
// as sent, to @discordjs/builders (testdata/builders/check.js), whose
// SlashCommandBuilder validates every field as it is set and again in
// toJSON: names, descriptions and their localizations, options, choices,
// bounds, channel types, default member permissions, contexts and
// integration types. The library's JSON must carry the same contexts and
// integration types as ours, so nothing was dropped on the way.
func TestCommandsPassDiscordJSBuilders(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: runs node with @discordjs/builders")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		buildersNeeded(t, "node is not installed")
	}
	if _, err := os.Stat(filepath.Join(buildersDir, "node_modules", "@discordjs", "builders")); err != nil {
		buildersNeeded(t, "@discordjs/builders is not installed (npm ci --prefix bot/discord/testdata/builders)")
	}
	b := bot.New(bot.Config{}, nil, nil, nil, nil)
	sent, err := json.Marshal(toApplicationCommands(b.Commands()))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "check.js")
	cmd.Dir = buildersDir
	cmd.Stdin = bytes.NewReader(sent)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("@discordjs/builders refuses the registration: %v: %s", err, errb.String())
	}
	type places struct {
		Name             string
		Contexts         []int `json:"contexts"`
		IntegrationTypes []int `json:"integration_types"`
		Options          []any `json:"options"`
	}
	var ours, theirs []places
	if err := json.Unmarshal(sent, &ours); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &theirs); err != nil {
		t.Fatalf("check.js output: %v: %s", err, out.String())
	}
	if len(ours) != len(theirs) {
		t.Fatalf("%d commands sent, the library built %d", len(ours), len(theirs))
	}
	for k := range ours {
		o, th := ours[k], theirs[k]
		if len(o.Contexts) == 0 || len(o.IntegrationTypes) == 0 {
			t.Errorf("/%s is registered without contexts or integration_types", o.Name)
		}
		if o.Name != th.Name || !reflect.DeepEqual(o.Contexts, th.Contexts) || !reflect.DeepEqual(o.IntegrationTypes, th.IntegrationTypes) ||
			len(o.Options) != len(th.Options) {
			t.Errorf("/%s: sent contexts %v, integration_types %v, %d options; the library built /%s with %v, %v, %d options",
				o.Name, o.Contexts, o.IntegrationTypes, len(o.Options), th.Name, th.Contexts, th.IntegrationTypes, len(th.Options))
		}
	}
}

// buildersNeeded skips the test where node or the library is missing,
// except in CI, where the tier must run.
func buildersNeeded(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s", what)
	}
	t.Skipf("%s: skipping the @discordjs/builders check of the registration", what)
}
