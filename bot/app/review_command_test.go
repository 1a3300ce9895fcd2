package app

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"runtime"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/engine/review"
)

// reviewFiles checks a review reply: one private message naming game #N,
// with the evaluation graph (a PNG that decodes) and the annotated record
// (which the record reader reads back with plies moves and comments).
func reviewFiles(t *testing.T, rs []view.Reply, plies int) *recfile.Record {
	t.Helper()
	if len(rs) != 1 || !rs[0].Ephemeral || len(rs[0].Files) < 2 || len(rs[0].Files) > 10 {
		t.Fatalf("review reply: %+v", rs)
	}
	r := rs[0]
	// Turning-point boards, two a point, decode.
	for _, f := range r.Files[2:] {
		if !strings.Contains(f.Name, "-turn") {
			t.Fatalf("extra file %q", f.Name)
		}
		if _, err := png.Decode(bytes.NewReader(f.Data)); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
	if !strings.Contains(r.Content, "#1") || !strings.Contains(r.Content, "accuracy") {
		t.Fatalf("review text: %q", r.Content)
	}
	if !strings.HasSuffix(r.Files[0].Name, ".png") {
		t.Fatalf("graph file %q", r.Files[0].Name)
	}
	img, err := png.Decode(bytes.NewReader(r.Files[0].Data))
	if err != nil {
		t.Fatalf("graph: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
		t.Fatalf("graph %v", b)
	}
	rec, err := recfile.Parse(string(r.Files[1].Data))
	if err != nil {
		t.Fatalf("annotated record: %v\n%s", err, r.Files[1].Data)
	}
	if len(rec.Moves) != plies || rec.Number != 1 || len(rec.Comments) == 0 {
		t.Fatalf("annotated record: %d moves, number %d, comments %v", len(rec.Moves), rec.Number, rec.Comments)
	}
	return rec
}

// resignedForReview plays plies moves of a new game in h and has bob
// resign; it returns the game and its final board. The review gets a
// small node budget: these tests check the plumbing, not the AI.
func resignedForReview(t *testing.T, h *harness, plies int) (int64, view.Reply) {
	t.Helper()
	h.b.rv.nodes = 200
	id := h.StartGame()
	h.playMoves(id, plies)
	return id, finalBoard(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))
}

func TestReviewFinishedGame(t *testing.T) {
	h := newHarness(t, Config{})
	h.b.rv.nodes = 200 // a small budget: the test checks the plumbing, not the AI
	id := h.StartGame()
	mustRefuse(t, h.slash(alice, "review"), "#1") // still on
	h.playMoves(id, 4)
	fin := finalBoard(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))

	rs := h.slash(alice, "review")
	first := reviewFiles(t, rs, 4)
	if n := h.b.rv.runs.Load(); n != 1 {
		t.Fatalf("%d reviews run, want 1", n)
	}
	row, err := h.b.St.(*storeRepo).st.GameReview(h.ctx, id)
	if err != nil || row.Annotated == "" || row.Summary == "" {
		t.Fatalf("stored review: %+v %v", row, err)
	}
	rv, _, err := h.b.StoredReview(h.ctx, &Game{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(rs[0].Files) - 2; got != 2*len(rv.Turning) {
		t.Fatalf("%d turning-point boards for %d turning points", got, len(rv.Turning))
	}
	t.Logf("%d turning points, %d files", len(rv.Turning), len(rs[0].Files))

	// The final board's Review button, for anyone, and /review game:#1:
	// served from the store, the same record, no second analysis.
	second := reviewFiles(t, h.click(user("carol"), findID(t, []view.Reply{fin}, "review")), 4)
	third := reviewFiles(t, h.slash(bob, "review", "game=#1"), 4)
	if n := h.b.rv.runs.Load(); n != 1 {
		t.Fatalf("%d reviews run after three requests, want 1", n)
	}
	for _, rec := range []*recfile.Record{second, third} {
		if strings.Join(rec.Comments, "|") != strings.Join(first.Comments, "|") {
			t.Fatal("a stored review differs from the first")
		}
	}
}

func TestReviewRefusals(t *testing.T) {
	h := newHarness(t, Config{})
	h.b.rv.nodes = 200
	id := h.StartGame()
	h.playMoves(id, 2)
	mustRefuse(t, h.slash(alice, "review"), "#1")
	mustRefuse(t, h.slash(bob, "review", "game=#1"), "#1")
	mustRefuse(t, h.slash(alice, "review", "game=#9"), "#9")
	mustRefuse(t, h.slash(user("carol"), "review"), "/challenge")
	if n := h.b.rv.runs.Load(); n != 0 {
		t.Fatalf("%d reviews run on refused requests", n)
	}
}

func TestReviewLocales(t *testing.T) {
	for _, loc := range []string{"th", "pt-BR"} {
		t.Run(loc, func(t *testing.T) {
			h := newHarness(t, Config{})
			h.loc = loc
			resignedForReview(t, h, 2)
			rs := h.slash(alice, "review")
			if len(rs) != 1 || len(rs[0].Files) < 2 || strings.Contains(rs[0].Content, "accuracy") {
				t.Fatalf("%s review: %+v", loc, rs)
			}
			if _, err := png.Decode(bytes.NewReader(rs[0].Files[0].Data)); err != nil {
				t.Fatalf("%s graph: %v", loc, err)
			}
		})
	}
}

// A turning point is drawn twice (after the move played and after the
// better move), each board a PNG that decodes.
func TestReviewTurningBoards(t *testing.T) {
	h := newHarness(t, Config{})
	id, _ := resignedForReview(t, h, 2)
	g := h.game(id)
	rec, err := h.b.GameRecord(h.ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	ps, ms, err := rec.Positions()
	if err != nil {
		t.Fatal(err)
	}
	// A made-up review: the first move is a turning point, the engine
	// preferring another legal move.
	rv := &review.Review{Moves: make([]review.Move, len(ms)), Turning: []int{0}}
	for _, m := range ps[0].LegalMoves() {
		if n := ps[0].FormatMove(m); n != rec.Moves[0] {
			rv.Moves[0] = review.Move{Side: engine.White, Notation: rec.Moves[0], Best: n}
			break
		}
	}
	r := &Req{Loc: "en"}
	files := h.b.TurningBoards(r, g, rec, rv, "game-1")
	if len(files) != 2 || !strings.HasSuffix(files[0].Name, "turn1-played.png") || !strings.HasSuffix(files[1].Name, "turn1-better.png") {
		t.Fatalf("turning boards %d", len(files))
	}
	if bytes.Equal(files[0].Data, files[1].Data) {
		t.Fatal("the played and better boards are the same image")
	}
	for _, f := range files {
		if _, err := png.Decode(bytes.NewReader(f.Data)); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
}

// Reviews run at most one per CPU: with every slot taken, a request waits
// until its context ends and is then refused, having run nothing.
func TestReviewSlots(t *testing.T) {
	h := newHarness(t, Config{})
	id, _ := resignedForReview(t, h, 2)
	g := h.game(id)
	rec, err := h.b.GameRecord(h.ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	sem := h.b.rv.slots()
	if sem.Cap() != runtime.NumCPU() {
		t.Fatalf("%d review slots, want one per CPU (%d)", sem.Cap(), runtime.NumCPU())
	}
	for range sem.Cap() {
		if err := sem.Acquire(h.ctx); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(h.ctx)
	cancel()
	_, _, err = h.b.RunReview(ctx, g, rec, nil)
	var rf *Refusal
	if !errors.As(err, &rf) || rf.Key != "review.busy" || h.b.rv.runs.Load() != 0 {
		t.Fatalf("full slots: %v, %d runs", err, h.b.rv.runs.Load())
	}
	for range sem.Cap() {
		sem.Release()
	}
	if _, _, err := h.b.RunReview(h.ctx, g, rec, nil); err != nil || h.b.rv.runs.Load() != 1 {
		t.Fatalf("free slot: %v, %d runs", err, h.b.rv.runs.Load())
	}
}
