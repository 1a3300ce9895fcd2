package app

import (
	"errors"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/movepick"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// PickState is the picker state a click carries: the menu's chosen value,
// else the button's argument.
func PickState(r *Req, arg string) string {
	if len(r.Values) > 0 {
		return r.Values[0]
	}
	return arg
}

// PickerMenu is the picker's message for state on pos, only for the
// player: a new message (the first menu) or an edit of the picker's own
// message (update). One picker serves games and puzzles alike.
func PickerMenu(r *Req, pos engine.Position, state string, update bool, ids pickIDs) (view.Reply, error) {
	m, err := movepick.Open(pos, state, r.Locale())
	if err != nil {
		return view.Reply{}, pickerErr(err)
	}
	reply := view.Reply{Ephemeral: true, Update: update, Content: pickerText(r, m)}
	var nav []view.Component
	if m.CanBack {
		nav = append(nav, view.Component{Kind: view.Button, CustomID: ids("pickgo", m.Back), Label: r.T("btn.back"), Style: view.Secondary})
	}
	if m.Complete() {
		nav = append([]view.Component{{Kind: view.Button, CustomID: ids("pickok", m.Notation), Label: r.T("btn.confirm"), Style: view.Success}}, nav...)
		reply.Components = [][]view.Component{nav}
		return reply, nil
	}
	menu := view.Component{Kind: view.Select, CustomID: ids("picksel"), Placeholder: r.T(promptKey(m))}
	for _, o := range m.Options {
		opt := view.Option{Label: o.Label, Value: o.State}
		if o.Nav == movepick.NavNone && o.Moves > 1 {
			opt.Description = r.T("movepick.moves", strconv.Itoa(o.Moves))
		}
		menu.Options = append(menu.Options, opt)
	}
	reply.Components = [][]view.Component{{menu}}
	if len(nav) > 0 {
		reply.Components = append(reply.Components, nav)
	}
	return reply, nil
}

// pickIDs names the picker's components ("pick", "picksel", "pickgo",
// "pickok" with their argument) for the position they were drawn for: a
// game's board (gameID, pinned by its seq) or a puzzle's step (puzzleID).
type pickIDs func(action string, arg ...string) string

// pickerText says what has been chosen and what to choose next.
func pickerText(r *Req, m *movepick.Menu) string {
	if m.Complete() {
		return r.T("movepick.ready", m.Notation)
	}
	var chosen []string
	for _, c := range m.Chosen {
		chosen = append(chosen, c.Label)
	}
	text := r.T(promptKey(m)) + "."
	if len(chosen) > 0 {
		text = r.T("picker.prompt", strings.Join(chosen, " · ")) + "\n" + text
	}
	if m.Pages > 1 {
		text += " (" + r.T("movepick.page", strconv.Itoa(m.Page+1), strconv.Itoa(m.Pages)) + ")"
	}
	return text
}

// pickerErr turns the picker's errors into refusals: a state that does not
// fit the position is stale (the ply check passed, so it was forged).
func pickerErr(err error) error {
	switch {
	case errors.Is(err, movepick.ErrMalformed), errors.Is(err, movepick.ErrStale):
		return Refuse("refuse.stale")
	case errors.Is(err, movepick.ErrNoMoves):
		return Refuse("refuse.nolegal")
	}
	return Wrap("move picker", err)
}

// promptKey is the catalog key of what the menu asks for (movepick.Prompts).
func promptKey(m *movepick.Menu) string { return "movepick.prompt." + m.Prompt }
