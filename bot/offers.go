package bot

import (
	"context"
	"strconv"

	"github.com/tankbot/tankbot/engine"
)

// Draw offers and aborts. An offer is stored on the game row; any move
// clears it, so a pending offer lapses when the offerer (or anyone) moves.

func init() {
	extraCommands["draw"] = func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findGame(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.draw(ctx, r, g)
	}
	extraCommands["abort"] = func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findGame(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.abort(ctx, r, g)
	}
	extraActions["draw"] = func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
		return b.draw(ctx, r, g)
	}
	extraActions["drawyes"] = extraActions["draw"]
	extraActions["drawno"] = func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
		side, ok := g.player(r.User.ID)
		if !ok {
			return nil, refuse("refuse.notplayer", strconv.FormatInt(g.ID, 10))
		}
		if g.DrawOffer == 0 || g.DrawOffer == side+1 {
			return nil, refuse("draw.none")
		}
		g.DrawOffer = 0
		g.Rev++
		if ok, err := b.st.saveGame(ctx, g, nil); err != nil || !ok {
			return nil, orRaced(err)
		}
		return []Reply{{Update: true, Content: r.t("draw.declined", r.User.Name)}}, nil
	}
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
		return nil, refuse("refuse.notplayer", strconv.FormatInt(g.ID, 10))
	}
	if g.Status != gmActive {
		return nil, refuse("refuse.finished", strconv.FormatInt(g.ID, 10))
	}
	switch g.DrawOffer {
	case side + 1:
		return nil, refuse("draw.pending")
	case 2 - side:
		return b.finish(ctx, r.loc, g, engine.Drawn(engine.ReasonAgreement), r.t("draw.accepted"))
	}
	g.DrawOffer = side + 1
	g.Rev++
	if ok, err := b.st.saveGame(ctx, g, nil); err != nil || !ok {
		return nil, orRaced(err)
	}
	opp := g.user(1 - side)
	return []Reply{{
		Content:  r.t("draw.offered", r.User.Name, "<@"+opp.ID+">"),
		Mentions: []string{opp.ID},
		Components: [][]Component{{
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "drawyes"), Label: r.t("btn.accept"), Style: Success},
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "drawno"), Label: r.t("btn.decline"), Style: Danger},
		}},
	}}, nil
}

// abort ends a game without result while neither player has moved twice.
func (b *Bot) abort(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	if _, ok := g.player(r.User.ID); !ok {
		return nil, refuse("refuse.notplayer", strconv.FormatInt(g.ID, 10))
	}
	if g.Status != gmActive {
		return nil, refuse("refuse.finished", strconv.FormatInt(g.ID, 10))
	}
	if g.Moves[0] >= 2 && g.Moves[1] >= 2 {
		return nil, refuse("abort.late")
	}
	if err := b.end(ctx, g, engine.Outcome{Result: engine.Ongoing, Reason: engine.ReasonAborted}); err != nil {
		return nil, err
	}
	return []Reply{{Content: r.t("abort.done", r.User.Name, strconv.FormatInt(g.ID, 10))}}, nil
}
