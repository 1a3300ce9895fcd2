// Package draw holds /draw: a draw offer (offer.go), which lapses when anyone moves. A
// /draw (or the offer's Accept) from the opponent accepts it; the computer
// answers at once (ai.go).
package draw

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

var Command = app.CommandDef{
	Name: "draw",
	Doc:  "Offer a draw; the opponent answers with buttons (or `/draw` to accept). The offer lapses when a move is played. The computer answers at once.",
	Opts: []app.OptDef{app.GameOpt},
	Run:  app.OnGame(draw),
	Actions: []app.ActionDef{
		{Name: "draw", Doc: "Offer draw, on the board.", Run: drawAction},
		{Name: app.DrawOffer.Yes, Doc: "Accept the draw offered.", Run: drawAction},
		{Name: app.DrawOffer.No, Doc: "Decline the draw offered.", Run: app.DrawOffer.DeclineAction()},
	},
}

func drawAction(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
	return draw(b, ctx, r, g)
}

// draw offers a draw, or accepts the opponent's standing offer.
func draw(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game) ([]view.Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, app.Refuse("refuse.notplayer", g.Num())
	}
	if g.Status != app.GmActive {
		return nil, app.OverRefusal(r, g)
	}
	if g.AILevel > 0 && side != g.AISide {
		return b.AiDraw(ctx, r, g)
	}
	if app.DrawOffer.FromOpponent(g, side) {
		return b.Finish(ctx, r, g, engine.Drawn(engine.ReasonAgreement), func(loc string) string {
			return i18n.T(loc, "draw.accepted.by", r.User.Name)
		})
	}
	return b.Propose(ctx, r, g, app.DrawOffer, side)
}
