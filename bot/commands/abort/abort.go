// Package abort holds /abort: ends a game that has barely started, without result.
package abort

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

var Command = app.CommandDef{
	Name: "abort",
	Doc:  "Either player, while not both have moved twice. No result.",
	Opts: []app.OptDef{app.GameOpt},
	Run:  app.OnGame(abort),
}

// abort ends a game without result while neither player has moved twice.
func abort(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game) ([]view.Reply, error) {
	if _, ok := g.Side(r.User.ID); !ok {
		return nil, app.Refuse("refuse.notplayer", g.Num())
	}
	if g.Status != app.GmActive {
		return nil, app.OverRefusal(r, g)
	}
	if g.Moves[0] >= 2 && g.Moves[1] >= 2 {
		return nil, app.Refuse("abort.late")
	}
	who := r.User.Name
	return b.Finish(ctx, r, g, engine.Outcome{Result: engine.Ongoing, Reason: engine.ReasonAborted}, func(loc string) string {
		return i18n.T(loc, "abort.by", who)
	})
}
