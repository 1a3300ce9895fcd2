package app

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/engine/review"
	"github.com/tankbot/tankbot/imaging"
	"github.com/tankbot/tankbot/store"
)

// /review and the final board's Review button: the AI's review of a
// finished game (docs/review.md). The review runs inside the interaction:
// the Discord adapter defers a slow handler (the interaction token lives 15
// minutes, the handler's context ends with it), so no queued post is
// needed; a review lost to a restart is simply asked for again. While it
// runs, a private progress message is edited every few seconds
// (cmd_review_progress.go). The result is stored by game, so a second
// request only redraws the graph.

var reviewCmd = command{
	name: "review",
	doc:  "The AI's review of a finished game, just for you: evaluation graph, each player's accuracy and inaccuracies, mistakes and blunders, the 3 turning points with the better move, and the annotated record file. `game:#12` names any game of this server; without it, your latest game here. Stored: a second request is instant.",
	opts: []optDef{gameOptFinished},
	run:  (*Bot).reviewCommand,
	actions: []action{{name: "review", anyone: true, doc: "Review, on a finished game's board: the AI's review of the game, just for whoever clicks.",
		run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
			return b.reviewReply(ctx, r, g)
		}}},
}

func (b *Bot) reviewCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.pastGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return b.reviewReply(ctx, r, g)
}

// reviewReply is g's review for whoever asks: from the store when it was
// reviewed before, else analysed now (at most one review per CPU at once)
// and stored.
func (b *Bot) reviewReply(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	if g.Status == gmActive {
		return nil, refuse("review.active", g.Num())
	}
	rec, err := b.gameRecord(ctx, g)
	if err != nil {
		return nil, err
	}
	if len(rec.Moves) == 0 {
		return nil, refuse("review.nomoves", g.Num())
	}
	rv, annotated, err := b.storedReview(ctx, g)
	if errors.Is(err, store.ErrNotFound) {
		rv, annotated, err = b.runReview(ctx, g, rec, b.reviewProgress(ctx, r, g))
	}
	if err != nil {
		return nil, err
	}
	return b.reviewMessage(r, g, rec, rv, annotated)
}

// storedReview reads g's stored review; store.ErrNotFound when none.
func (b *Bot) storedReview(ctx context.Context, g *gameRec) (*review.Review, string, error) {
	row, err := b.st.GameReview(ctx, g.ID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, "", err
		}
		return nil, "", wrap("read review", err)
	}
	var rv review.Review
	if err := json.Unmarshal([]byte(row.Summary), &rv); err != nil {
		return nil, "", wrap("read review", err)
	}
	return &rv, row.Annotated, nil
}

// runReview analyses g once a review slot is free and stores the result;
// progress (nil: none) hears of each position evaluated.
func (b *Bot) runReview(ctx context.Context, g *gameRec, rec *recfile.Record, progress func(done, total int)) (*review.Review, string, error) {
	ps, _, err := rec.Positions()
	if err != nil {
		return nil, "", wrap("review", err)
	}
	sem := b.rv.slots()
	if sem.Acquire(ctx) != nil {
		return nil, "", refuse("review.busy")
	}
	defer sem.Release()
	b.rv.runs.Add(1)
	nodes := b.rv.budget(b.cfg)
	rv, err := review.Analyze(ctx, ps[0], rec.Moves, review.Options{Nodes: nodes, Progress: progress})
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", refuse("review.busy")
		}
		return nil, "", wrap("review", err)
	}
	ann, err := rv.Annotate(rec, nodes)
	if err != nil {
		return nil, "", wrap("review", err)
	}
	text, err := recfile.Write(ann)
	if err != nil {
		return nil, "", wrap("review", err)
	}
	sum, err := json.Marshal(rv)
	if err != nil {
		return nil, "", wrap("review", err)
	}
	row := &store.GameReview{GameID: g.ID, Summary: string(sum), Annotated: text, Created: b.clk.Now()}
	if err := b.st.SaveGameReview(ctx, row); err != nil {
		// The review is still shown; the next request runs it again.
		b.log.Warn("store review", "game", g.ID, "err", err)
	}
	return rv, text, nil
}

