package discord

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/movepick"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// e2ePuzzles solves one puzzle of each game through the fake Discord:
// every answer (the board, each right move, the result, a refusal, the
// stats) is private and nothing is posted in the channel.
func e2ePuzzles(t *testing.T, w *world) {
	e := startBot(t, w)
	st := e.db
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
		pz := shippedPuzzle(t, g, a.PuzzleID)
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

// shippedPuzzle is the shipped puzzle id of game.
func shippedPuzzle(t *testing.T, game, id string) *puzzle.Puzzle {
	t.Helper()
	p, err := puzzle.ShippedByID(game, id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// solverPositions are the positions of pz the solver moves in, with the
// solver's move in each, through the engine.
func solverPositions(t *testing.T, pz *puzzle.Puzzle) ([]engine.Position, []engine.Move) {
	t.Helper()
	pos, err := pz.Decode()
	if err != nil {
		t.Fatal(err)
	}
	var ps []engine.Position
	var ms []engine.Move
	for i, note := range pz.Solution {
		m, err := pos.ParseMove(note)
		if err != nil {
			t.Fatalf("%s move %d: %v", pz.ID, i+1, err)
		}
		if i%2 == 0 {
			ps, ms = append(ps, pos), append(ms, m)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatalf("%s move %d: %v", pz.ID, i+1, err)
		}
	}
	return ps, ms
}

// towards is the option of a picker menu that leads to the complete state
// want: the one whose state is the longest prefix of want, else the next
// page.
func towards(t *testing.T, values []string, want string) string {
	t.Helper()
	best := ""
	for _, v := range values {
		if !strings.Contains(v, "p") && (v == want || strings.HasPrefix(want, v+".")) && len(v) > len(best) {
			best = v
		}
	}
	if best != "" {
		return best
	}
	for _, v := range values[1:] {
		if strings.Contains(v, "p") {
			best = v // the last navigation option is the next page
		}
	}
	if best == "" {
		t.Fatalf("no option towards %q among %v", want, values)
	}
	return best
}

// startPuzzle starts a puzzle of game for alice and returns its board and
// the puzzle.
func (e *e2e) startPuzzle(t *testing.T, st *store.Store, game string) (*call, *puzzle.Puzzle) {
	t.Helper()
	calls := e.do(e.slash(alice, gameChannel, "puzzle", "game", game))
	cb := response(t, calls)
	if flags(cb) != 64 || len(publicNew(calls)) != 0 {
		t.Fatalf("/puzzle is not private: %v", cb.Payload)
	}
	checkPNG(t, cb)
	a, err := st.ActivePuzzle(context.Background(), alice.id)
	if err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	return cb, shippedPuzzle(t, game, a.PuzzleID)
}

// e2ePuzzlePicker solves a puzzle of each game with the guided picker on
// the private puzzle board: Pick a move opens the picker as a new private
// message, each choice and the Confirm edit that message (type 7), the
// Confirm turning it into the next board; the board of an earlier step is
// stale.
func e2ePuzzlePicker(t *testing.T, w *world) {
	e := startBot(t, w)
	st := e.db
	for _, g := range puzzle.Games {
		board, pz := e.startPuzzle(t, st, g)
		first := board
		ps, ms := solverPositions(t, pz)
		for k := range ps {
			pick := idWith(t, board, `^pz:`+pz.ID+`:`+strconv.Itoa(k)+`:pick$`)
			calls := e.do(e.click(alice, gameChannel, e.f.originalOf(board), pick))
			r := response(t, calls)
			if typ := r.Payload["type"].(float64); typ != 4 || flags(r) != 64 {
				t.Fatalf("%s: the picker should open as a new private message, got type %v flags %d: %v", g, typ, flags(r), r.Payload)
			}
			onlyCallback(t, calls, "opening the puzzle picker")
			msg := e.f.originalOf(r)
			want, err := movepick.StateOf(ps[k], ms[k])
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; selectMenu(r) != nil; i++ {
				if i == 12 {
					t.Fatalf("%s: the picker did not complete in 12 choices", pz.ID)
				}
				uniqueIDs(t, r, "the puzzle picker")
				id, _ := selectMenu(r)["custom_id"].(string)
				if id != "pz:"+pz.ID+":"+strconv.Itoa(k)+":picksel" {
					t.Fatalf("picker menu id %q", id)
				}
				calls = e.do(e.click(alice, gameChannel, msg, id, towards(t, menuValues(t, selectMenu(r)), want)))
				r = response(t, calls)
				if typ := r.Payload["type"].(float64); typ != 7 {
					t.Fatalf("a picker choice should edit the picker (type 7), got %v: %v", typ, r.Payload)
				}
				onlyCallback(t, calls, "a puzzle picker choice")
			}
			note := ps[k].FormatMove(ms[k])
			if !strings.Contains(text(r), note) {
				t.Fatalf("%s: the complete picker does not show %s: %q", pz.ID, note, text(r))
			}
			confirm := idWith(t, r, `^pz:`+pz.ID+`:`+strconv.Itoa(k)+`:pickok:.+$`)
			calls = e.do(e.click(alice, gameChannel, msg, confirm))
			r = response(t, calls)
			if typ := r.Payload["type"].(float64); typ != 7 || flags(r) != 64 && !r.Ephemeral {
				t.Fatalf("%s: Confirm should turn the picker into the next board (type 7), got %v: %v", pz.ID, typ, r.Payload)
			}
			onlyCallback(t, calls, "the puzzle picker's Confirm")
			checkPNG(t, r)
			if !strings.Contains(text(r), "Right: ") {
				t.Fatalf("%s step %d: %s", pz.ID, k, text(r))
			}
			board = r
		}
		if !strings.Contains(text(board), "Puzzle rating in") || len(customIDs(board)) != 0 {
			t.Errorf("%s solved with the picker: no rating change, or live buttons: %s %v", pz.ID, text(board), customIDs(board))
		}
		// The first board's picker is stale now: refused, nothing changes.
		calls := e.do(e.click(alice, gameChannel, e.f.originalOf(first), idWith(t, first, `^pz:`+pz.ID+`:0:pick$`)))
		refused(t, calls, "a finished puzzle's picker")
		onlyCallback(t, calls, "a finished puzzle's picker")
	}
	cb := response(t, e.do(e.slash(alice, gameChannel, "puzzle", "stats", true)))
	if n := strings.Count(text(cb), "solved 1 (1 without a hint)"); n != len(puzzle.Games) {
		t.Errorf("stats after the picker: %s", text(cb))
	}
}

// e2ePuzzleForm solves a puzzle of each game with the typed-move form of
// the private puzzle board, and fails one with a wrong move typed there.
func e2ePuzzleForm(t *testing.T, w *world) {
	e := startBot(t, w)
	st := e.db
	for _, g := range puzzle.Games {
		board, pz := e.startPuzzle(t, st, g)
		for k := 0; 2*k < len(pz.Solution); k++ {
			typ := idWith(t, board, `^pz:`+pz.ID+`:`+strconv.Itoa(k)+`:type$`)
			modal := response(t, e.do(e.click(alice, gameChannel, e.f.originalOf(board), typ)))
			if modal.Payload["type"].(float64) != 9 {
				t.Fatalf("Type a move did not open a form: %v", modal.Payload)
			}
			calls := e.do(e.modalSubmit(alice, gameChannel, data(modal)["custom_id"].(string), pz.Solution[2*k]))
			board = response(t, calls)
			if flags(board) != 64 || len(publicNew(calls)) != 0 {
				t.Fatalf("the form's answer is not private: %v", board.Payload)
			}
			checkPNG(t, board)
			if !strings.Contains(text(board), "Right: ") {
				t.Fatalf("%s step %d: %s", pz.ID, k, text(board))
			}
		}
		if !strings.Contains(text(board), "Puzzle rating in") {
			t.Errorf("%s solved with the form without a rating change: %s", pz.ID, text(board))
		}

		// A wrong move typed in the form fails the next puzzle and shows
		// the solution.
		board, pz = e.startPuzzle(t, st, g)
		ps, ms := solverPositions(t, pz)
		wrong := ""
		for _, m := range ps[0].LegalMoves() {
			if n := ps[0].FormatMove(m); n != ps[0].FormatMove(ms[0]) {
				if next, err := ps[0].Play(m); err == nil && !next.Status().Over() {
					wrong = n
					break
				}
			}
		}
		if wrong == "" {
			t.Fatalf("%s: no wrong move to try", pz.ID)
		}
		modal := response(t, e.do(e.click(alice, gameChannel, e.f.originalOf(board), idWith(t, board, `^pz:`+pz.ID+`:0:type$`))))
		cb := response(t, e.do(e.modalSubmit(alice, gameChannel, data(modal)["custom_id"].(string), wrong)))
		if !strings.Contains(text(cb), "is not the winning move") || !strings.Contains(text(cb), pz.Solution[0]) {
			t.Errorf("%s: a wrong move in the form: %s", pz.ID, text(cb))
		}
		checkPNG(t, cb)
		if _, err := st.ActivePuzzle(context.Background(), alice.id); err == nil {
			t.Errorf("%s: the failed puzzle is still in progress", pz.ID)
		}
	}
}

// e2ePuzzleFromGame: a real game of the server, played from a shipped
// two-move Camelot puzzle's position, follows its solution to the win.
// Mined, its position after the first two moves (a win in one, not
// shipped) joins the server's pool exactly once, mining again adds
// nothing, and /puzzle serves it to a player of the server, who solves
// it.
func e2ePuzzleFromGame(t *testing.T, w *world) {
	e := startBot(t, w)
	st := e.db
	ctx := context.Background()
	ps, err := puzzle.Shipped("camelot")
	if err != nil {
		t.Fatal(err)
	}
	shipped := map[string]bool{}
	for _, p := range ps {
		shipped[p.ID] = true
	}
	var src *puzzle.Puzzle
	var after string // the position after the first two moves
	for _, p := range ps {
		if p.Depth != 2 {
			continue
		}
		g := newGameIn(t, "camelot", p.Position)
		g.play(p.Solution[0])
		g.play(p.Solution[1])
		// A position with a single legal move is no puzzle (nothing to
		// find); the shipped line proves the rest.
		pos := g.pos.Encode()
		if shipped[puzzle.MakeID("camelot", pos)] || len(g.pos.LegalMoves()) < 2 {
			continue
		}
		// The miner keeps only what the collection would: not trivial.
		if pz, err := puzzle.Accept(g.pos, puzzle.DefaultSettings("camelot")); err == nil {
			if why, err := puzzle.Trivial(pz); err == nil && len(why) == 0 {
				src, after = p, pos
				break
			}
		}
	}
	if src == nil {
		t.Fatal("no two-move Camelot puzzle whose second position is not shipped and has a choice")
	}
	g := newGameIn(t, "camelot", src.Position)
	calls := e.do(e.slash(alice, gameChannel, "challenge", "opponent", userRef(bob), "game", "camelot", "map", src.Position,
		"clock", "untimed", "color", "white", "thread", false))
	ch := response(t, calls)
	if flags(ch) == 64 {
		t.Fatalf("challenge refused: %s", text(ch))
	}
	board := theBoard(t, e.do(e.click(bob, gameChannel, e.f.originalOf(ch), idWith(t, ch, `^c:\d+:accept$`))), "accept")
	gameID, _ := strconv.ParseInt(strings.Split(idWith(t, board, `^g:\d+:0:resign$`), ":")[1], 10, 64)
	for _, mv := range src.Solution {
		u := g.toMove()
		cb := response(t, e.do(e.slash(u, gameChannel, "move", "move", mv)))
		if flags(cb) == 64 {
			t.Fatalf("%s's move %s refused: %s", u.name, mv, text(cb))
		}
		g.play(mv)
	}
	rec, err := st.Game(ctx, gameID)
	if err != nil || rec.Status != store.StatusFinished {
		t.Fatalf("the game is not finished: %+v %v", rec, err)
	}

	mined, added, err := e.b.MinePuzzles(ctx)
	if err != nil || !mined || added != 1 {
		t.Fatalf("mining the game: mined %v, %d added, %v", mined, added, err)
	}
	if mined, added, err := e.b.MinePuzzles(ctx); err != nil || mined || added != 0 {
		t.Fatalf("mining again: mined %v, %d added, %v", mined, added, err)
	}
	pool, err := st.PoolPuzzles(ctx, rec.Guild, "camelot")
	if err != nil || len(pool) != 1 {
		t.Fatalf("the server's pool: %+v %v", pool, err)
	}
	got, err := puzzle.ParseLine("camelot", pool[0].Line)
	if err != nil {
		t.Fatal(err)
	}
	if got.Position != after || strings.Join(got.Solution, " ") != strings.Join(src.Solution[2:], " ") || got.Depth != 1 || pool[0].GameID != gameID {
		t.Fatalf("pooled puzzle %+v from game %d, want position %s solved by %v", got, pool[0].GameID, after, src.Solution[2:])
	}
	if other, _ := st.PoolPuzzles(ctx, "888", "camelot"); len(other) != 0 {
		t.Errorf("another server's pool has %d puzzles", len(other))
	}

	// Served to a player of the server whose puzzle rating is near the
	// puzzle's (a server's own puzzle comes first within
	// ownPuzzleWindow of the player's rating), and solved. Carol's rating
	// is set by a finished attempt at another puzzle.
	prior := &store.ActivePuzzle{Player: carol.id, Game: "camelot", PuzzleID: ps[0].ID, Started: time.Now()}
	if err := st.SetActivePuzzle(ctx, prior); err != nil {
		t.Fatal(err)
	}
	near := func(_, _ *store.Glicko, _, _ bool) (store.Glicko, store.Glicko) {
		return store.Glicko{Rating: float64(got.Rating), RD: 60, Vol: 0.06}, store.Glicko{Rating: float64(ps[0].Rating), RD: 60, Vol: 0.06}
	}
	if _, _, err := st.FinishPuzzle(ctx, prior, false, time.Now(), near); err != nil {
		t.Fatal(err)
	}
	cb := response(t, e.do(e.slash(carol, gameChannel, "puzzle", "game", "camelot")))
	if flags(cb) != 64 || !strings.Contains(text(cb), got.ID) {
		t.Fatalf("the server's puzzle %s is not served: %s", got.ID, text(cb))
	}
	checkPNG(t, cb)
	cb = response(t, e.do(e.slash(carol, gameChannel, "puzzle", "move", got.Solution[0])))
	if !strings.Contains(text(cb), "Right: ") || !strings.Contains(text(cb), "Puzzle rating in") {
		t.Errorf("solving the server's puzzle: %s", text(cb))
	}
}
