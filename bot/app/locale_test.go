package app

import (
	"strings"
	"testing"
)

// A challenged player whose language is known is pinged in it; the
// server's readers keep their line (issue 25 item 7).
func TestChallengePingInReadersLanguage(t *testing.T) {
	h := newHarness(t, Config{})
	bob := user("bob")
	if rs := h.handle(Command{Kind: KindSlash, Name: "settings", User: bob, GuildID: "guild", ChannelID: "chan",
		Options: map[string]string{"language": "th"}}); !strings.Contains(rs[0].Content, "ไทย") {
		t.Fatalf("settings: %+v", rs)
	}
	rs := h.slash(alice, "challenge", "opponent=bob")
	mustNotRefuse(t, rs)
	c := rs[0].Content
	lines := strings.Split(c, "\n")
	if !strings.Contains(lines[0], "alice challenges bob to a game of Tank Chess") || strings.Contains(lines[0], "<@") {
		t.Errorf("the server's line: %q", lines[0])
	}
	if len(lines) < 2 || !strings.Contains(lines[1], "<@id-bob>") || !strings.Contains(lines[1], "หมากรุกรถถัง") {
		t.Errorf("no line pinging bob in Thai: %q", c)
	}
	if strings.Count(c, "<@id-bob>") != 1 || len(rs[0].Mentions) != 1 {
		t.Errorf("bob mentioned %d times, mentions %v", strings.Count(c, "<@id-bob>"), rs[0].Mentions)
	}
	// Unknown language: one line in the server's, with the mention.
	rs = h.slash(alice, "challenge", "opponent=carol")
	if !strings.Contains(strings.Split(rs[0].Content, "\n")[0], "challenges <@id-carol>") {
		t.Errorf("carol's challenge: %q", rs[0].Content)
	}
}

// Every fixed choice of a command is translated (Discord's choice
// name_localizations), and the draft's button names its formation in words.
func TestChoicesAndButtonsTranslated(t *testing.T) {
	h := newHarness(t, Config{})
	for _, s := range h.b.Commands() {
		for _, o := range s.Options {
			for _, c := range o.Choices {
				if o.Name == "language" {
					continue // each language is named in itself
				}
				if c.NameLocalizations["th"] == "" || c.NameLocalizations["pt-BR"] == "" {
					t.Errorf("/%s %s: choice %q untranslated", s.Name, o.Name, c.Value)
				}
			}
		}
	}
	h.loc = "pt-BR"
	for _, s := range h.b.Commands() {
		if s.Name == "challenge" {
			for _, o := range s.Options {
				if o.Name == "game" && o.Choices[0].NameLocalizations["pt-BR"] != "Xadrez de Tanques" {
					t.Errorf("Tank Chess in pt-BR: %q", o.Choices[0].NameLocalizations["pt-BR"])
				}
			}
		}
	}
	rs := h.slash(alice, "challenge", "opponent=bob", "game=gungi")
	rs = h.click(bob, findID(t, rs, "accept"))
	for _, r := range rs {
		for _, row := range r.Components {
			for _, c := range row {
				if strings.Contains(c.CustomID, ":moveask:") && (strings.HasSuffix(c.Label, "quick") || !strings.Contains(c.Label, "formação rápida")) {
					t.Errorf("draft button %q leaks the formation id", c.Label)
				}
			}
		}
	}
}
