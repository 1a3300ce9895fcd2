package app

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/movepick"
	"github.com/tankbot/tankbot/engine"
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
var pickerActions = []action{
	{name: "pick", doc: "Pick a move, on the board: opens the guided picker, just for the player to move.", run: (*Bot).pick},
	{name: "picksel", doc: "The picker's menu (the chosen value is the picker's state).", run: (*Bot).pick},
	{name: "pickgo", arg: "<state>", doc: "The picker's Back (at the first menu without a state).", run: (*Bot).pick},
	{name: "pickok", arg: "<move>", doc: "The picker's Confirm: plays the move shown.", run: (*Bot).pickConfirm},
}

// pick shows the picker's menu for the clicked state: the first menu as a
// new message only the player sees, later ones by editing that message.
func (b *Bot) pick(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	_, pos, err := b.mustMove(r, g)
	if err != nil {
		return nil, err
	}
	reply, err := pickerMenu(r, pos, pickState(r, id.arg), id.action != "pick",
		func(action string, arg ...string) string { return gameID(g.ID, g.Seq, action, arg...) })
	if err != nil {
		return nil, err
	}
	return []Reply{reply}, nil
}

// pickIDs names the picker's components ("pick", "picksel", "pickgo",
// "pickok" with their argument) for the position they were drawn for: a
// game's board (gameID, pinned by its seq) or a puzzle's step (puzzleID).
type pickIDs func(action string, arg ...string) string

// pickState is the picker state a click carries: the menu's chosen value,
// else the button's argument.
func pickState(r *req, arg string) string {
	if len(r.Values) > 0 {
		return r.Values[0]
	}
	return arg
}

// pickerMenu is the picker's message for state on pos, only for the
// player: a new message (the first menu) or an edit of the picker's own
// message (update). One picker serves games and puzzles alike.
func pickerMenu(r *req, pos engine.Position, state string, update bool, ids pickIDs) (Reply, error) {
	m, err := movepick.Open(pos, state, r.loc)
	if err != nil {
		return Reply{}, pickerErr(err)
	}
	reply := Reply{Ephemeral: true, Update: update, Content: pickerText(r, m)}
	var nav []Component
	if m.CanBack {
		nav = append(nav, Component{Kind: Button, CustomID: ids("pickgo", m.Back), Label: r.t("btn.back"), Style: Secondary})
	}
	if m.Complete() {
		nav = append([]Component{{Kind: Button, CustomID: ids("pickok", m.Notation), Label: r.t("btn.confirm"), Style: Success}}, nav...)
		reply.Components = [][]Component{nav}
		return reply, nil
	}
	menu := Component{Kind: Select, CustomID: ids("picksel"), Placeholder: r.t(promptKey(m))}
	for _, o := range m.Options {
		opt := Option{Label: o.Label, Value: o.State}
		if o.Nav == movepick.NavNone && o.Moves > 1 {
			opt.Description = r.t("movepick.moves", strconv.Itoa(o.Moves))
		}
		menu.Options = append(menu.Options, opt)
	}
	reply.Components = [][]Component{{menu}}
	if len(nav) > 0 {
		reply.Components = append(reply.Components, nav)
	}
	return reply, nil
}

// pickConfirm plays the move the Confirm button names, as the player read
// it; play checks it is legal and that the game has not moved on.
func (b *Bot) pickConfirm(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	if id.arg == "" {
		return nil, refuse("refuse.pickincomplete")
	}
	// The picker's message then says what was played, without buttons.
	return confirmed(r, g, r.t("played.you", id.arg))(b.play(ctx, r, g, id.seq, id.arg))
}

// pickerText says what has been chosen and what to choose next.
func pickerText(r *req, m *movepick.Menu) string {
	if m.Complete() {
		return r.t("movepick.ready", m.Notation)
	}
	var chosen []string
	for _, c := range m.Chosen {
		chosen = append(chosen, c.Label)
	}
	text := r.t(promptKey(m)) + "."
	if len(chosen) > 0 {
		text = r.t("picker.prompt", strings.Join(chosen, " · ")) + "\n" + text
	}
	if m.Pages > 1 {
		text += " (" + r.t("movepick.page", strconv.Itoa(m.Page+1), strconv.Itoa(m.Pages)) + ")"
	}
	return text
}

// pickerErr turns the picker's errors into refusals: a state that does not
// fit the position is stale (the ply check passed, so it was forged).
func pickerErr(err error) error {
	switch {
	case errors.Is(err, movepick.ErrMalformed), errors.Is(err, movepick.ErrStale):
		return refuse("refuse.stale")
	case errors.Is(err, movepick.ErrNoMoves):
		return refuse("refuse.nolegal")
	}
	return wrap("move picker", err)
}

// promptKey is the catalog key of what the menu asks for (movepick.Prompts).
func promptKey(m *movepick.Menu) string { return "movepick.prompt." + m.Prompt }
