package app

import (
	"context"
)

// Takebacks: the player who just moved may ask to take that move back
// before the opponent replies; the opponent accepts or declines with
// buttons. Time is not refunded: the opponent's thinking time so far is
// charged to them, and the requester's clock continues from what it showed.

var takebackCmd = command{
	name: "takeback",
	doc:  "Ask to take back the move you just played, before the opponent replies; they answer with buttons. Time is not refunded. The computer grants it at once.",
	opts: []optDef{gameOpt},
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findGame(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.askTakeback(ctx, r, g)
	},
	actions: []action{
		{name: takebackOffer.yes, doc: "Grant the takeback asked for.", run: (*Bot).acceptTakeback},
		{name: takebackOffer.no, doc: "Refuse the takeback asked for.", run: takebackOffer.declineAction()},
	},
}

func (b *Bot) askTakeback(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.Num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	if g.AILevel > 0 && side != g.AISide {
		return b.aiTakeback(ctx, r, g, side)
	}
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	if g.Ply == 0 || int(pos.Turn()) == side {
		return nil, refuse("takeback.nothing")
	}
	return b.propose(ctx, r, g, takebackOffer, side)
}

func (b *Bot) acceptTakeback(ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
	side, _ := g.Side(r.User.ID)
	if !takebackOffer.fromOpponent(g, side) {
		return nil, refuse("takeback.none")
	}
	return b.undo(ctx, r, g, 1, r.User)
}
