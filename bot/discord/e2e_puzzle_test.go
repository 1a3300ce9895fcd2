package discord

import (
	"context"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// e2ePuzzles solves one puzzle of each game through the fake Discord:
// every answer (the board, each right move, the result, a refusal, the
// stats) is private and nothing is posted in the channel.
func e2ePuzzles(t *testing.T, w *world) {
	e := startBot(t, w)
	st := e.st.(interface{ Store() *store.Store }).Store()
	private := func(what string, calls []*call) *call {
		t.Helper()
		cb := response(t, calls)
		if flags(cb) != 64 {
			t.Fatalf("%s is not private: %v", what, cb.Payload)
		}
		if news := publicNew(calls); len(news) != 0 {
			t.Fatalf("%s made %d public messages", what, len(news))
		}
		return cb
	}
	refusal := private("/puzzle hint without a puzzle", e.do(e.slash(alice, gameChannel, "puzzle", "hint", true)))
	if !strings.Contains(text(refusal), "no puzzle in progress") {
		t.Errorf("hint without a puzzle: %s", text(refusal))
	}
	for _, g := range puzzle.Games {
		cb := private("/puzzle game:"+g, e.do(e.slash(alice, gameChannel, "puzzle", "game", g)))
		checkPNG(t, cb)
		a, err := st.ActivePuzzle(context.Background(), alice.id)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if !strings.Contains(text(cb), "to play and win in") || !strings.Contains(text(cb), a.PuzzleID) {
			t.Errorf("puzzle board: %s", text(cb))
		}
		ac := one(t, e.do(e.autocomplete(alice, gameChannel, "puzzle", "move", "move", "")), "POST", "/callback")
		if ch, _ := data(ac)["choices"].([]any); len(ch) == 0 {
			t.Errorf("%s: no move suggested: %v", g, ac.Payload)
		}
		ps, _ := puzzle.Shipped(g)
		var pz *puzzle.Puzzle
		for _, p := range ps {
			if p.ID == a.PuzzleID {
				pz = p
			}
		}
		if pz == nil {
			t.Fatalf("active puzzle %s is not shipped", a.PuzzleID)
		}
		for i := 0; i < len(pz.Solution); i += 2 {
			cb = private("/puzzle move:"+pz.Solution[i], e.do(e.slash(alice, gameChannel, "puzzle", "move", pz.Solution[i])))
			checkPNG(t, cb)
			if !strings.Contains(text(cb), "Right: ") {
				t.Fatalf("%s move %s: %s", pz.ID, pz.Solution[i], text(cb))
			}
		}
		if !strings.Contains(text(cb), "Puzzle rating in") {
			t.Errorf("%s solved without a rating change: %s", pz.ID, text(cb))
		}
	}
	cb := private("/puzzle stats", e.do(e.slash(alice, gameChannel, "puzzle", "stats", true)))
	if n := strings.Count(text(cb), "solved 1 (1 without a hint)"); n != len(puzzle.Games) {
		t.Errorf("stats: %s", text(cb))
	}
}
