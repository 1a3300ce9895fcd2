package app

import (
	"bytes"
	"context"
	"image/png"
	"slices"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// activePz is the caller's puzzle as stored, and its puzzle.
func activePz(t *testing.T, h *harness, who User) *puzzle.Puzzle {
	t.Helper()
	a, err := h.b.St.(*storeRepo).st.ActivePuzzle(context.Background(), who.ID)
	if err != nil {
		t.Fatalf("active puzzle: %v", err)
	}
	pz, err := puzzleByID(a.Game, a.PuzzleID)
	if err != nil {
		t.Fatal(err)
	}
	return pz
}

// privateBoard checks rs is one ephemeral reply with a decodable PNG.
func privateBoard(t *testing.T, rs []view.Reply) {
	t.Helper()
	if len(rs) != 1 || !rs[0].Ephemeral || rs[0].Embed == nil || rs[0].ChannelID != "" {
		t.Fatalf("want one private board, got %+v", rs)
	}
	if len(rs[0].Files) != 1 {
		t.Fatalf("no image: %+v", rs[0])
	}
	if _, err := png.Decode(bytes.NewReader(rs[0].Files[0].Data)); err != nil {
		t.Fatalf("board image: %v", err)
	}
}

func TestPuzzleSolveEachGame(t *testing.T) {
	h := newHarness(t, Config{})
	ann := user("ann")
	for _, g := range puzzle.Games {
		rs := h.slash(ann, "puzzle", "game="+g)
		privateBoard(t, rs)
		pz := activePz(t, h, ann)
		if pz.Game != g {
			t.Fatalf("asked %s, got a %s puzzle", g, pz.Game)
		}
		if want := "to play and win in"; !strings.Contains(text(rs), want) || !strings.Contains(text(rs), pz.ID) {
			t.Fatalf("task missing: %s", text(rs))
		}
		for i := 0; i < len(pz.Solution); i += 2 {
			rs = h.slash(ann, "puzzle", "move="+pz.Solution[i])
			privateBoard(t, rs)
			if !strings.Contains(text(rs), "Right: ") {
				t.Fatalf("move %d of %s refused: %s", i, pz.ID, text(rs))
			}
			if i+1 < len(pz.Solution) && !strings.Contains(text(rs), "replied "+pz.Solution[i+1]) {
				t.Fatalf("no defender reply %s: %s", pz.Solution[i+1], text(rs))
			}
		}
		if !strings.Contains(text(rs), "Puzzle rating in") || !strings.Contains(text(rs), "1500? →") {
			t.Fatalf("no rating change: %s", text(rs))
		}
		pr, err := h.b.St.(*storeRepo).st.PuzzleRating(context.Background(), ann.ID, g)
		if err != nil || pr.Solved != 1 || pr.Clean != 1 || pr.Streak != 1 || pr.Rating <= 1500 {
			t.Fatalf("%s rating after a clean solve: %+v %v", g, pr, err)
		}
		mustRefuse(t, h.slash(ann, "puzzle", "move="+pz.Solution[0]), "no puzzle in progress")
	}
	rs := h.slash(ann, "puzzle", "stats=true")
	if len(rs) != 1 || !rs[0].Ephemeral {
		t.Fatalf("stats not private: %+v", rs)
	}
	for _, g := range puzzle.Games {
		if !strings.Contains(text(rs), i18n.T("en", "gamename."+g)+": rating ") || strings.Contains(text(rs), "custom start") {
			t.Fatalf("no %s line in stats: %s", g, text(rs))
		}
	}
	if n := strings.Count(text(rs), "solved 1 (1 without a hint)"); n != len(puzzle.Games) {
		t.Fatalf("solved counts: %s", text(rs))
	}
}

// wrongMove is a legal first move of pz that does not win at once and is
// not the solution.
func wrongMove(t *testing.T, pz *puzzle.Puzzle) string {
	t.Helper()
	pos, err := pz.Decode()
	if err != nil {
		t.Fatal(err)
	}
	sol, _ := pos.ParseMove(pz.Solution[0])
	for _, m := range pos.LegalMoves() {
		n := pos.FormatMove(m)
		if n == pos.FormatMove(sol) {
			continue
		}
		next, err := pos.Play(m)
		if err != nil {
			continue
		}
		if _, won := next.Status().Winner(); won {
			continue
		}
		return n
	}
	t.Fatalf("puzzle %s has no wrong move", pz.ID)
	return ""
}

func TestPuzzleFail(t *testing.T) {
	h := newHarness(t, Config{})
	bob := user("bob")
	privateBoard(t, h.slash(bob, "puzzle", "game=tank"))
	pz := activePz(t, h, bob)
	w := wrongMove(t, pz)
	rs := h.slash(bob, "puzzle", "move="+w)
	privateBoard(t, rs)
	if !strings.Contains(text(rs), "is not the winning move") || !strings.Contains(text(rs), pz.Solution[0]) {
		t.Fatalf("wrong move answer: %s", text(rs))
	}
	pr, err := h.b.St.(*storeRepo).st.PuzzleRating(context.Background(), bob.ID, "tank")
	if err != nil || pr.Failed != 1 || pr.Solved != 0 || pr.Rating >= 1500 {
		t.Fatalf("rating after a failure: %+v %v", pr, err)
	}
	mustRefuse(t, h.slash(bob, "puzzle", "hint=true"), "no puzzle in progress")
	rs = h.slash(bob, "puzzle", "stats=true")
	if !strings.Contains(text(rs), "failed 1") || !strings.Contains(text(rs), "streak 0") {
		t.Fatalf("stats after a failure: %s", text(rs))
	}
}

func TestPuzzleHint(t *testing.T) {
	h := newHarness(t, Config{})
	cy := user("cy")
	privateBoard(t, h.slash(cy, "puzzle", "game=tank"))
	pz := activePz(t, h, cy)
	rs := h.slash(cy, "puzzle", "hint=true")
	pos, _ := pz.Decode()
	m, err := pos.ParseMove(pz.Solution[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, "Hint: move the") || !strings.Contains(rs[0].Content, m.Steps()[0]) {
		t.Fatalf("hint: %+v", rs)
	}
	// A second hint is refused and changes nothing.
	mustRefuse(t, h.slash(cy, "puzzle", "hint=true"), "already took the hint")
	for i := 0; i < len(pz.Solution); i += 2 {
		rs = h.slash(cy, "puzzle", "move="+pz.Solution[i])
	}
	if !strings.Contains(text(rs), "Solved with a hint: no rating gain") {
		t.Fatalf("hinted solve: %s", text(rs))
	}
	pr, err := h.b.St.(*storeRepo).st.PuzzleRating(context.Background(), cy.ID, "tank")
	if err != nil || pr.Solved != 1 || pr.Clean != 0 || pr.Streak != 0 || pr.Rating != 1500 {
		t.Fatalf("rating after a hinted solve: %+v %v", pr, err)
	}
}

func TestPuzzleBadInput(t *testing.T) {
	h := newHarness(t, Config{})
	di := user("di")
	mustRefuse(t, h.slash(di, "puzzle", "move=a1"), "no puzzle in progress")
	mustRefuse(t, h.slash(di, "puzzle", "hint=true"), "no puzzle in progress")
	mustRefuse(t, h.slash(di, "puzzle", "game=chess"), "No puzzles for the game chess")
	privateBoard(t, h.slash(di, "puzzle", "game=camelot"))
	pz := activePz(t, h, di)
	mustRefuse(t, h.slash(di, "puzzle", "move=zz99"), "Illegal move")
	// Nothing changed: the same puzzle, still at its start, shown again.
	rs := h.slash(di, "puzzle")
	privateBoard(t, rs)
	if !strings.Contains(text(rs), "in progress") || activePz(t, h, di).ID != pz.ID {
		t.Fatalf("puzzle changed after bad input: %s", text(rs))
	}
	if _, err := h.b.St.(*storeRepo).st.PuzzleRating(context.Background(), di.ID, "camelot"); err == nil {
		t.Fatal("bad input rated the player")
	}
	// Autocomplete offers the position's legal moves.
	pos, _ := pz.Decode()
	got := SuggestPuzzleMove(h.b, context.Background(), &Req{Command: Command{User: di}, Loc: "en"}, "")
	if len(got) == 0 || len(got) > MaxSuggestions || len(got) > len(pos.LegalMoves()) {
		t.Fatalf("suggestions: %d of %d legal moves", len(got), len(pos.LegalMoves()))
	}
	for _, c := range got {
		if _, err := pos.ParseMove(c.Value); err != nil {
			t.Fatalf("suggested %q is not legal: %v", c.Value, err)
		}
	}
}

// A wrong move the defender punishes at once shows that reply.
func TestPuzzleRefutation(t *testing.T) {
	h := newHarness(t, Config{})
	eve := user("eve")
	var pz *puzzle.Puzzle
	var wrong, reply string
	for _, g := range puzzle.Games {
		ps, err := puzzle.Shipped(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps[:min(len(ps), 40)] {
			pos, _ := p.Decode()
			sol, _ := pos.ParseMove(p.Solution[0])
			for _, m := range pos.LegalMoves() {
				if pos.FormatMove(m) == pos.FormatMove(sol) {
					continue
				}
				next, err := pos.Play(m)
				if err != nil {
					continue
				}
				if _, won := next.Status().Winner(); won {
					continue
				}
				if _, rm := Refutation(next); rm != nil {
					pz, wrong, reply = p, pos.FormatMove(m), next.FormatMove(rm)
					break
				}
			}
			if pz != nil {
				break
			}
		}
		if pz != nil {
			break
		}
	}
	if pz == nil {
		t.Fatal("no shipped puzzle has a wrong move refuted at once")
	}
	t.Logf("found %s %s %s", pz.ID, wrong, reply)
	if err := h.b.St.(*storeRepo).st.SetActivePuzzle(context.Background(), &store.ActivePuzzle{Player: eve.ID, Game: pz.Game, PuzzleID: pz.ID, Started: t0}); err != nil {
		t.Fatal(err)
	}
	rs := h.slash(eve, "puzzle", "move="+wrong)
	privateBoard(t, rs)
	if !strings.Contains(text(rs), "is not the winning move") || !strings.Contains(text(rs), "answers "+reply+" and wins at once") {
		t.Fatalf("refutation of %s in %s: %s", wrong, pz.ID, text(rs))
	}
}

// theme: keeps the puzzles with that theme; a theme no puzzle of the game
// has is refused with the themes it has, and changes nothing; autocomplete
// offers the game's themes.
func TestPuzzleTheme(t *testing.T) {
	h := newHarness(t, Config{})
	eve := user("eve")
	mustRefuse(t, h.slash(eve, "puzzle", "game=gungi", "theme=no-such-theme"), "with the theme no-such-theme")
	if _, err := h.b.St.ActivePuzzle(context.Background(), eve.ID); err == nil {
		t.Fatal("a refused theme started a puzzle")
	}
	ps, err := puzzle.Shipped("gungi")
	if err != nil {
		t.Fatal(err)
	}
	theme := puzzle.Themes(ps)[len(puzzle.Themes(ps))-1].Theme // the rarest
	privateBoard(t, h.slash(eve, "puzzle", "game=gungi", "theme="+theme))
	if pz := activePz(t, h, eve); !slices.Contains(pz.Themes, theme) {
		t.Fatalf("asked for %s, got %s with %v", theme, pz.ID, pz.Themes)
	}
	got := SuggestPuzzleTheme(h.b, context.Background(), &Req{Command: Command{User: eve, Options: map[string]string{"game": "gungi"}}, Loc: "en"}, "")
	if len(got) == 0 || len(got) > MaxSuggestions || got[0].Value != puzzle.Themes(ps)[0].Theme {
		t.Fatalf("theme suggestions: %+v", got)
	}
}
