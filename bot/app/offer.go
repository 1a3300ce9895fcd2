package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/i18n"
)

// Offers: a draw or a takeback is proposed by one player and answered by
// the other with buttons. One mechanism serves both: the offer is stored on
// the game row (0 none, side+1 the side that offers), any move clears it,
// and each kind has its own catalog keys "<key>.offered", "<key>.pending",
// "<key>.none", "<key>.declined" and "<key>.declined.ping".
type offer struct {
	key     string // catalog prefix, "draw" or "takeback"
	yes, no string // the answer buttons' actions
	// slot is where the game row keeps this kind of offer.
	slot func(g *gameRec) *int
}

var (
	drawOffer     = offer{key: "draw", yes: "drawyes", no: "drawno", slot: func(g *gameRec) *int { return &g.DrawOffer }}
	takebackOffer = offer{key: "takeback", yes: "tbyes", no: "tbno", slot: func(g *gameRec) *int { return &g.Takeback }}
)

// fromOpponent reports whether side's opponent has this offer standing.
func (o offer) fromOpponent(g *gameRec, side int) bool { return *o.slot(g) == 2-side }

// propose records side's offer and posts it where the game is played,
// pinging the opponent in their language, with Accept and Decline.
func (b *Bot) propose(ctx context.Context, r *req, g *gameRec, o offer, side int) ([]Reply, error) {
	s := o.slot(g)
	if *s == side+1 {
		return nil, refuse(o.key + ".pending")
	}
	g.SetOffer(s, side+1)
	if ok, err := b.st.saveGame(ctx, g, nil); err != nil || !ok {
		return nil, orRaced(err)
	}
	content, ids := b.pings(ctx, []User{g.User(1 - side)}, func(loc, who string) string {
		return i18n.T(loc, o.key+".offered", r.User.Name, who)
	})
	return []Reply{inGame(r, g, Reply{
		Content:  content,
		Mentions: ids,
		Components: [][]Component{{
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, o.yes), Label: r.public().t("btn.accept"), Style: Success},
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, o.no), Label: r.public().t("btn.decline"), Style: Danger},
		}},
	})}, nil
}

// decline answers No to the opponent's offer: the offer's message says so
// (buttons gone) and a new message pings the one who offered, in their
// language (an edit alone would not notify them).
func (b *Bot) decline(ctx context.Context, r *req, g *gameRec, o offer) ([]Reply, error) {
	side, _ := g.Side(r.User.ID)
	if !o.fromOpponent(g, side) {
		return nil, refuse(o.key + ".none")
	}
	g.SetOffer(o.slot(g), 0)
	if ok, err := b.st.saveGame(ctx, g, nil); err != nil || !ok {
		return nil, orRaced(err)
	}
	content, ids := b.pings(ctx, []User{g.User(1 - side)}, func(loc, who string) string {
		return i18n.T(loc, o.key+".declined.ping", who, r.User.Name)
	})
	return []Reply{
		{Update: true, Content: r.public().t(o.key+".declined", r.User.Name)},
		{Content: content, Mentions: ids},
	}, nil
}

// declineAction is an offer's No button.
func (o offer) declineAction() func(*Bot, context.Context, *req, *gameRec, customID) ([]Reply, error) {
	return func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
		return b.decline(ctx, r, g, o)
	}
}

func orRaced(err error) error {
	if err != nil {
		return wrap("save game", err)
	}
	return refuse("refuse.raced")
}
