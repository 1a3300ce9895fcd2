package discord

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/view"
)

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello world", 6, "hello…"},
		{"สวัสดีครับ", 4, "สวั…"},
		{"abc", 0, ""},
		{"abc", 1, "…"},
		// The cut would split the mention: it moves before it.
		{"your turn <@123456789>", 15, "your turn…"},
		{"at <t:1700000000:R> ok", 10, "at…"},
		// A plain "<" is just text.
		{"a < b < c and more", 8, "a < b <…"},
		{"bad \xff byte", 20, "bad \uFFFD byte"},
	} {
		if got := view.Clip(c.in, c.n); got != c.want {
			t.Errorf("view.Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// A /games list in a busy server and a refusal quoting a 6,000-character
// option: both are sent within the limits.
func TestFitReplyLongContentAndEmbed(t *testing.T) {
	long := strings.Repeat("game 42 · <@201> vs <@202>\n", 200)
	var fields []view.Field
	for k := 0; k < 40; k++ {
		fields = append(fields, view.Field{Name: strings.Repeat("n", 300), Value: strings.Repeat("v", 2000)})
	}
	r := FitReply(view.Reply{Content: long, Embed: &view.Embed{Title: strings.Repeat("t", 300), Description: long + long, Fields: fields, Footer: strings.Repeat("f", 3000)}})
	checkFits(t, r)
	if len(r.Embed.Fields) == 0 {
		t.Error("all fields dropped although some fit")
	}
	if !strings.HasSuffix(r.Content, "…") || strings.Count(r.Content, "<@") != strings.Count(r.Content, ">") {
		t.Errorf("content cut badly: ...%q", r.Content[len(r.Content)-40:])
	}
}

func TestFitReplyComponents(t *testing.T) {
	menu := view.Component{Kind: view.Select, CustomID: "m", Placeholder: strings.Repeat("p", 200)}
	for k := 0; k < 30; k++ {
		menu.Options = append(menu.Options, view.Option{Label: strings.Repeat("l", 120), Value: string(rune('a' + k)), Description: strings.Repeat("d", 120)})
	}
	menu.Options = append([]view.Option{{Label: "too long value", Value: strings.Repeat("x", 101)}}, menu.Options...)
	rows := [][]view.Component{
		{{Kind: view.Button, CustomID: strings.Repeat("c", 101), Label: "lost"}, {Kind: view.Button, CustomID: "ok", Label: strings.Repeat("b", 90)}},
		{menu},
		{{Kind: view.Select, CustomID: "empty"}},
	}
	for r := 0; r < 6; r++ {
		var row []view.Component
		for b := 0; b < 7; b++ {
			row = append(row, view.Component{Kind: view.Button, CustomID: "r" + string(rune('0'+r)) + string(rune('0'+b))})
		}
		rows = append(rows, row)
	}
	out := FitReply(view.Reply{Components: rows})
	checkFits(t, out)
	if got := out.Components[0]; len(got) != 1 || got[0].CustomID != "ok" {
		t.Errorf("first row %+v: the over-long custom id must be dropped, not clipped", got)
	}
	if m := out.Components[1][0]; len(m.Options) != 25 || m.Options[0].Value != "a" {
		t.Errorf("menu: %d options, first %q", len(m.Options), m.Options[0].Value)
	}
	if out.Components[2][0].CustomID == "empty" {
		t.Error("a menu without options is refused by Discord and must be dropped")
	}
	if rows[0][1].Label != strings.Repeat("b", 90) {
		t.Error("FitReply modified its argument")
	}
}

func TestFitModalAndChoices(t *testing.T) {
	r := FitReply(view.Reply{Modal: &view.Modal{CustomID: "x", Title: strings.Repeat("T", 60), Inputs: make([]view.Input, 7)}})
	if runes(r.Modal.Title) != MaxModalTitle || len(r.Modal.Inputs) != MaxModalInputs {
		t.Errorf("modal %q, %d inputs", r.Modal.Title, len(r.Modal.Inputs))
	}
	var cs []view.Choice
	for k := 0; k < 40; k++ {
		cs = append(cs, view.Choice{Name: strings.Repeat("ก", 150), Value: "v" + string(rune('a'+k%26))})
	}
	cs = append([]view.Choice{{Name: "no value"}, {Name: "long", Value: strings.Repeat("x", 101)}, {Value: "nameless"}}, cs...)
	got := FitChoices(cs)
	if len(got) != MaxChoices || got[0].Name != "nameless" || runes(got[1].Name) != MaxChoiceText {
		t.Errorf("%d choices, first %+v, second name %d runes", len(got), got[0], runes(got[1].Name))
	}
}

func TestWithoutFiles(t *testing.T) {
	r := view.Reply{Content: "e2 > e5", FallbackText: "no image", Files: []view.File{{Name: "b.png"}}, Embed: &view.Embed{Image: "b.png"}}
	w := WithoutFiles(r)
	if w.Files != nil || w.Embed.Image != "" || w.Content != "e2 > e5\nno image" || r.Embed.Image != "b.png" {
		t.Errorf("%+v (original %+v)", w, r)
	}
}

// checkFits fails t when r breaks any of Discord's limits.
func checkFits(t testing.TB, r view.Reply) {
	t.Helper()
	text := func(what, s string, n int) {
		if !utf8.ValidString(s) {
			t.Errorf("%s: invalid UTF-8", what)
		}
		if runes(s) > n {
			t.Errorf("%s: %d runes > %d", what, runes(s), n)
		}
	}
	text("content", r.Content, MaxContent)
	if e := r.Embed; e != nil {
		text("title", e.Title, MaxEmbedTitle)
		text("description", e.Description, MaxEmbedDescription)
		text("footer", e.Footer, MaxFooter)
		total := runes(e.Title) + runes(e.Description) + runes(e.Footer)
		if len(e.Fields) > MaxFields {
			t.Errorf("%d fields", len(e.Fields))
		}
		for _, f := range e.Fields {
			text("field name", f.Name, MaxFieldName)
			text("field value", f.Value, MaxFieldValue)
			total += runes(f.Name) + runes(f.Value)
		}
		if total > MaxEmbedTotal {
			t.Errorf("embed total %d", total)
		}
	}
	if len(r.Components) > MaxRows {
		t.Errorf("%d rows", len(r.Components))
	}
	for _, row := range r.Components {
		if len(row) > MaxButtonsPerRow || len(row) == 0 {
			t.Errorf("row of %d", len(row))
		}
		for _, c := range row {
			text("custom id", c.CustomID, MaxCustomID)
			if c.Kind == view.Select {
				if len(row) != 1 || len(c.Options) == 0 || len(c.Options) > MaxMenuOptions {
					t.Errorf("menu in a row of %d with %d options", len(row), len(c.Options))
				}
				text("placeholder", c.Placeholder, MaxPlaceholder)
				text("menu label", c.Label, MaxPlaceholder)
				for _, o := range c.Options {
					text("option label", o.Label, MaxOptionText)
					text("option value", o.Value, MaxOptionText)
					text("option description", o.Description, MaxOptionText)
				}
			} else {
				text("label", c.Label, MaxButtonLabel)
			}
		}
	}
	if m := r.Modal; m != nil {
		text("modal title", m.Title, MaxModalTitle)
		if len(m.Inputs) > MaxModalInputs {
			t.Errorf("%d inputs", len(m.Inputs))
		}
		for _, in := range m.Inputs {
			text("input label", in.Label, MaxInputLabel)
			text("input placeholder", in.Placeholder, MaxInputPlaceholder)
		}
	}
}

func FuzzFitReply(f *testing.F) {
	f.Add("hello <@1>", "desc", "field", 3, uint8(10), 30)
	f.Add(strings.Repeat("ก<t:1:R>", 500), strings.Repeat("é", 5000), strings.Repeat("x", 1100), 30, uint8(7), 120)
	f.Fuzz(func(t *testing.T, s, desc, field string, nFields int, nComp uint8, rep int) {
		rep = max(1, min(rep, 40))
		nFields = max(0, min(nFields, 30))
		big := strings.Repeat(s, rep)
		e := &view.Embed{Title: big, Description: strings.Repeat(desc, rep), Footer: big}
		for k := 0; k < nFields; k++ {
			e.Fields = append(e.Fields, view.Field{Name: field, Value: strings.Repeat(field, rep)})
		}
		var rows [][]view.Component
		for k := 0; k < int(nComp%12); k++ {
			row := []view.Component{{Kind: view.Button, CustomID: s, Label: big}, {Kind: view.Button, CustomID: field, Label: desc}}
			if k%3 == 0 {
				row = append([]view.Component{{Kind: view.Select, CustomID: desc, Placeholder: big, Options: []view.Option{{Label: big, Value: s, Description: field}}}}, row...)
			}
			rows = append(rows, row)
		}
		r := FitReply(view.Reply{Content: big, Embed: e, Components: rows, Modal: &view.Modal{Title: s, Inputs: []view.Input{{Label: big, Placeholder: desc}}}})
		checkFits(t, r)
		for _, c := range FitChoices([]view.Choice{{Name: big, Value: s}, {Name: s, Value: desc}}) {
			if runes(c.Name) > MaxChoiceText || runes(c.Value) > MaxChoiceText || c.Value == "" || !utf8.ValidString(c.Name) {
				t.Errorf("choice %q=%q", c.Name, c.Value)
			}
		}
	})
}

// Link buttons carry a URL instead of a custom id; FitReply keeps a valid
// one and drops one Discord would refuse.
func TestFitLinkButtons(t *testing.T) {
	ok := view.Component{Kind: view.Button, Style: view.Link, URL: "https://viewer.example/g/AAAAAAAAAAAAAAAAAAAAAA", Label: "Watch / Replay"}
	long := ok
	long.URL = "https://x.example/" + strings.Repeat("a", 512)
	withID := ok
	withID.CustomID = "g:1:1:watch"
	noURL := view.Component{Kind: view.Button, Style: view.Link, Label: "x"}
	r := FitReply(view.Reply{Content: "b", Components: [][]view.Component{{ok, long, withID, noURL}}})
	if len(r.Components) != 1 || len(r.Components[0]) != 1 || r.Components[0][0].URL != ok.URL {
		t.Fatalf("fitted rows %+v, want only the valid link", r.Components)
	}
}

// The core's bound on a message's text fits Discord's.
func TestMaxTextFits(t *testing.T) {
	if view.MaxText > MaxContent {
		t.Fatalf("view.MaxText %d > Discord's %d", view.MaxText, MaxContent)
	}
}
