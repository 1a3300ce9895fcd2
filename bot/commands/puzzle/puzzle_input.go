package puzzle

import (
	"context"
	"errors"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

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

var puzzleRoute = app.RouteDef{
	Prefix: app.PuzzlePrefix,
	Format: "pz:<puzzle>:<step>:<action>[:<arg>]",
	Doc: "Pick a move (`pick`, its menu `picksel`, Back `pickgo`, Confirm `pickok`), Type a move (`type`, the form) and Hint (`hint`) " +
		"on the private puzzle board: only the solver's puzzle at the step it was drawn for.",
	Run: puzzleAction,
}

// puzzleAction runs a puzzle board's component for the caller's own
// puzzle in progress.
func puzzleAction(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	id, step, action, arg, ok := app.ParsePuzzleID(r.CustomID)
	if !ok {
		return nil, app.Refuse("refuse.unknown")
	}
	st, err := b.CurrentPuzzle(ctx, r)
	if err != nil {
		return nil, err
	}
	if st.Puzzle.ID != id || st.Active.Step != step {
		return nil, app.Refuse("refuse.puzzle.stale")
	}
	ids := func(action string, arg ...string) string {
		return app.PuzzleID(st.Puzzle.ID, st.Active.Step, action, arg...)
	}
	switch action {
	case "pick", "picksel", "pickgo":
		reply, err := app.PickerMenu(r, st.Pos, app.PickState(r, arg), action != "pick", ids)
		var rf *app.Refusal
		if errors.As(err, &rf) && rf.Key == "refuse.stale" {
			return nil, app.Refuse("refuse.puzzle.stale") // in a puzzle's words
		}
		if err != nil {
			return nil, err
		}
		return []view.Reply{reply}, nil
	case "pickok":
		if arg == "" {
			return nil, app.Refuse("refuse.pickincomplete")
		}
		// The picker's message becomes the board after the answer.
		return updated(puzzleMove(b, ctx, r, arg))
	case "type":
		if r.Kind != app.KindModal {
			return []view.Reply{app.MoveForm(r, st.Pos, ids("type"))}, nil
		}
		if len(r.Values) == 0 || strings.TrimSpace(r.Values[0]) == "" {
			return nil, app.Refuse("refuse.nomove", engine.ExampleMove(st.Pos))
		}
		return puzzleMove(b, ctx, r, strings.TrimSpace(r.Values[0]))
	case "hint":
		return puzzleHint(b, ctx, r)
	}
	return nil, app.Refuse("refuse.unknown")
}

// updated makes private answers edit the message of the component clicked.
func updated(out []view.Reply, err error) ([]view.Reply, error) {
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Update = out[i].Ephemeral
	}
	return out, nil
}
