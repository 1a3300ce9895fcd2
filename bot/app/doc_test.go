package app

import (
	"strings"
	"testing"
)

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
