package app

import (
	"reflect"
	"testing"

	"github.com/tankbot/tankbot/bot/view"
)

// Every post kind survives its stored form, and the form written before
// post kinds (a whole Reply with its markers) decodes to the kind it
// meant.
func TestPostStoredForm(t *testing.T) {
	board := view.Reply{ChannelID: "c", Content: "x", GameID: 7, Board: true, Seq: 3, Embed: &view.Embed{Image: "board.png"}}
	for _, p := range []OutPost{
		textPost(view.Reply{ChannelID: "c", Content: "hello"}),
		boardPost(board),
		finalBoardPost(board),
		dailyPuzzlePost(view.Reply{ChannelID: "c"}, view.DailyRef{Guild: "g", Day: "2026-01-02", Game: "tank", Puzzle: "p1", Locale: "th"}),
		standingsPost(view.Reply{ChannelID: "c", Mentions: []string{"a"}}, 4),
		editPost(view.Reply{ChannelID: "c", Content: "gone"}, "m9"),
	} {
		body, err := encodePost(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodePost(body)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("%s: decoded as %+v, want %+v", body, got, p)
		}
	}
	for _, c := range []struct {
		old  string
		want OutPost
	}{
		{`{"Content":"hi","ChannelID":"c"}`, textPost(view.Reply{Content: "hi", ChannelID: "c"})},
		{`{"ChannelID":"c","GameID":7,"Board":true,"Seq":3}`, boardPost(view.Reply{ChannelID: "c", GameID: 7, Board: true, Seq: 3})},
		{`{"ChannelID":"c","GameID":7,"Board":true,"Final":true}`, finalBoardPost(view.Reply{ChannelID: "c", GameID: 7, Board: true})},
		{`{"ChannelID":"c","Daily":{"Guild":"g","Day":"d","Game":"tank","Puzzle":"p","Locale":"en"}}`,
			dailyPuzzlePost(view.Reply{ChannelID: "c"}, view.DailyRef{Guild: "g", Day: "d", Game: "tank", Puzzle: "p", Locale: "en"})},
		{`{"ChannelID":"c","Tournament":4}`, standingsPost(view.Reply{ChannelID: "c"}, 4)},
		{`{"ChannelID":"c","Content":"x","Edit":"m9"}`, editPost(view.Reply{ChannelID: "c", Content: "x"}, "m9")},
		{`{}`, textPost(view.Reply{})}, // a strip row's payload
	} {
		got, err := decodePost(c.old)
		if err != nil {
			t.Fatalf("%s: %v", c.old, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("old %s: decoded as %+v, want %+v", c.old, got, c.want)
		}
	}
	for _, bad := range []string{`{"kind":"nope","reply":{}}`, `not json`, `{"kind":"board","ids":"x","reply":{}}`} {
		if _, err := decodePost(bad); err == nil {
			t.Errorf("%s: decoded", bad)
		}
	}
}
