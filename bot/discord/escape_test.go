package discord

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// The adapter escapes the players' names at output, where Discord renders
// markdown, and leaves the rest of the text and the plain labels alone.
func TestNamesEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"alice":                         "alice",
		"john_doe":                      `john\_doe`,
		"tankbot (level 3)":             `tankbot \(level 3\)`,
		"[click](https://evil.example)": `\[click\]\(https\://evil.example\)`,
		"**bold** <@1> _x_":             `\*\*bold\*\* \<\@1\> \_x\_`,
	} {
		if got := escapeMarkdown(in); got != want {
			t.Errorf("escapeMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
	// Names reach the adapter marked (as bot.Handle writes them).
	mark := func(s string) string { return "\u2068" + s + "\u2069" }
	r := bot.Reply{
		Content:    "**" + mark("john_doe") + "** played",
		Embed:      &bot.Embed{Title: "Game #1", Fields: []bot.Field{{Name: "White · " + mark("tankbot (level 3)"), Value: "1:00"}}, Footer: mark("a_b")},
		Components: [][]bot.Component{{{Kind: bot.Button, CustomID: "x", Label: mark("a_b")}}},
	}
	m := toMessage(r)
	if m.content != `**john\_doe** played` {
		t.Errorf("content %q", m.content)
	}
	if f := m.embeds[0].Fields[0].Name; f != `White · tankbot \(level 3\)` {
		t.Errorf("field %q", f)
	}
	if m.embeds[0].Footer.Text != "a_b" || strings.Contains(m.content, "\u2068") {
		t.Errorf("footer %q (labels stay plain)", m.embeds[0].Footer.Text)
	}
	if b, ok := m.components[0].(discordgo.ActionsRow).Components[0].(discordgo.Button); !ok || b.Label != "a_b" {
		t.Errorf("button %+v", m.components[0])
	}
}
