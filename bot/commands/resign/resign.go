// Package resign holds /resign and its confirmation buttons.
package resign

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

var Command = app.CommandDef{
	Name: "resign",
	Doc:  "Resign, after a private confirmation (Resign / Cancel).",
	Opts: []app.OptDef{app.GameOpt},
	Run:  resignCommand,
	Actions: []app.ActionDef{
		{Name: "resign", Doc: "Resign, on the board: asks for a confirmation.", Run: func(b *app.Bot, _ context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
			return askResign(b, r, g)
		}},
		{Name: "resignyes", Doc: "Confirms the resignation.", Run: func(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
			return app.Confirmed(r, g, r.T("resign.you", g.Num()))(resign(b, ctx, r, g))
		}},
		{Name: "keep", Doc: "Cancel of a confirmation (resign, a move that stands for many): nothing happens.", Run: func(_ *app.Bot, _ context.Context, r *app.Req, _ *app.Game, _ view.CustomID) ([]view.Reply, error) {
			return []view.Reply{{Ephemeral: true, Update: true, Content: r.T("confirm.kept")}}, nil
		}},
	},
}

func resignCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	g, err := b.FindGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return askResign(b, r, g)
}

// askResign asks for a confirmation first: a resignation cannot be undone.
func askResign(b *app.Bot, r *app.Req, g *app.Game) ([]view.Reply, error) {
	if _, ok := g.Side(r.User.ID); !ok {
		return nil, app.Refuse("refuse.notplayer", g.Num())
	}
	if g.Status != app.GmActive {
		return nil, app.OverRefusal(r, g)
	}
	return []view.Reply{{
		Ephemeral: true,
		Content:   r.T("resign.confirm", g.Num()),
		Components: [][]view.Component{{
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "resignyes"), Label: r.T("btn.resign"), Style: view.Danger},
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "keep"), Label: r.T("btn.cancel"), Style: view.Secondary},
		}},
	}}, nil
}

func resign(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game) ([]view.Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, app.Refuse("refuse.notplayer", g.Num())
	}
	if g.Status != app.GmActive {
		return nil, app.OverRefusal(r, g)
	}
	o := engine.Win(engine.Side(1-side), engine.ReasonResignation)
	who := r.User.Name
	return b.Finish(ctx, r, g, o, func(loc string) string { return i18n.T(loc, "resign.done", who) })
}
