package bot

import (
	"context"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// Draw offers and aborts. An offer is stored on the game row; any move
// clears it, so a pending offer lapses when the offerer (or anyone) moves.

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
		{name: "drawyes", doc: "Accept the draw offered.", run: drawAction},
		{name: "drawno", doc: "Decline the draw offered.", run: (*Bot).declineDraw},
	},
}

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

func drawAction(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
	return b.draw(ctx, r, g)
}

func (b *Bot) declineDraw(ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
	side, ok := g.player(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.num())
	}
	if g.DrawOffer == 0 || g.DrawOffer == side+1 {
		return nil, refuse("draw.none")
	}
	g.DrawOffer = 0
	g.Rev++
	if ok, err := b.st.saveGame(ctx, g, nil); err != nil || !ok {
		return nil, orRaced(err)
	}
	return declined(b, ctx, r, g.user(1-side), "draw.declined", "draw.declined.ping")
}

// declined answers a No to an offer: the offer's message says so (buttons
// gone) and a new message pings the one who offered, in their language
// (an edit alone would not notify them).
func declined(b *Bot, ctx context.Context, r *req, offerer User, key, pingKey string) ([]Reply, error) {
	content, ids := b.pings(ctx, []User{offerer}, func(loc, who string) string {
		return i18n.T(loc, pingKey, who, r.User.Name)
	})
	return []Reply{
		{Update: true, Content: r.public().t(key, r.User.Name)},
		{Content: content, Mentions: ids},
	}, nil
}

func orRaced(err error) error {
	if err != nil {
		return wrap("save game", err)
	}
	return refuse("refuse.raced")
}

// draw offers a draw, or accepts the opponent's standing offer.
func (b *Bot) draw(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.player(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	if g.AILevel > 0 && side != g.AISide {
		return b.aiDraw(ctx, r, g)
	}
	switch g.DrawOffer {
	case side + 1:
		return nil, refuse("draw.pending")
	case 2 - side:
		return b.finish(ctx, r, g, engine.Drawn(engine.ReasonAgreement), func(loc string) string {
			return i18n.T(loc, "draw.accepted.by", r.User.Name)
		})
	}
	g.DrawOffer = side + 1
	g.Rev++
	if ok, err := b.st.saveGame(ctx, g, nil); err != nil || !ok {
		return nil, orRaced(err)
	}
	content, ids := b.pings(ctx, []User{g.user(1 - side)}, func(loc, who string) string {
		return i18n.T(loc, "draw.offered", r.User.Name, who)
	})
	// The offer goes where the game is played.
	return []Reply{inGame(r, g, Reply{
		Content:  content,
		Mentions: ids,
		Components: [][]Component{{
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "drawyes"), Label: r.public().t("btn.accept"), Style: Success},
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "drawno"), Label: r.public().t("btn.decline"), Style: Danger},
		}},
	})}, nil
}

// abort ends a game without result while neither player has moved twice.
func (b *Bot) abort(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	if _, ok := g.player(r.User.ID); !ok {
		return nil, refuse("refuse.notplayer", g.num())
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
