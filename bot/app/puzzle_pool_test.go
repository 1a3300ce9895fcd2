package app

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/puzzle"
)

// A shipped two-move Camelot puzzle whose position after the first two
// moves is not shipped and leaves a choice: that position is a one-move
// puzzle, not trivial, the miner must find.
func minableCamelot(t *testing.T) (*puzzle.Puzzle, string) {
	t.Helper()
	ps, err := puzzle.Shipped("camelot")
	if err != nil {
		t.Fatal(err)
	}
	shipped := map[string]bool{}
	for _, p := range ps {
		shipped[p.ID] = true
	}
	for _, p := range ps {
		if p.Depth != 2 {
			continue
		}
		pos, err := p.Decode()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range p.Solution[:2] {
			if pos, _, err = PlayNote(pos, n); err != nil {
				t.Fatal(err)
			}
		}
		if shipped[puzzle.MakeID("camelot", pos.Encode())] || len(pos.LegalMoves()) < 2 {
			continue
		}
		// The miner keeps only what the collection would: not trivial.
		if pz, err := puzzle.Accept(pos, puzzle.DefaultSettings("camelot")); err == nil {
			if why, err := puzzle.Trivial(pz); err == nil && len(why) == 0 {
				return p, pos.Encode()
			}
		}
	}
	t.Fatal("no minable Camelot puzzle")
	return nil, ""
}

// The scheduler's background miner: a finished game is mined once, its
// puzzle joins the server's pool, and with nothing left the miner rests a
// minute before it looks again.
func TestMinePuzzlesInBackground(t *testing.T) {
	h := newHarness(t, Config{})
	src, after := minableCamelot(t)
	h.StartGame("game=camelot", "map="+src.Position, "clock=untimed")
	players := [2]User{user("alice"), user("bob")} // alice is White
	pos, err := src.Decode()
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range src.Solution {
		mustNotRefuse(t, h.slash(players[pos.Turn()], "move", "move="+mv))
		if pos, _, err = PlayNote(pos, mv); err != nil {
			t.Fatal(err)
		}
	}
	h.b.minePuzzlesLater(h.ctx)
	h.b.WaitMining()
	pool, err := h.b.St.(*storeRepo).st.PoolPuzzles(h.ctx, "guild", "camelot")
	if err != nil || len(pool) != 1 {
		t.Fatalf("pool after mining: %+v %v", pool, err)
	}
	if p, err := puzzle.ParseLine("camelot", pool[0].Line); err != nil || p.Position != after {
		t.Fatalf("pooled %+v %v, want the position %s", p, err, after)
	}
	// Nothing left: the miner looks once, then rests a minute.
	h.b.minePuzzlesLater(h.ctx)
	h.b.WaitMining()
	if next := h.b.mine.next.Load(); next != h.clk.Now().Add(mineIdle).UnixNano() {
		t.Errorf("idle miner's next look at %d, want a minute on", next)
	}
	if gs, _ := h.b.St.(*storeRepo).st.UnminedGames(h.ctx, 10); len(gs) != 0 {
		t.Errorf("%d games left unmined", len(gs))
	}
}

// choosePuzzle: the server's untried puzzles near the rating come first;
// one far from it does not; when all are tried any comes again.
func TestChoosePuzzleOwnFirst(t *testing.T) {
	mk := func(id string, rating int) *puzzle.Puzzle { return &puzzle.Puzzle{ID: id, Rating: rating} }
	var shipped []*puzzle.Puzzle
	for i := range 30 {
		shipped = append(shipped, mk("s"+string(rune('a'+i)), 1500))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	own := []*puzzle.Puzzle{mk("near", 1200), mk("far", 2100)}
	for range 20 {
		if pz := ChoosePuzzle(shipped, own, 1500, map[string]bool{}, nil, rng); pz.ID != "near" {
			t.Fatalf("got %s, want the server's puzzle near the rating", pz.ID)
		}
	}
	for range 20 {
		if pz := ChoosePuzzle(shipped, own, 1500, map[string]bool{"near": true}, nil, rng); pz.ID == "near" || pz.ID == "far" {
			t.Fatalf("got %s: tried, or far from the rating", pz.ID)
		}
	}
	all := map[string]bool{"near": true, "far": true}
	for _, p := range shipped {
		all[p.ID] = true
	}
	if pz := ChoosePuzzle(shipped, own, 1500, all, nil, rng); pz == nil {
		t.Fatal("all tried: nothing chosen")
	}
}

// The puzzle board's components refuse what they cannot do, clearly and
// privately: no puzzle, a board of another step, an unknown action, a
// Confirm without a move, a forged picker state.
func TestPuzzleButtonsRefusals(t *testing.T) {
	h := newHarness(t, Config{})
	alice := user("alice")
	mustRefuse(t, h.click(alice, "pz:c123:0:pick"), "no puzzle in progress")
	rs := h.slash(alice, "puzzle", "game=camelot")
	pick := findID(t, rs, "pick")
	id := strings.Split(pick, ":")[1]
	mustRefuse(t, h.click(alice, "pz:"+id+":1:pick"), "earlier board")
	mustRefuse(t, h.click(alice, "pz:c000000:0:pick"), "earlier board")
	mustRefuse(t, h.click(alice, "pz:"+id+":0:fly"), "")
	mustRefuse(t, h.click(alice, "pz:"+id+":x:pick"), "")
	mustRefuse(t, h.click(alice, "pz:"+id+":0:pickok"), "Choose the rest of the move first")
	mustRefuse(t, h.click(alice, "pz:"+id+":0:picksel", "99.99.99"), "earlier board")
	// The picker itself opens, and only edits after its first menu.
	rs = h.click(alice, pick)
	if len(rs) != 1 || !rs[0].Ephemeral || rs[0].Update || len(rs[0].Components) == 0 {
		t.Fatalf("picker: %+v", rs)
	}
	// Nothing of it changed the puzzle.
	a, err := h.b.St.(*storeRepo).st.ActivePuzzle(h.ctx, alice.ID)
	if err != nil || a.Step != 0 || a.Hinted || a.PuzzleID != id {
		t.Fatalf("active puzzle after refusals: %+v %v", a, err)
	}
}
