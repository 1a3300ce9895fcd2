package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/game"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
)

// Offers: a draw or a takeback is proposed by one player and answered by
// the other with buttons. One mechanism serves both: the offer is stored on
// the game row (0 none, side+1 the side that offers), any move clears it,
// and each kind has its own catalog keys "<key>.offered", "<key>.pending",
// "<key>.none", "<key>.declined" and "<key>.declined.ping".
type offer struct {
	key     string // catalog prefix, "draw" or "takeback"
	Yes, No string // the answer buttons' actions
	// kind is the game's offer this is.
	kind game.Offer
}

var (
	DrawOffer     = offer{key: "draw", Yes: "drawyes", No: "drawno", kind: game.DrawOffer}
	TakebackOffer = offer{key: "takeback", Yes: "tbyes", No: "tbno", kind: game.TakebackOffer}
)

// FromOpponent reports whether side's opponent has this offer standing.
func (o offer) FromOpponent(g *Game, side int) bool { return g.Offered(o.kind) == 2-side }

// Propose records side's offer and posts it where the game is played,
// pinging the opponent in their language, with Accept and Decline.
func (b *Bot) Propose(ctx context.Context, r *Req, g *Game, o offer, side int) ([]view.Reply, error) {
	if g.Offered(o.kind) == side+1 {
		return nil, Refuse(o.key + ".pending")
	}
	*g, _ = g.SetOffer(o.kind, side+1)
	if ok, err := b.St.saveGame(ctx, g, nil); err != nil || !ok {
		return nil, orRaced(err)
	}
	content, ids := b.Pings(ctx, []User{g.User(1 - side)}, func(loc, who string) string {
		return i18n.T(loc, o.key+".offered", r.User.Name, who)
	})
	return []view.Reply{InGame(r, g, view.Reply{
		Content:  content,
		Mentions: ids,
		Components: [][]view.Component{{
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, o.Yes), Label: r.Public().T("btn.accept"), Style: view.Success},
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, o.No), Label: r.Public().T("btn.decline"), Style: view.Danger},
		}},
	})}, nil
}

// decline answers No to the opponent's offer: the offer's message says so
// (buttons gone) and a new message pings the one who offered, in their
// language (an edit alone would not notify them).
func (b *Bot) decline(ctx context.Context, r *Req, g *Game, o offer) ([]view.Reply, error) {
	side, _ := g.Side(r.User.ID)
	if !o.FromOpponent(g, side) {
		return nil, Refuse(o.key + ".none")
	}
	*g, _ = g.SetOffer(o.kind, 0)
	if ok, err := b.St.saveGame(ctx, g, nil); err != nil || !ok {
		return nil, orRaced(err)
	}
	content, ids := b.Pings(ctx, []User{g.User(1 - side)}, func(loc, who string) string {
		return i18n.T(loc, o.key+".declined.ping", who, r.User.Name)
	})
	return []view.Reply{
		{Update: true, Content: r.Public().T(o.key+".declined", r.User.Name)},
		{Content: content, Mentions: ids},
	}, nil
}

// DeclineAction is an offer's No button.
func (o offer) DeclineAction() func(*Bot, context.Context, *Req, *Game, view.CustomID) ([]view.Reply, error) {
	return func(b *Bot, ctx context.Context, r *Req, g *Game, _ view.CustomID) ([]view.Reply, error) {
		return b.decline(ctx, r, g, o)
	}
}

func orRaced(err error) error {
	if err != nil {
		return Wrap("save game", err)
	}
	return Refuse("refuse.raced")
}
