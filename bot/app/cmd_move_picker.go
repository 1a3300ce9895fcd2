package app

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/movepick"
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
