package outbox

import (
	"reflect"
	"testing"

	"github.com/tankbot/tankbot/bot/view"
)

// Every post kind survives its stored form, and the form written before
// post kinds (a whole Reply with its markers) decodes to the kind it
// meant.
func TestPostStoredForm(t *testing.T) {
	board := view.Reply{ChannelID: "c", Content: "x", Embed: &view.Embed{Image: "board.png"}, Shows: &view.Shown{Game: "tank", Position: "p"}}
	for _, p := range []Post{
		Text(view.Reply{ChannelID: "c", Content: "hello"}),
		Board(7, board),
		FinalBoard(7, board),
		Daily(view.Reply{ChannelID: "c"}, DailyRef{Guild: "g", Day: "2026-01-02", Game: "tank", Puzzle: "p1", Locale: "th"}),
		Standings(view.Reply{ChannelID: "c", Mentions: []string{"a"}}, 4),
		Edit(view.Reply{ChannelID: "c", Content: "gone"}, "m9"),
	} {
		body, err := Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(body)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("%s: decoded as %+v, want %+v", body, got, p)
		}
	}
	for _, c := range []struct {
		old  string
		want Post
	}{
		{`{"Content":"hi","ChannelID":"c"}`, Text(view.Reply{Content: "hi", ChannelID: "c"})},
		{`{"ChannelID":"c","GameID":7,"Board":true,"Seq":3,"Position":"p","Game":"tank"}`,
			Board(7, view.Reply{ChannelID: "c", Shows: &view.Shown{Game: "tank", Position: "p"}})},
		{`{"ChannelID":"c","GameID":7,"Board":true,"Final":true}`, FinalBoard(7, view.Reply{ChannelID: "c"})},
		{`{"ChannelID":"c","Daily":{"Guild":"g","Day":"d","Game":"tank","Puzzle":"p","Locale":"en"}}`,
			Daily(view.Reply{ChannelID: "c"}, DailyRef{Guild: "g", Day: "d", Game: "tank", Puzzle: "p", Locale: "en"})},
		{`{"ChannelID":"c","Tournament":4}`, Standings(view.Reply{ChannelID: "c"}, 4)},
		{`{"ChannelID":"c","Content":"x","Edit":"m9"}`, Edit(view.Reply{ChannelID: "c", Content: "x"}, "m9")},
		{`{}`, Text(view.Reply{})}, // a strip row's payload
	} {
		got, err := Decode(c.old)
		if err != nil {
			t.Fatalf("%s: %v", c.old, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("old %s: decoded as %+v, want %+v", c.old, got, c.want)
		}
	}
	// The stored form written before the reply's markers became generic
	// (a kind, and a reply with GameID, Board, Seq, Position and Game).
	const before = `{"kind":"board","ids":{"game":7},"reply":{"ChannelID":"c","GameID":7,"Board":true,"Seq":3,"Position":"p","Game":"tank","ChallengeID":2}}`
	if got, err := Decode(before); err != nil || !reflect.DeepEqual(got, Board(7, view.Reply{ChannelID: "c", Shows: &view.Shown{Game: "tank", Position: "p"}})) {
		t.Errorf("%s: decoded as %+v, %v", before, got, err)
	}
	for _, bad := range []string{`{"kind":"nope","reply":{}}`, `not json`, `{"kind":"board","ids":"x","reply":{}}`} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("%s: decoded", bad)
		}
	}
}
