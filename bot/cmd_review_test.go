package bot

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	recfile "github.com/tankbot/tankbot/engine/record"
)

// reviewFiles checks a review reply: one private message naming game #N,
// with the evaluation graph (a PNG that decodes) and the annotated record
// (which the record reader reads back with plies moves and comments).
func reviewFiles(t *testing.T, rs []Reply, plies int) *recfile.Record {
	t.Helper()
	if len(rs) != 1 || !rs[0].Ephemeral || len(rs[0].Files) != 2 {
		t.Fatalf("review reply: %+v", rs)
	}
	r := rs[0]
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

func TestReviewFinishedGame(t *testing.T) {
	h := newHarness(t, Config{})
	h.b.rv.nodes = 200 // a small budget: the test checks the plumbing, not the AI
	id := h.startGame()
	mustRefuse(t, h.slash(alice, "review"), "#1") // still on
	h.playMoves(id, 4)
	fin := finalBoard(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))

	first := reviewFiles(t, h.slash(alice, "review"), 4)
	if n := h.b.rv.runs.Load(); n != 1 {
		t.Fatalf("%d reviews run, want 1", n)
	}
	row, err := h.b.st.store().GameReview(h.ctx, id)
	if err != nil || row.Annotated == "" || row.Summary == "" {
		t.Fatalf("stored review: %+v %v", row, err)
	}

	// The final board's Review button, for anyone, and /review game:#1:
	// served from the store, the same record, no second analysis.
	second := reviewFiles(t, h.click(user("carol"), findID(t, []Reply{fin}, "review")), 4)
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
	id := h.startGame()
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
			h.b.rv.nodes = 200
			id := h.startGame()
			h.playMoves(id, 2)
			mustNotRefuse(t, h.click(bob, findID(t, h.slash(bob, "resign"), "resignyes")))
			rs := h.slash(alice, "review")
			if len(rs) != 1 || len(rs[0].Files) != 2 || strings.Contains(rs[0].Content, "accuracy") {
				t.Fatalf("%s review: %+v", loc, rs)
			}
			if _, err := png.Decode(bytes.NewReader(rs[0].Files[0].Data)); err != nil {
				t.Fatalf("%s graph: %v", loc, err)
			}
		})
	}
}
