package app

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	a11y "github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// images checks every image among rs carries alt text within Discord's
// limit and returns the descriptions.
func images(t *testing.T, rs []view.Reply) []string {
	t.Helper()
	var out []string
	for _, r := range rs {
		for _, f := range r.Files {
			if !strings.HasPrefix(f.ContentType, "image/") {
				continue
			}
			if n := utf8.RuneCountInString(f.Description); n == 0 || n > a11y.AltLimit {
				t.Fatalf("%s: alt text of %d characters", f.Name, n)
			}
			out = append(out, f.Description)
		}
	}
	return out
}

// noEmoji checks the text mode's words hold no pictographs (a screen
// reader reads each one aloud by its name).
func noEmoji(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if unicode.Is(unicode.So, r) {
			t.Fatalf("symbol %q (U+%04X) in text-mode words: %q", r, r, s)
		}
	}
}

// Text mode: /board text:true and ask: answer privately in words, with no
// picture; the /settings text setting makes /board answer in words and
// confirms the player's moves in words; the setting is kept per player
// and is part of the player's data export.
func TestTextMode(t *testing.T) {
	h := newHarness(t, Config{})
	alice, bob := user("alice"), user("bob")
	gid := h.StartGame()

	rs := h.slash(alice, "board", "text=true")
	if len(rs) == 0 {
		t.Fatal("no answer")
	}
	for _, r := range rs {
		if !r.Ephemeral || len(r.Files) > 0 || r.Embed != nil || utf8.RuneCountInString(r.Content) > view.MaxText {
			t.Fatalf("text board reply not private words within 2,000 characters: %+v", r)
		}
	}
	words := text(rs)
	for _, want := range []string{"game #1", "White to move", "Rank "} {
		if !strings.Contains(words, want) {
			t.Errorf("text board lacks %q:\n%s", want, words)
		}
	}
	noEmoji(t, words)

	rs = h.slash(alice, "board", "ask=where white")
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "White") {
		t.Fatalf("ask where white: %+v", rs)
	}
	rs = h.slash(alice, "board", "ask=where purple")
	mustRefuse(t, rs, "purple")
	rs = h.slash(alice, "board", "ask=dance e4")
	mustRefuse(t, rs, "dance e4")

	// Without the setting the board is a picture, with its alt text.
	rs = h.slash(alice, "board")
	if alts := images(t, rs); len(alts) != 1 || !strings.Contains(alts[0], "game #1") {
		t.Fatalf("board picture's alt text: %q", alts)
	}

	if rs := h.slash(alice, "settings", "text=true"); !strings.Contains(text(rs), "Text mode on") {
		t.Fatalf("settings text: %+v", rs)
	}
	rs = h.slash(alice, "board")
	if len(rs) == 0 || len(rs[0].Files) > 0 || !strings.Contains(text(rs), "Rank ") {
		t.Fatalf("with text mode on, /board should answer in words: %+v", rs)
	}
	if rs := h.slash(alice, "board", "text=false"); len(images(t, rs)) != 1 {
		t.Fatalf("text:false should show the picture: %+v", rs)
	}

	// alice's move: the public board (with alt text) and her words.
	rs = h.slash(alice, "move", "move="+h.legalMove(gid, nil))
	mustNotRefuse(t, rs)
	if alts := images(t, rs); len(alts) != 1 || !strings.Contains(alts[0], "Last move: White") {
		t.Fatalf("the move's board alt text: %q", alts)
	}
	var private []view.Reply
	for _, r := range rs {
		if r.Ephemeral {
			private = append(private, r)
		}
	}
	if len(private) == 0 || !strings.Contains(text(private), "Last move: White") || !strings.Contains(text(private), "Black to move") {
		t.Fatalf("no move in words for the text-mode player: %+v", rs)
	}
	noEmoji(t, text(private))
	// bob has no text mode: only the board.
	rs = h.slash(bob, "move", "move="+h.legalMove(gid, nil))
	for _, r := range rs {
		if r.Ephemeral {
			t.Fatalf("bob got a private reply: %+v", r)
		}
	}

	if d := exportOf(t, h, alice); d.Profile == nil || !d.Profile.TextMode {
		t.Fatalf("export lacks the text mode: %+v", d.Profile)
	}
	if rs := h.slash(alice, "settings", "text=false"); !strings.Contains(text(rs), "Text mode off") {
		t.Fatalf("settings text off: %+v", rs)
	}
	if rs := h.slash(alice, "board"); len(images(t, rs)) != 1 {
		t.Fatalf("text mode off: /board should show the picture: %+v", rs)
	}

	// Deleting her data deletes the setting.
	if rs := h.slash(alice, "settings", "text=true"); !strings.Contains(text(rs), "Text mode on") {
		t.Fatalf("settings text: %+v", rs)
	}
	rs = h.slash(alice, "data", "request=delete")
	h.click(alice, findID(t, rs, "yes"))
	if s, err := h.b.St.Settings(h.ctx, alice.ID); err != nil || s.Text {
		t.Fatalf("after deletion: settings %+v, %v", s, err)
	}
}

// The alt text is in the reader's language on a private board and in the
// server's on a public one.
func TestAltTextLanguage(t *testing.T) {
	h := newHarness(t, Config{})
	alice := user("alice")
	h.StartGame()
	look := func(opts map[string]string) []string {
		c := Command{Kind: KindSlash, Name: "board", User: alice, GuildID: "guild", ChannelID: "chan", Locale: "pt-BR", GuildLocale: "en-US", Options: opts}
		return images(t, h.handle(c))
	}
	if alts := look(map[string]string{}); len(alts) != 1 || !strings.Contains(alts[0], "partida #1") {
		t.Fatalf("private board: alt text %q, want Portuguese", alts)
	}
	if alts := look(map[string]string{"public": "true"}); len(alts) != 1 || !strings.Contains(alts[0], "game #1") {
		t.Fatalf("public board: alt text %q, want the server's English", alts)
	}
}

// FuzzAskBoard: any question gets an answer or an error, never a panic,
// in every game's start position.
func FuzzAskBoard(f *testing.F) {
	for _, s := range []string{"where white", "where black HT", "square e4", "attackers a1", "moves c3", "onde brancas", "where", "square", "moves zz99", "where w knight extra words", "\x00", "square 😀"} {
		f.Add(s)
	}
	var starts []startPos
	for _, name := range GameNames() {
		rules, _ := LookupGame(name)
		for _, v := range []string{"", "basic16", "start"} {
			if p, err := rules.Start(v); err == nil {
				starts = append(starts, startPos{name, p})
				break
			}
		}
	}
	f.Fuzz(func(t *testing.T, q string) {
		if strings.TrimSpace(q) == "" {
			return // /board without ask
		}
		for _, sp := range starts {
			for _, loc := range []string{"en", "th", "pt-BR"} {
				out, err := askBoard(loc, sp.pos, strings.TrimSpace(q))
				if err == nil && out == "" {
					t.Fatalf("%s %q: empty answer", sp.game, q)
				}
			}
		}
	})
}

type startPos struct {
	game string
	pos  engine.Position
}
