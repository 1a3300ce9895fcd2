package move

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

// The guided move picker (bot/movepick holds the state machine). Its
// whole state travels in custom ids, so it survives restarts and a click
// on a picker drawn for an earlier position (seq, see ids.go) is refused as
// stale:
//
//	g:<game>:<seq>:pick             the board's button: open the picker
//	g:<game>:<seq>:picksel          the menu (the chosen value is the state)
//	g:<game>:<seq>:pickgo[:<state>] the Back button
//	g:<game>:<seq>:pickok:<move>    Confirm: play the move shown, in notation
//
// Confirm carries the move itself, not menu indices: whatever happened
// since, it can only play the move the player read on the picker.
//
// Each component of one message has its own action, so no two share a
// custom id (Discord refuses duplicates).

// pickerActions are the move command's picker components.
var pickerActions = []app.ActionDef{
	{Name: "pick", Doc: "Pick a move, on the board: opens the guided picker, just for the player to move.", Run: pick},
	{Name: "picksel", Doc: "The picker's menu (the chosen value is the picker's state).", Run: pick},
	{Name: "pickgo", Arg: "<state>", Doc: "The picker's Back (at the first menu without a state).", Run: pick},
	{Name: "pickok", Arg: "<move>", Doc: "The picker's Confirm: plays the move shown.", Run: pickConfirm},
}

// pick shows the picker's menu for the clicked state: the first menu as a
// new message only the player sees, later ones by editing that message.
func pick(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, id view.CustomID) ([]view.Reply, error) {
	_, pos, err := b.MustMove(r, g)
	if err != nil {
		return nil, err
	}
	reply, err := app.PickerMenu(r, pos, app.PickState(r, id.Arg), id.Action != "pick",
		func(action string, arg ...string) string { return view.GameID(g.ID, g.Seq, action, arg...) })
	if err != nil {
		return nil, err
	}
	return []view.Reply{reply}, nil
}

// pickConfirm plays the move the Confirm button names, as the player read
// it; play checks it is legal and that the game has not moved on.
func pickConfirm(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, id view.CustomID) ([]view.Reply, error) {
	if id.Arg == "" {
		return nil, app.Refuse("refuse.pickincomplete")
	}
	// The picker's message then says what was played, without buttons.
	return app.Confirmed(r, g, r.T("played.you", id.Arg))(b.Play(ctx, r, g, id.Seq, id.Arg))
}
