// Package review holds /review and the final board's Review button: the AI's review of a
// finished game (docs/review.md). The review runs inside the interaction:
// the Discord adapter defers a slow handler (the interaction token lives 15
// minutes, the handler's context ends with it), so no queued post is
// needed; a review lost to a restart is simply asked for again. While it
// runs, a private progress message is edited every few seconds
// (cmd_review_progress.go). The result is stored by game, so a second
// request only redraws the graph.
package review

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/engine/review"
	"github.com/tankbot/tankbot/imaging"
	"github.com/tankbot/tankbot/store"
)

var Command = app.CommandDef{
	Name: "review",
	Doc:  "The AI's review of a finished game, just for you: evaluation graph, each player's accuracy and inaccuracies, mistakes and blunders, the 3 turning points with the better move, and the annotated record file. `game:#12` names any game of this server; without it, your latest game here. Stored: a second request is instant.",
	Opts: []app.OptDef{app.GameOptFinished},
	Run:  reviewCommand,
	Actions: []app.ActionDef{{Name: "review", Anyone: true, Doc: "Review, on a finished game's board: the AI's review of the game, just for whoever clicks.",
		Run: func(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
			return reviewReply(b, ctx, r, g)
		}}},
}

func reviewCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	g, err := b.PastGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return reviewReply(b, ctx, r, g)
}

// reviewReply is g's review for whoever asks: from the store when it was
// reviewed before, else analysed now (at most one review per CPU at once)
// and stored.
func reviewReply(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game) ([]view.Reply, error) {
	if g.Status == app.GmActive {
		return nil, app.Refuse("review.active", g.Num())
	}
	rec, err := b.GameRecord(ctx, g)
	if err != nil {
		return nil, err
	}
	if len(rec.Moves) == 0 {
		return nil, app.Refuse("review.nomoves", g.Num())
	}
	rv, annotated, err := b.StoredReview(ctx, g)
	if errors.Is(err, store.ErrNotFound) {
		rv, annotated, err = b.RunReview(ctx, g, rec, b.ReviewProgress(ctx, r, g))
	}
	if err != nil {
		return nil, err
	}
	return reviewMessage(b, r, g, rec, rv, annotated)
}

// reviewMessage is the review as a private message in the reader's
// language: the summary lines, the evaluation graph and the annotated
// record.
func reviewMessage(b *app.Bot, r *app.Req, g *app.Game, rec *recfile.Record, rv *review.Review, annotated string) ([]view.Reply, error) {
	lines := []string{
		r.T("review.title", g.Num()),
		r.T("review.player", "<@"+g.White.ID+">", r.T("review.white"), pct(rv.White.Accuracy), strconv.Itoa(rv.White.Inaccuracies), strconv.Itoa(rv.White.Mistakes), strconv.Itoa(rv.White.Blunders)),
		r.T("review.player", "<@"+g.Black.ID+">", r.T("review.black"), pct(rv.Black.Accuracy), strconv.Itoa(rv.Black.Inaccuracies), strconv.Itoa(rv.Black.Mistakes), strconv.Itoa(rv.Black.Blunders)),
		r.T("review.turning"),
	}
	graph := imaging.EvalGraph{
		Win:   rv.Win,
		Title: r.T("review.graph-title", rec.White, rec.Black),
		White: rec.White + " (" + r.T("review.white") + ")", Black: rec.Black + " (" + r.T("review.black") + ")",
		Axis: r.T("review.axis"),
	}
	if len(rv.Turning) == 0 {
		lines = append(lines, r.T("review.noturn"))
	}
	for k, i := range rv.Turning {
		if i < 0 || i >= len(rv.Moves) {
			return nil, app.Wrap("review", errors.New("stored turning point out of range"))
		}
		m := rv.Moves[i]
		label := recfile.MoveLabel(i, m.Side) + " " + m.Notation
		graph.Marks = append(graph.Marks, i)
		graph.MarkLabels = append(graph.MarkLabels, label)
		before, after := m.WinBefore, m.WinAfter
		if m.Side == engine.Black {
			before, after = 1-before, 1-after
		}
		lines = append(lines, r.T("review.turn", strconv.Itoa(k+1), label, r.T(classKeys[m.Class]),
			m.Best, pct(100*before), pct(100*after)))
	}
	png, err := imaging.RenderEvalGraph(graph)
	if err != nil {
		return nil, app.Wrap("review graph", err)
	}
	base := "game-" + g.Num()
	files := []view.File{
		{Name: base + "-review.png", ContentType: "image/png", Data: png, Description: view.ClipAlt(r.T("a11y.evalgraph", g.Num(), strconv.Itoa(len(rv.Moves))))},
		{Name: base + "-review.txt", ContentType: "text/plain; charset=utf-8", Data: []byte(annotated)},
	}
	files = append(files, b.TurningBoards(r, g, rec, rv, base)...)
	return []view.Reply{{
		Ephemeral:    true,
		Content:      view.ClipRunes(strings.Join(lines, "\n"), 2000),
		Files:        files,
		FallbackText: r.T("game.noimage"),
	}}, nil
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
