package app

import (
	"strconv"

	"github.com/tankbot/tankbot/bot/movepick"
	"github.com/tankbot/tankbot/engine"
)

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