// reviewMessage is the review as a private message in the reader's
// language: the summary lines, the evaluation graph and the annotated
// record.
func (b *Bot) reviewMessage(r *req, g *gameRec, rec *recfile.Record, rv *review.Review, annotated string) ([]Reply, error) {
	lines := []string{
		r.t("review.title", g.Num()),
		r.t("review.player", "<@"+g.White.ID+">", r.t("review.white"), pct(rv.White.Accuracy), strconv.Itoa(rv.White.Inaccuracies), strconv.Itoa(rv.White.Mistakes), strconv.Itoa(rv.White.Blunders)),
		r.t("review.player", "<@"+g.Black.ID+">", r.t("review.black"), pct(rv.Black.Accuracy), strconv.Itoa(rv.Black.Inaccuracies), strconv.Itoa(rv.Black.Mistakes), strconv.Itoa(rv.Black.Blunders)),
		r.t("review.turning"),
	}
	graph := imaging.EvalGraph{
		Win:   rv.Win,
		Title: r.t("review.graph-title", rec.White, rec.Black),
		White: rec.White + " (" + r.t("review.white") + ")", Black: rec.Black + " (" + r.t("review.black") + ")",
		Axis: r.t("review.axis"),
	}
	if len(rv.Turning) == 0 {
		lines = append(lines, r.t("review.noturn"))
	}
	for k, i := range rv.Turning {
		if i < 0 || i >= len(rv.Moves) {
			return nil, wrap("review", errors.New("stored turning point out of range"))
		}
		m := rv.Moves[i]
		label := recfile.MoveLabel(i, m.Side) + " " + m.Notation
		graph.Marks = append(graph.Marks, i)
		graph.MarkLabels = append(graph.MarkLabels, label)
		before, after := m.WinBefore, m.WinAfter
		if m.Side == engine.Black {
			before, after = 1-before, 1-after
		}
		lines = append(lines, r.t("review.turn", strconv.Itoa(k+1), label, r.t(classKeys[m.Class]),
			m.Best, pct(100*before), pct(100*after)))
	}
	png, err := imaging.RenderEvalGraph(graph)
	if err != nil {
		return nil, wrap("review graph", err)
	}
	base := "game-" + g.Num()
	files := []File{
		{Name: base + "-review.png", ContentType: "image/png", Data: png, Description: clipAlt(r.t("a11y.evalgraph", g.Num(), strconv.Itoa(len(rv.Moves))))},
		{Name: base + "-review.txt", ContentType: "text/plain; charset=utf-8", Data: []byte(annotated)},
	}
	files = append(files, b.turningBoards(r, g, rec, rv, base)...)
	return []Reply{{
		Ephemeral:    true,
		Content:      clipRunes(strings.Join(lines, "\n"), 2000),
		Files:        files,
		FallbackText: r.t("game.noimage"),
	}}, nil
}

// turningBoards draws each turning point twice, from the mover's side:
// after the move played and after the better move, each highlighted as the
// last move (2 files a point, 6 at most: with the graph and the record
// inside Discord's 10 attachments). The boards are extras: one that cannot
// be drawn is left out.
func (b *Bot) turningBoards(r *req, g *gameRec, rec *recfile.Record, rv *review.Review, base string) []File {
	ps, ms, err := rec.Positions()
	if err != nil || len(ms) != len(rv.Moves) {
		b.log.Warn("review boards", "game", g.ID, "err", err)
		return nil
	}
	var out []File
	for k, i := range rv.Turning {
		m := rv.Moves[i]
		flip := m.Side == engine.Black
		name := base + "-turn" + strconv.Itoa(k+1)
		if png, err := renderPNG(ps[i+1], ms[i], flip, r.loc, nil); err == nil {
			out = append(out, File{Name: name + "-played.png", ContentType: "image/png", Data: png, Description: positionAlt(r.loc, g.Game, ps[i+1], ps[i], ms[i])})
		}
		bm, err := ps[i].ParseMove(m.Best)
		if err != nil {
			continue
		}
		next, err := ps[i].Play(bm)
		if err != nil {
			continue
		}
		if png, err := renderPNG(next, bm, flip, r.loc, nil); err == nil {
			out = append(out, File{Name: name + "-better.png", ContentType: "image/png", Data: png, Description: positionAlt(r.loc, g.Game, next, ps[i], bm)})
		}
	}
	return out
}

// classKeys are the catalog keys of the judgements.
var classKeys = map[review.Class]string{
	review.Good:       "review.class-good",
	review.Inaccuracy: "review.class-inaccuracy",
	review.Mistake:    "review.class-mistake",
	review.Blunder:    "review.class-blunder",
}

// pct writes a percentage with no decimals.
func pct(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
