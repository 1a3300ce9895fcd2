package app

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/names"
)

// Names are stored as players typed them and the record shows them plain:
// john_doe stays john_doe, the computer is "tankbot (level 3)" (the
// Discord adapter escapes them at output, bot/discord's TestNamesEscaped).
func TestNamesStoredAndRecordedPlain(t *testing.T) {
	h := newHarness(t, aiConfig())
	john := user("john_doe")
	rs := h.handle(Command{Kind: KindSlash, Name: "challenge", User: john, GuildID: "guild", ChannelID: "chan",
		Options: map[string]string{"level": "3"}, Users: map[string]User{tankbot.ID: tankbot}})
	var id int64
	for _, r := range rs {
		if isBoard(r) {
			id = gameOf(r)
		}
	}
	if id == 0 {
		t.Fatalf("no game: %+v", rs)
	}
	row, err := h.b.St.(*storeRepo).st.Game(h.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if row.Names != [2]string{"john_doe", "tankbot (level 3)"} && row.Names != [2]string{"tankbot (level 3)", "john_doe"} {
		t.Errorf("stored names %q", row.Names)
	}
	if !strings.Contains(text(rs), "john_doe") || strings.Contains(text(rs), `\_`) {
		t.Errorf("the board escapes in the core: %s", text(rs))
	}
	g := h.game(id)
	files, err := h.b.GameFiles(h.ctx, g, false)
	if err != nil {
		t.Fatal(err)
	}
	rec := string(files[0].Data)
	for _, want := range []string{`"john_doe"`, `"tankbot (level 3)"`} {
		if !strings.Contains(rec, want) {
			t.Errorf("record lacks %s:\n%s", want, rec)
		}
	}
	if strings.ContainsAny(rec, "\\\u2068\u2069") {
		t.Errorf("record holds escapes or marks:\n%s", rec)
	}
	// The core's own output marks the names for the transports.
	raw := h.b.Handle(h.ctx, Command{Kind: KindSlash, Name: "board", User: john, GuildID: "guild", ChannelID: "chan", Options: map[string]string{}})
	if len(raw) == 0 || raw[0].Embed == nil || !strings.Contains(raw[0].Embed.Description+raw[0].Embed.Fields[0].Name+raw[0].Embed.Fields[1].Name, names.MarkName("john_doe")) {
		t.Errorf("names not marked in the core's output: %+v", raw)
	}
}
