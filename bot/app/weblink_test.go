package app

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/view"
)

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
