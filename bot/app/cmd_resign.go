package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// /resign and its confirmation buttons.

var resignCmd = command{
	name: "resign",
	doc:  "Resign, after a private confirmation (Resign / Cancel).",
	opts: []optDef{gameOpt},
	run:  (*Bot).resignCommand,
	actions: []action{
		{name: "resign", doc: "Resign, on the board: asks for a confirmation.", run: func(b *Bot, _ context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
			return b.askResign(r, g)
		}},
		{name: "resignyes", doc: "Confirms the resignation.", run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
			return confirmed(r, g, r.t("resign.you", g.Num()))(b.resign(ctx, r, g))
		}},
		{name: "keep", doc: "Cancel of a confirmation (resign, a move that stands for many): nothing happens.", run: func(_ *Bot, _ context.Context, r *req, _ *gameRec, _ customID) ([]Reply, error) {
			return []Reply{{Ephemeral: true, Update: true, Content: r.t("confirm.kept")}}, nil
		}},
	},
}

func (b *Bot) resignCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.findGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return b.askResign(r, g)
}

// askResign asks for a confirmation first: a resignation cannot be undone.
func (b *Bot) askResign(r *req, g *gameRec) ([]Reply, error) {
	if _, ok := g.Side(r.User.ID); !ok {
		return nil, refuse("refuse.notplayer", g.Num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	return []Reply{{
		Ephemeral: true,
		Content:   r.t("resign.confirm", g.Num()),
		Components: [][]Component{{
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "resignyes"), Label: r.t("btn.resign"), Style: Danger},
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "keep"), Label: r.t("btn.cancel"), Style: Secondary},
		}},
	}}, nil
}

func (b *Bot) resign(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.Num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	o := engine.Win(engine.Side(1-side), engine.ReasonResignation)
	who := r.User.Name
	return b.finish(ctx, r, g, o, func(loc string) string { return i18n.T(loc, "resign.done", who) })
}
