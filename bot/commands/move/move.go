// Package move holds /move and the board's move controls: the moves
// carried by buttons, the typed-move form, and the move picker (Pick a
// move … Confirm).
package move

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/engine"
)

var Command = app.CommandDef{
	Name: "move",
	Doc:  "Play a move; forgiving input (`C3 > C5N`, `c3-c5n` and `c3 c5` are one move); autocomplete lists the legal moves matching what you typed.",
	Opts: []app.OptDef{{Name: "move", Typ: app.String, Required: true, Suggest: app.SuggestMove}, app.GameOpt},
	Run:  moveCommand,
	Actions: append([]app.ActionDef{
		{Name: "type", Doc: "Type a move, on the board: a form (submitted with the same id).", Run: typeMove},
		{Name: "move", Arg: "<move>", Doc: "Plays the move carried or chosen.", Run: moveChosen},
		{Name: "moveask", Arg: "<move>", Doc: "A move that stands for many (finish my draft): asks for a confirmation first.", Run: moveAsk},
		{Name: "moveok", Arg: "<move>", Doc: "Confirm of that question: plays the move.", Run: moveOK},
	}, pickerActions...),
}

func moveCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	return b.PlayTyped(ctx, r, strings.TrimSpace(r.Options["move"]))
}

func moveAsk(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, id view.CustomID) ([]view.Reply, error) {
	// A move that stands for many (finish my draft) cannot be taken
	// back: ask first.
	_, pos, err := b.MustMove(r, g)
	if err != nil {
		return nil, err
	}
	ask := r.T("confirm.move", id.Arg)
	if m, err := pos.ParseMove(id.Arg); err == nil {
		if w := view.MoveWords(r.Locale(), pos, m); w != "" {
			ask = r.T("confirm.move.means", id.Arg, w)
		}
	}
	return []view.Reply{{
		Ephemeral: true,
		Content:   ask,
		Components: [][]view.Component{{
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "moveok", id.Arg), Label: r.T("btn.confirm"), Style: view.Success},
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "keep"), Label: r.T("btn.cancel"), Style: view.Secondary},
		}},
	}}, nil
}

func moveOK(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, id view.CustomID) ([]view.Reply, error) {
	return app.Confirmed(r, g, r.T("played.you", id.Arg))(b.Play(ctx, r, g, id.Seq, id.Arg))
}

// moveChosen plays a move chosen in a menu (its value) or carried by the id.
func moveChosen(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, id view.CustomID) ([]view.Reply, error) {
	text := id.Arg
	if len(r.Values) > 0 {
		text = r.Values[0]
	}
	return b.Play(ctx, r, g, id.Seq, text)
}

// typeMove opens the typed-move form, and plays what it brings back.
func typeMove(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, id view.CustomID) ([]view.Reply, error) {
	_, pos, err := b.MustMove(r, g)
	if err != nil {
		return nil, err
	}
	if r.Kind == app.KindModal {
		if len(r.Values) == 0 || strings.TrimSpace(r.Values[0]) == "" {
			return nil, app.Refuse("refuse.nomove", engine.ExampleMove(pos))
		}
		return b.Play(ctx, r, g, id.Seq, r.Values[0])
	}
	return []view.Reply{app.MoveForm(r, pos, view.GameID(g.ID, g.Seq, "type"))}, nil
}
