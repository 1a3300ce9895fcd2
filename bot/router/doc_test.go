package router

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/app"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite docs/bot.md's command tables from the command table")

const (
	docBegin = "<!-- commands: generated from bot/commands/commands.go by `go test ./bot/router -run TestDocMatchesTable -update-doc`; do not edit -->\n"
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
	want := New(app.New(app.Config{}, nil, nil, nil, nil)).CommandDoc()
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
	t.Errorf("%s is out of date with the command table; run go test ./bot/router -run TestDocMatchesTable -update-doc\ngot:\n%s\nwant:\n%s", path, got, want)
}
