package app

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

var moveCmd = command{
	name: "move",
	doc:  "Play a move; forgiving input (`C3 > C5N`, `c3-c5n` and `c3 c5` are one move); autocomplete lists the legal moves matching what you typed.",
	opts: []optDef{{name: "move", typ: String, required: true, suggest: suggestMove}, gameOpt},
	run:  (*Bot).moveCommand,
	actions: append([]action{
		{name: "type", doc: "Type a move, on the board: a form (submitted with the same id).", run: (*Bot).typeMove},
		{name: "move", arg: "<move>", doc: "Plays the move carried or chosen.", run: (*Bot).moveChosen},
		{name: "moveask", arg: "<move>", doc: "A move that stands for many (finish my draft): asks for a confirmation first.", run: (*Bot).moveAsk},
		{name: "moveok", arg: "<move>", doc: "Confirm of that question: plays the move.", run: (*Bot).moveOK},
	}, pickerActions...),
}

func (b *Bot) moveCommand(ctx context.Context, r *req) ([]Reply, error) {
	text := strings.TrimSpace(r.Options["move"])
	g, err := b.findGame(ctx, r)
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, b.noMove(r, g)
	}
	return b.play(ctx, r, g, g.Seq, text)
}

func (b *Bot) moveAsk(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	// A move that stands for many (finish my draft) cannot be taken
	// back: ask first.
	_, pos, err := b.mustMove(r, g)
	if err != nil {
		return nil, err
	}
	ask := r.t("confirm.move", id.arg)
	if m, err := pos.ParseMove(id.arg); err == nil {
		if w := moveWords(r.loc, pos, m); w != "" {
			ask = r.t("confirm.move.means", id.arg, w)
		}
	}
	return []Reply{{
		Ephemeral: true,
		Content:   ask,
		Components: [][]Component{{
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "moveok", id.arg), Label: r.t("btn.confirm"), Style: Success},
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "keep"), Label: r.t("btn.cancel"), Style: Secondary},
		}},
	}}, nil
}

func (b *Bot) moveOK(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	return confirmed(r, g, r.t("played.you", id.arg))(b.play(ctx, r, g, id.seq, id.arg))
}

// moveChosen plays a move chosen in a menu (its value) or carried by the id.
func (b *Bot) moveChosen(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	text := id.arg
	if len(r.Values) > 0 {
		text = r.Values[0]
	}
	return b.play(ctx, r, g, id.seq, text)
}

// typeMove opens the typed-move form, and plays what it brings back.
func (b *Bot) typeMove(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	_, pos, err := b.mustMove(r, g)
	if err != nil {
		return nil, err
	}
	if r.Kind == KindModal {
		if len(r.Values) == 0 || strings.TrimSpace(r.Values[0]) == "" {
			return nil, refuse("refuse.nomove", engine.ExampleMove(pos))
		}
		return b.play(ctx, r, g, id.seq, r.Values[0])
	}
	return []Reply{moveForm(r, pos, gameID(g.ID, g.Seq, "type"))}, nil
}
