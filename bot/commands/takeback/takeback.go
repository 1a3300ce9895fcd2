// Package takeback holds /takeback and its Grant and Refuse buttons: a
// request to take back one's last move, answered by the opponent.
package takeback

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

// Takebacks: the player who just moved may ask to take that move back
// before the opponent replies; the opponent accepts or declines with
// buttons. Time is not refunded: the opponent's thinking time so far is
// charged to them, and the requester's clock continues from what it showed.

var Command = app.CommandDef{
	Name: "takeback",
	Doc:  "Ask to take back the move you just played, before the opponent replies; they answer with buttons. Time is not refunded. The computer grants it at once.",
	Opts: []app.OptDef{app.GameOpt},
	Run:  app.OnGame(askTakeback),
	Actions: []app.ActionDef{
		{Name: app.TakebackOffer.Yes, Doc: "Grant the takeback asked for.", Run: acceptTakeback},
		{Name: app.TakebackOffer.No, Doc: "Refuse the takeback asked for.", Run: app.TakebackOffer.DeclineAction()},
	},
}

func askTakeback(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game) ([]view.Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, app.Refuse("refuse.notplayer", g.Num())
	}
	if g.Status != app.GmActive {
		return nil, app.OverRefusal(r, g)
	}
	if g.AILevel > 0 && side != g.AISide {
		return b.AiTakeback(ctx, r, g, side)
	}
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	if g.Ply == 0 || int(pos.Turn()) == side {
		return nil, app.Refuse("takeback.nothing")
	}
	return b.Propose(ctx, r, g, app.TakebackOffer, side)
}

func acceptTakeback(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
	side, _ := g.Side(r.User.ID)
	if !app.TakebackOffer.FromOpponent(g, side) {
		return nil, app.Refuse("takeback.none")
	}
	return b.Undo(ctx, r, g, 1, r.User)
}
