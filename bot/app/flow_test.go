package app

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/view"
)

func TestClipRunes(t *testing.T) {
	s := strings.Repeat("ก", 50)
	if got := view.ClipRunes(s, 10); utf8.RuneCountInString(got) != 10 || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Errorf("clipRunes: %q", got)
	}
	if view.ClipRunes("short", 10) != "short" {
		t.Error("a short string was clipped")
	}
}

func TestPieceWords(t *testing.T) {
	if got, ok := view.PieceWords("en", "gungi", "M1G6P9"); !ok || got != "Marshal 1, General 6, Pawn 9" {
		t.Errorf("gungi hand: %q %v", got, ok)
	}
	if _, ok := view.PieceWords("en", "tank", "M1"); ok {
		t.Error("a game without piece names got words")
	}
	if _, ok := view.PieceWords("en", "gungi", "white"); ok {
		t.Error("a word was read as a hand")
	}
}

// A refusal quotes at most maxInput runes of what the user typed.
func TestRefusalClipsInput(t *testing.T) {
	h := newHarness(t, Config{})
	rs := h.slash(alice, "challenge", "opponent=bob", "clock="+strings.Repeat("x", 6000))
	mustRefuse(t, rs, "Unknown clock")
	if n := utf8.RuneCountInString(rs[0].Content); n > 400 {
		t.Errorf("refusal of %d runes", n)
	}
}

func TestChallengeCap(t *testing.T) {
	h := newHarness(t, Config{})
	for i := 0; i < maxPending; i++ {
		mustNotRefuse(t, h.slash(alice, "challenge", "opponent="+"p"+strconv.Itoa(i)))
	}
	mustRefuse(t, h.slash(alice, "challenge"), "already have 5 challenges")
	// Expired ones do not count.
	h.clk.Advance(25 * time.Hour)
	mustNotRefuse(t, h.slash(alice, "challenge"))
}

// Another server's games and challenges do not exist here.
func TestServerScope(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	sid := strconv.FormatInt(id, 10)
	c := Command{Kind: KindSlash, Name: "board", User: carol, GuildID: "other", ChannelID: "x", Options: map[string]string{"game": sid}}
	mustRefuse(t, h.b.Handle(h.ctx, c), "no game #"+sid)
	c.Name, c.Options = "history", map[string]string{"game": sid}
	mustRefuse(t, h.b.Handle(h.ctx, c), "game #"+sid)
	open := h.slash(alice, "challenge")
	acc := findID(t, open, "accept")
	c = Command{Kind: KindComponent, CustomID: acc, User: carol, GuildID: "other", ChannelID: "x"}
	mustRefuse(t, h.b.Handle(h.ctx, c), "no longer exists")
	c = Command{Kind: KindSlash, Name: "accept", User: carol, GuildID: "other", ChannelID: "x", Options: map[string]string{}}
	if got := h.b.Suggest(h.ctx, c, "challenge"); len(got) != 0 {
		t.Errorf("autocomplete in another server lists %v", got)
	}
}

// /games pages stay inside Discord's 2,000 characters.
func TestGamesPaged(t *testing.T) {
	h := newHarness(t, Config{})
	for i := 0; i < 40; i++ {
		a, b := user("a"+strconv.Itoa(i)+strings.Repeat("x", 20)), user("b"+strconv.Itoa(i)+strings.Repeat("y", 20))
		rs := h.slash(a, "challenge", "opponent="+b.Name)
		h.click(b, findID(t, rs, "accept"))
	}
	rs := h.slash(carol, "games")
	if len(rs) != 1 || len(rs[0].Content) > 2000 || len(rs[0].Components) != 1 {
		t.Fatalf("first page: %d replies, %d chars", len(rs), len(rs[0].Content))
	}
	next := rs[0].Components[0][1].CustomID
	rs = h.click(carol, next)
	if len(rs) != 1 || !rs[0].Update || len(rs[0].Content) > 2000 || !strings.Contains(rs[0].Content, "2") {
		t.Fatalf("second page: %+v", rs)
	}
}

// Gungi's draft moves are said in words beside their notation.
func TestGungiDraftInWords(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("game=gungi")
	rs := h.slash(bob, "move", "move=M*e9")
	mustNotRefuse(t, rs)
	if got := rs[0].Content; !strings.Contains(got, "bob played M*e9 (Marshal placed on e9)") {
		t.Errorf("drop in words: %q", got)
	}
	rs = h.slash(alice, "move", "move=M*e1")
	mustNotRefuse(t, rs)
	rs = h.slash(bob, "move", "move=ready:quick")
	mustNotRefuse(t, rs)
	if got := rs[0].Content; !strings.Contains(got, "quick formation") {
		t.Errorf("formation in words: %q", got)
	}
	if !strings.Contains(rs[0].Embed.Title, "Draft") {
		t.Errorf("title during the draft: %q", rs[0].Embed.Title)
	}
	_ = id
}

// Autocomplete for a typed square lists that piece's moves first, those
// that go somewhere before turns on the spot, labelled in words.
func TestSuggestTypedSquare(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame()
	g := h.game(id)
	pos, _ := g.Position()
	sq := pos.LegalMoves()[0].Steps()[0]
	c := Command{Kind: KindSlash, Name: "move", User: alice, GuildID: "guild", ChannelID: "chan", Options: map[string]string{"move": strings.ToLower(sq)}}
	got := h.b.Suggest(h.ctx, c, "move")
	if len(got) == 0 {
		t.Fatal("no suggestions")
	}
	spun := false
	for i, ch := range got {
		if !strings.HasPrefix(ch.Value, sq+" ") {
			t.Fatalf("choice %d %q is not a move of the piece on %s", i, ch.Value, sq)
		}
		if !strings.Contains(ch.Name, " "+sq) || !strings.Contains(ch.Name, "facing") {
			t.Errorf("label %q", ch.Name)
		}
		spin := strings.HasPrefix(ch.Value, sq+" > "+sq)
		if spun && !spin {
			t.Errorf("a move after a turn on the spot: %v", got)
		}
		spun = spun || spin
	}
}

// The draft's one-click formation asks first, in words.
func TestFormationConfirmInWords(t *testing.T) {
	h := newHarness(t, Config{})
	h.StartGame("game=gungi")
	board := h.slash(bob, "board", "public=true")
	rs := h.click(bob, findID(t, board, "moveask:ready:quick"))
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "formation") || !strings.Contains(rs[0].Content, "cannot be taken back") {
		t.Errorf("confirmation: %+v", rs)
	}
}
