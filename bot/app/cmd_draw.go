package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// /draw: a draw offer (offer.go), which lapses when anyone moves. A
// /draw (or the offer's Accept) from the opponent accepts it; the computer
// answers at once (ai.go).

var drawCmd = command{
	name: "draw",
	doc:  "Offer a draw; the opponent answers with buttons (or `/draw` to accept). The offer lapses when a move is played. The computer answers at once.",
	opts: []optDef{gameOpt},
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findGame(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.draw(ctx, r, g)
	},
	actions: []action{
		{name: "draw", doc: "Offer draw, on the board.", run: drawAction},
		{name: drawOffer.yes, doc: "Accept the draw offered.", run: drawAction},
		{name: drawOffer.no, doc: "Decline the draw offered.", run: drawOffer.declineAction()},
	},
}

func drawAction(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
	return b.draw(ctx, r, g)
}

// draw offers a draw, or accepts the opponent's standing offer.
func (b *Bot) draw(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.Num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	if g.AILevel > 0 && side != g.AISide {
		return b.aiDraw(ctx, r, g)
	}
	if drawOffer.fromOpponent(g, side) {
		return b.finish(ctx, r, g, engine.Drawn(engine.ReasonAgreement), func(loc string) string {
			return i18n.T(loc, "draw.accepted.by", r.User.Name)
		})
	}
	return b.propose(ctx, r, g, drawOffer, side)
}
