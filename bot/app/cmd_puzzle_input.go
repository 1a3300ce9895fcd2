package app

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// The puzzle board's move input: the same guided picker and typed-move form
// as a game's board (pickerMenu, moveForm), on the private puzzle message.
// Their custom ids pin the puzzle and the step they were drawn for, so a
// click on an older board of the puzzle is refused as stale:
//
//	pz:<puzzle>:<step>:pick              Pick a move: opens the picker (a new private message)
//	pz:<puzzle>:<step>:picksel           the picker's menu (the chosen value is the state)
//	pz:<puzzle>:<step>:pickgo[:<state>]  the picker's Back
//	pz:<puzzle>:<step>:pickok:<move>     Confirm: answers the move; the picker's message becomes the next board
//	pz:<puzzle>:<step>:type              Type a move: the form (submitted with the same id)
//	pz:<puzzle>:<step>:hint              the hint, as /puzzle hint:true

// puzzlePrefix starts the custom ids of a puzzle board's components.
const puzzlePrefix = "pz"

var puzzleRoute = route{
	prefix: puzzlePrefix,
	format: "pz:<puzzle>:<step>:<action>[:<arg>]",
	doc: "Pick a move (`pick`, its menu `picksel`, Back `pickgo`, Confirm `pickok`), Type a move (`type`, the form) and Hint (`hint`) " +
		"on the private puzzle board: only the solver's puzzle at the step it was drawn for.",
	run: (*Bot).puzzleAction,
}

// puzzleID is the custom id of a puzzle board's component.
func puzzleID(pz string, step int, action string, arg ...string) string {
	s := puzzlePrefix + ":" + pz + ":" + strconv.Itoa(step) + ":" + action
	if len(arg) > 0 && arg[0] != "" {
		s += ":" + arg[0]
	}
	return s
}

// parsePuzzleID reads a custom id written by puzzleID.
func parsePuzzleID(s string) (id string, step int, action, arg string, ok bool) {
	parts := strings.SplitN(s, ":", 5)
	if len(parts) < 4 || parts[0] != puzzlePrefix || parts[1] == "" || parts[3] == "" {
		return "", 0, "", "", false
	}
	step, err := strconv.Atoi(parts[2])
	if err != nil || step < 0 || strconv.Itoa(step) != parts[2] {
		return "", 0, "", "", false
	}
	if len(parts) == 5 {
		arg = parts[4]
	}
	return parts[1], step, parts[3], arg, true
}

// puzzleButtons are the puzzle board's inputs at st's step.
func puzzleButtons(r *req, st *puzzleState) [][]Component {
	id, step := st.pz.ID, st.a.Step
	return [][]Component{{
		{Kind: Button, CustomID: puzzleID(id, step, "pick"), Label: r.t("btn.pick"), Style: Primary},
		{Kind: Button, CustomID: puzzleID(id, step, "type"), Label: r.t("btn.type"), Style: Primary},
		{Kind: Button, CustomID: puzzleID(id, step, "hint"), Label: r.t("btn.puzzle.hint"), Style: Secondary},
	}}
}

// puzzleAction runs a puzzle board's component for the caller's own
// puzzle in progress.
func (b *Bot) puzzleAction(ctx context.Context, r *req) ([]Reply, error) {
	id, step, action, arg, ok := parsePuzzleID(r.CustomID)
	if !ok {
		return nil, refuse("refuse.unknown")
	}
	st, err := b.activePuzzle(ctx, r)
	if err != nil {
		return nil, err
	}
	if st.pz.ID != id || st.a.Step != step {
		return nil, refuse("refuse.puzzle.stale")
	}
	ids := func(action string, arg ...string) string { return puzzleID(st.pz.ID, st.a.Step, action, arg...) }
	switch action {
	case "pick", "picksel", "pickgo":
		reply, err := pickerMenu(r, st.pos, pickState(r, arg), action != "pick", ids)
		var rf *refusal
		if errors.As(err, &rf) && rf.key == "refuse.stale" {
			return nil, refuse("refuse.puzzle.stale") // in a puzzle's words
		}
		if err != nil {
			return nil, err
		}
		return []Reply{reply}, nil
	case "pickok":
		if arg == "" {
			return nil, refuse("refuse.pickincomplete")
		}
		// The picker's message becomes the board after the answer.
		return updated(b.puzzleMove(ctx, r, arg))
	case "type":
		if r.Kind != KindModal {
			return []Reply{moveForm(r, st.pos, ids("type"))}, nil
		}
		if len(r.Values) == 0 || strings.TrimSpace(r.Values[0]) == "" {
			return nil, refuse("refuse.nomove", engine.ExampleMove(st.pos))
		}
		return b.puzzleMove(ctx, r, strings.TrimSpace(r.Values[0]))
	case "hint":
		return b.puzzleHint(ctx, r)
	}
	return nil, refuse("refuse.unknown")
}

// updated makes private answers edit the message of the component clicked.
func updated(out []Reply, err error) ([]Reply, error) {
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Update = out[i].Ephemeral
	}
	return out, nil
}
