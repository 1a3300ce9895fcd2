package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// /abort: ends a game that has barely started, without result.

var abortCmd = command{
	name: "abort",
	doc:  "Either player, while not both have moved twice. No result.",
	opts: []optDef{gameOpt},
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findGame(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.abort(ctx, r, g)
	},
}

// abort ends a game without result while neither player has moved twice.
func (b *Bot) abort(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	if _, ok := g.Side(r.User.ID); !ok {
		return nil, refuse("refuse.notplayer", g.Num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	if g.Moves[0] >= 2 && g.Moves[1] >= 2 {
		return nil, refuse("abort.late")
	}
	who := r.User.Name
	return b.finish(ctx, r, g, engine.Outcome{Result: engine.Ongoing, Reason: engine.ReasonAborted}, func(loc string) string {
		return i18n.T(loc, "abort.by", who)
	})
}
