package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/discord"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
)

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The README's set-up facts match the code: the Go version of go.mod, the
// invite's permission integer (computed in bot/discord) with View Channels,
// the server id, the HTTP port published by docker run -p and exposed by
// the Dockerfile, and the AI's think time in config.example.yaml.
func TestReadmeSetupMatchesTheCode(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	gomod := readRepoFile(t, "go.mod")
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(gomod)
	if goVersion == nil || !strings.Contains(readme, "Go "+goVersion[1]+" or newer") {
		t.Errorf("README does not ask for Go %v or newer (go.mod)", goVersion)
	}
	perms := strconv.FormatInt(discord.InvitePermissions, 10)
	if !strings.Contains(readme, "permissions="+perms) || !strings.Contains(readme, "**"+perms+"**") {
		t.Errorf("README's invite does not carry permissions=%s", perms)
	}
	if discord.InvitePermissions&(1<<10) == 0 || !strings.Contains(readme, "| View Channels | 1 << 10 | 1024 |") {
		t.Error("the invite lacks View Channels")
	}
	if !strings.Contains(readme, "Copy Server ID") || !strings.Contains(readme, "Developer Mode") {
		t.Error("README does not say how to find the server id")
	}
	port := strings.TrimPrefix(defaultConfig().Listen, ":")
	if !strings.Contains(readme, "-p "+port+":"+port) || !strings.Contains(readme, "tankbot serve") {
		t.Errorf("README's docker run for serve does not publish port %s", port)
	}
	if !regexp.MustCompile(`(?m)^EXPOSE ` + port + `$`).MatchString(readRepoFile(t, "Dockerfile")) {
		t.Errorf("Dockerfile does not EXPOSE %s", port)
	}
	var maxThink float64
	for l := 1; l <= ai.Levels; l++ {
		maxThink = max(maxThink, ai.LevelLimits(l).MoveTime.Seconds())
	}
	example := readRepoFile(t, "config.example.yaml")
	if want := fmt.Sprintf("at most %g s", maxThink); !strings.Contains(strings.Join(strings.Fields(example), " "), want) {
		t.Errorf("config.example.yaml does not say the AI thinks %s", want)
	}
	if !strings.Contains(readme, fmt.Sprintf("%g s cap", maxThink)) {
		t.Errorf("README does not give the %g s cap", maxThink)
	}
}

// The README's table offers perft and check for every game, as they work.
func TestReadmeEngineToolsAllGames(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"perft", "check"} {
		row := ""
		for _, l := range strings.Split(string(readme), "\n") {
			if strings.HasPrefix(l, "| `tankbot "+cmd+" ") {
				row = l
			}
		}
		if row == "" || strings.Contains(row, "--game tank") || !strings.Contains(row, "--game G") {
			t.Errorf("README row of %s: %q", cmd, row)
		}
		for _, g := range games.Names() {
			args := []string{cmd, "--game", g, "--position", ""}
			if cmd == "perft" {
				args = append(args, "--depth", "1")
			}
			r, _ := games.Lookup(g)
			args[4] = r.Variants()[len(r.Variants())-1].Name
			var out, errb bytes.Buffer
			if code := runMain(args, &out, &errb); code != 0 {
				t.Errorf("%v: exit %d: %s", args, code, errb.String())
			}
		}
	}
}
