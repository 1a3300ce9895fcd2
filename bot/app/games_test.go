package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine/games"
)

// The board message states the facts of the game beside the picture:
// Camelot's castle moves left, Gungi's draft and hands.
func TestBoardFacts(t *testing.T) {
	h := newHarness(t, Config{})
	alice, bob := user("alice"), user("bob")
	rs := h.slash(alice, "challenge", "opponent=bob", "color=white", "game=camelot")
	rs = h.click(bob, findID(t, rs, "accept"))
	if !strings.Contains(text(rs), "Castle moves left: White 2, Black 2.") {
		t.Errorf("camelot board without castle moves: %s", text(rs))
	}

	h.loc = "pt-BR"
	rs = h.slash(alice, "challenge", "opponent=carol", "color=white", "game=gungi")
	rs = h.click(user("carol"), findID(t, rs, "accept"))
	body := text(rs)
	for _, want := range []string{"Montagem: Pretas coloca uma peça.", "Brancas: 38 na mão", "0/26 no tabuleiro"} {
		if !strings.Contains(body, want) {
			t.Errorf("gungi board lacks %q: %s", want, body)
		}
	}
}

// During the Gungi draft the board offers to finish one's own draft from a
// formation in one click; only the player to place may use it.
func TestGungiFinishDraftButton(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("game=gungi")
	g := h.game(id)
	pos, _ := g.Position()
	if pos.Turn() != 1 {
		t.Fatalf("the draft starts with %v, want Black", pos.Turn())
	}
	board := h.slash(bob, "board", "public=true")
	ask := findID(t, board, "moveask:ready:quick")
	mustRefuse(t, h.click(alice, ask), "not your turn")
	// One click cannot be undone: it asks first.
	conf := h.click(bob, ask)
	btn := findID(t, conf, "moveok:ready:quick")
	mustRefuse(t, h.click(alice, btn), "not your turn")
	rs := h.click(bob, btn)
	mustNotRefuse(t, rs)
	g = h.game(id)
	if g.Last != "ready:quick" || g.Ply != 1 {
		t.Fatalf("after the button: ply %d, last %q", g.Ply, g.Last)
	}
	pos, _ = g.Position()
	// The quick formation places 25 of Black's 38 pieces.
	if !strings.Contains(text(rs), "Black: 13 in hand") {
		t.Errorf("hands after the formation: %s", text(rs))
	}
	if pos.Turn() != 0 {
		t.Errorf("after Black's formation %v is to place, want White", pos.Turn())
	}
	// The old button is stale now.
	mustRefuse(t, h.click(bob, btn), "earlier position")
	checkReplay(t, h, id)
}

// A flag-fall whose announcement cannot be posted (Discord down) is decided
// at once and announced again once posting works, exactly once.
func TestFlagFallAnnouncedAfterPostFailure(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.StartGame("clock=10m+5s")
	h.clk.Advance(9*time.Minute + time.Second) // the low-time reminder
	if err := h.b.Tick(h.ctx); err != nil || len(h.n.all()) != 1 {
		t.Fatalf("reminder: %v, %d posts", err, len(h.n.all()))
	}
	h.n.fail = 1
	h.clk.Advance(time.Minute)
	if err := h.b.Tick(h.ctx); err == nil {
		t.Fatal("a failed post should be reported by Tick")
	}
	if g := h.game(id); g.Status != gmFinished || g.Reason != "timeout" {
		t.Fatalf("the flag fell but the game is %s %s", g.Status, g.Reason)
	}
	if n := len(h.n.all()); n != 1 {
		t.Fatalf("%d posts after the failed one, want 1", n)
	}
	// Retried with backoff: not before its time, then once.
	if err := h.b.Tick(h.ctx); err != nil || len(h.n.all()) != 1 {
		t.Fatalf("retried before the backoff: %v, %d posts", err, len(h.n.all()))
	}
	h.clk.Advance(backoff(1))
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps := h.n.all()
	if len(ps) != 2 || !strings.Contains(text([]view.Reply{ps[1].Reply}), "ran out of time") {
		t.Fatalf("re-announcement missing: %d posts", len(ps))
	}
	// Nothing more fires later.
	h.clk.Advance(time.Hour)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(h.n.all()); n != 2 {
		t.Fatalf("%d posts, want 2", n)
	}
}

// In Camelot a side with fewer than two pieces cannot win (§4), so when
// its opponent's flag falls the game is drawn, not won.
func TestCamelotFlagAgainstLoneSideIsDraw(t *testing.T) {
	h := newHarness(t, Config{})
	empty12 := "............"
	ranks := []string{"..", "........", ".........."}
	for i := 0; i < 10; i++ {
		ranks = append(ranks, empty12)
	}
	ranks = append(ranks, "..........", "........", "..")
	ranks[3] = "...........m"  // rank 13: Black's only piece
	ranks[12] = "M.M........." // rank 4: White's two Men
	cfen := strings.Join(ranks, "/") + " w 00 1"
	id := h.StartGame("game=camelot", "map="+cfen, "clock=10m+5s")
	h.clk.Advance(10*time.Minute + time.Second)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	g := h.game(id)
	if g.Result != "1/2-1/2" || g.Reason != "timeout-draw" {
		t.Fatalf("after White's flag: result %q reason %q", g.Result, g.Reason)
	}
	ps := h.n.all()
	if len(ps) == 0 || !strings.Contains(text([]view.Reply{ps[len(ps)-1].Reply}), "could not have won") {
		t.Fatalf("no draw announcement in %d posts", len(ps))
	}
}

// What the games' descriptors name in the catalog is there, and the help
// shows a legal example for every game.
func TestDescriptorWords(t *testing.T) {
	for _, d := range games.Descriptors() {
		for v, key := range d.Words {
			if !i18n.Has(key) {
				t.Errorf("%s: word %q: no catalog key %s", d.Rules.Name(), v, key)
			}
		}
		if !i18n.Has("gamename." + d.Rules.Name()) {
			t.Errorf("%s: no gamename key", d.Rules.Name())
		}
	}
	h := newHarness(t, Config{})
	help := text(h.slash(alice, "help"))
	for _, d := range games.Descriptors() {
		if !strings.Contains(help, "`"+d.Example("")+"`") {
			t.Errorf("/help lacks %s's example %q", d.Rules.Name(), d.Example(""))
		}
	}
	if strings.Contains(help, "e3 > e5n") {
		t.Error("/help still shows the illegal e3 > e5n")
	}
}
