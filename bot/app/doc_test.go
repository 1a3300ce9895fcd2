package app

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite docs/bot.md's command tables from the command table")

const (
	docBegin = "<!-- commands: generated from bot/commands/commands.go by `go test ./bot/app -run TestDocMatchesTable -update-doc`; do not edit -->\n"
	docEnd   = "<!-- end of commands -->\n"
)

// docs/bot.md lists exactly the commands, options and custom ids of the
// command table.
func TestDocMatchesTable(t *testing.T) {
	const path = "../../docs/bot.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i, j := strings.Index(doc, docBegin), strings.Index(doc, docEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated command section (markers %q … %q)", path, docBegin, docEnd)
	}
	want := routerFor(newBot(Config{}, nil, nil, nil, nil)).CommandDoc()
	got := doc[i+len(docBegin) : j]
	if got == want {
		return
	}
	if *updateDoc {
		if err := os.WriteFile(path, []byte(doc[:i+len(docBegin)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date with the command table; run go test ./bot/app -run TestDocMatchesTable -update-doc\ngot:\n%s\nwant:\n%s", path, got, want)
}

// Every command of the table is registered, documented and routed, and
// every game action is reachable.
func TestTableRoutes(t *testing.T) {
	h := newHarness(t, Config{})
	specs := map[string]bool{}
	for _, s := range h.b.Commands() {
		specs[s.Name] = true
	}
	for _, c := range routerFor(h.b).Table() {
		if !specs[c.Name] {
			t.Errorf("%s: not registered", c.Name)
		}
		if c.Doc == "" || c.Run == nil {
			t.Errorf("%s: no doc or handler", c.Name)
		}
		if !strings.Contains(routerFor(h.b).CommandDoc(), "`/"+c.Name) {
			t.Errorf("%s: not in the doc", c.Name)
		}
		for _, a := range c.Actions {
			if !hasAction(h.b, a.Name) || a.Doc == "" {
				t.Errorf("%s: action %s not routed or undocumented", c.Name, a.Name)
			}
		}
	}
	if !strings.Contains(text(h.slash(alice, "help")), "/leaderboard") {
		t.Error("/help does not list every command")
	}
}

func hasAction(b *Bot, name string) bool { _, ok := routerFor(b).Action(name); return ok }
