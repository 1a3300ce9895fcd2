package app

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/engine/review"
	"github.com/tankbot/tankbot/store"
)

// reviewer bounds the reviews running at once to the machine's CPUs (each
// is one CPU-bound search, through the same Slots as renders) and counts
// the analyses run.
type reviewer struct {
	once sync.Once
	sem  *renders.Slots
	// nodes is the budget per position before the game's scaling (0:
	// Config.ReviewNodes, else review.DefaultNodes); tests lower it.
	nodes int64
	runs  atomic.Int64
}

func (rv *reviewer) slots() *renders.Slots {
	rv.once.Do(func() { rv.sem = renders.NewSlots(runtime.NumCPU()) })
	return rv.sem
}

func (rv *reviewer) budget(cfg Config) int64 {
	switch {
	case rv.nodes > 0:
		return rv.nodes
	case cfg.ReviewNodes > 0:
		return cfg.ReviewNodes
	}
	return review.DefaultNodes
}

// StoredReview reads g's stored review; store.ErrNotFound when none.
func (b *Bot) StoredReview(ctx context.Context, g *Game) (*review.Review, string, error) {
	row, err := b.St.GameReview(ctx, g.ID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, "", err
		}
		return nil, "", Wrap("read review", err)
	}
	var rv review.Review
	if err := json.Unmarshal([]byte(row.Summary), &rv); err != nil {
		return nil, "", Wrap("read review", err)
	}
	return &rv, row.Annotated, nil
}

// RunReview analyses g once a review slot is free and stores the result;
// progress (nil: none) hears of each position evaluated.
func (b *Bot) RunReview(ctx context.Context, g *Game, rec *recfile.Record, progress func(done, total int)) (*review.Review, string, error) {
	ps, _, err := rec.Positions()
	if err != nil {
		return nil, "", Wrap("review", err)
	}
	sem := b.rv.slots()
	if sem.Acquire(ctx) != nil {
		return nil, "", Refuse("review.busy")
	}
	defer sem.Release()
	b.rv.runs.Add(1)
	nodes := b.rv.budget(b.Cfg)
	rv, err := review.Analyze(ctx, ps[0], rec.Moves, review.Options{Nodes: nodes, Progress: progress})
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", Refuse("review.busy")
		}
		return nil, "", Wrap("review", err)
	}
	ann, err := rv.Annotate(rec, nodes)
	if err != nil {
		return nil, "", Wrap("review", err)
	}
	text, err := recfile.Write(ann)
	if err != nil {
		return nil, "", Wrap("review", err)
	}
	sum, err := json.Marshal(rv)
	if err != nil {
		return nil, "", Wrap("review", err)
	}
	row := &store.GameReview{GameID: g.ID, Summary: string(sum), Annotated: text, Created: b.Clk.Now()}
	if err := b.St.SaveGameReview(ctx, row); err != nil {
		// The review is still shown; the next request runs it again.
		b.Log.Warn("store review", "game", g.ID, "err", err)
	}
	return rv, text, nil
}

// TurningBoards draws each turning point twice, from the mover's side:
// after the move played and after the better move, each highlighted as the
// last move (2 files a point, 6 at most: with the graph and the record
// inside Discord's 10 attachments). The boards are extras: one that cannot
// be drawn is left out.
func (b *Bot) TurningBoards(r *Req, g *Game, rec *recfile.Record, rv *review.Review, base string) []view.File {
	ps, ms, err := rec.Positions()
	if err != nil || len(ms) != len(rv.Moves) {
		b.Log.Warn("review boards", "game", g.ID, "err", err)
		return nil
	}
	var out []view.File
	for k, i := range rv.Turning {
		m := rv.Moves[i]
		flip := m.Side == engine.Black
		name := base + "-turn" + strconv.Itoa(k+1)
		if png, err := view.RenderPNG(ps[i+1], ms[i], flip, r.Locale(), nil); err == nil {
			out = append(out, view.File{Name: name + "-played.png", ContentType: "image/png", Data: png, Description: view.PositionAlt(r.Locale(), g.Game, ps[i+1], ps[i], ms[i])})
		}
		bm, err := ps[i].ParseMove(m.Best)
		if err != nil {
			continue
		}
		next, err := ps[i].Play(bm)
		if err != nil {
			continue
		}
		if png, err := view.RenderPNG(next, bm, flip, r.Locale(), nil); err == nil {
			out = append(out, view.File{Name: name + "-better.png", ContentType: "image/png", Data: png, Description: view.PositionAlt(r.Locale(), g.Game, next, ps[i], bm)})
		}
	}
	return out
}
