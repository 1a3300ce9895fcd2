package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
)

// privateAnswer waits for the private message interaction ev got (its
// type 4 answer, or the follow-up or edit that filled a deferral).
func privateAnswer(t *testing.T, w *bbWorld, p *serveProc, ev map[string]any) msg {
	t.Helper()
	tok := ev["token"].(string)
	if code, _, err := w.post(p, ev); err != nil || !answered(code) {
		t.Fatalf("interaction: %d %v\n%s", code, err, p.logs.String())
	}
	c := w.f.Await(0, eventWait, func(c *discordtest.Call) bool {
		if c.Status >= 300 || !c.Ephemeral {
			return false
		}
		if strings.HasSuffix(c.Path, "/"+tok+"/callback") {
			d, _ := c.Payload["data"].(map[string]any)
			s, _ := d["content"].(string)
			return s != ""
		}
		s, _ := c.Payload["content"].(string)
		return strings.Contains(c.Path, "/webhooks/"+bbApp+"/"+tok) && s != ""
	})
	if c == nil {
		t.Fatalf("no private answer:\n%s", p.logs.String())
	}
	payload := c.Payload
	if d, ok := payload["data"].(map[string]any); ok && strings.HasSuffix(c.Path, "/callback") {
		payload = d
	}
	return msg{id: c.MsgID, payload: payload, call: c}
}

// TestHideWebPageBlackBox: against the real binary and the fake Discord,
// a finished game's final board offers Hide page beside its Watch /
// Replay link; a spectator's click is refused privately, a player's hides
// the page (its link then answers 404 from the running viewer) and the
// other player shows it again from the confirmation.
func TestHideWebPageBlackBox(t *testing.T) {
	w := newBBWorld(t, filepath.Join(t.TempDir(), "hide.db"))
	p := w.start("TANKBOT_WEB_BASE_URL=http://viewer.example")
	alice, bob, carol := bbUser{"712000000000000001", "alice"}, bbUser{"712000000000000002", "bob"}, bbUser{"712000000000000003", "carol"}
	const channel = "722000000000000001"

	chFrom, chEv := w.f.Count(), w.slash(alice, channel, "challenge", "opponent", bob, "game", "tank", "color", "white", "thread", false, "clock", "30m")
	code, resp, err := w.post(p, chEv)
	if err != nil || !answered(code) {
		t.Fatalf("challenge: %d %v\n%s", code, err, p.logs.String())
	}
	w.accept(t, p, channel, w.answerOf(t, chFrom, chEv, resp), bob)

	confirm := privateAnswer(t, w, p, w.slash(bob, channel, "resign"))
	from := w.f.Count()
	ev := w.click(bob, channel, w.f.NewID(), confirm.idWith(t, `^g:\d+:\d+:resignyes$`))
	if code, _, err := w.post(p, ev); err != nil || !answered(code) {
		t.Fatalf("resign: %d %v", code, err)
	}
	final, ok := w.board(from, ev["token"].(string), channel, eventWait)
	if !ok {
		t.Fatalf("no final board:\n%s", p.logs.String())
	}
	hide := final.idWith(t, `^g:\d+:\d+:webhide$`)
	link := linkButton(final.payload)
	tok, ok := strings.CutPrefix(link, "http://viewer.example/g/")
	if !ok || len(tok) != 22 {
		t.Fatalf("the final board's link is %q", link)
	}
	if rows, _ := final.payload["components"].([]any); len(rows) != 1 {
		t.Errorf("the final board has %d rows of buttons, want 1 (Rematch, record, Review, Hide page, link)", len(rows))
	}
	page := p.base + "/g/" + tok
	status := func() int {
		t.Helper()
		res, err := http.Get(page)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := status(); s != 200 {
		t.Fatalf("the finished game's page: %d, want 200", s)
	}

	if m := privateAnswer(t, w, p, w.click(carol, channel, final.id, hide)); !strings.Contains(m.content(), "Only the players") {
		t.Fatalf("a spectator's Hide page answered %q", m.content())
	}
	if s := status(); s != 200 {
		t.Fatalf("a spectator hid the page: %d", s)
	}
	hidden := privateAnswer(t, w, p, w.click(alice, channel, final.id, hide))
	if !strings.Contains(hidden.content(), "is hidden") {
		t.Fatalf("Hide page answered %q", hidden.content())
	}
	for _, sub := range []string{"", "/final.png", "/replay.gif", "/record.txt", "/ply/0.png"} {
		res, err := http.Get(page + sub)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 404 {
			t.Errorf("hidden page %s: %d, want 404", sub, res.StatusCode)
		}
	}
	shown := privateAnswer(t, w, p, w.click(bob, channel, hidden.id, hidden.idWith(t, `^g:\d+:\d+:webshow$`)))
	if !strings.Contains(shown.content(), "visible again") {
		t.Fatalf("Show page answered %q", shown.content())
	}
	if s := status(); s != 200 {
		t.Fatalf("the page shown again: %d, want 200", s)
	}
}
