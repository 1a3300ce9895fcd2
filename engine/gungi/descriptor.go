package gungi

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// Descriptor presents Gungi to the bot (engine.Descriptor). The draft
// starts on an empty board, so /rules shows the quick formation.
var Descriptor = engine.Descriptor{
	Rules: Rules,
	Examples: map[string][]string{
		"draft": {"M*a7", "M*e9"},
		"quick": {"Pe3-e4", "Wd3-c4"},
	},
	Showcase: "quick",
	Picker: engine.PickerStyle{
		Prompts: []string{"piece", "square", "action"},
		Rank:    pickRank,
		Label:   pickLabel,
	},
	Words: map[string]string{
		"placing":       "fact.gungi.placing",
		"placing-alone": "fact.gungi.placing-alone",
		"quick":         "gungi.formation-name.quick",
	},
	Legend: "upper case White, lower case Black: M marshal, G general, L lieutenant general, S major general, Y archer, K knight, " +
		"B musketeer, T captain, W samurai, F fortress, C cannon, N spy, P pawn; (Pt) a tower, bottom to top; . empty. " +
		"Under the board: the side to act (w, b), who is ready (-, w, b, wb), the hands (White's/Black's, letter and count) and the turn count (one per action).",
	Messages: Messages,
}

// The picker's steps: [letter+from, to, "-" | "x" | "^"] for board moves,
// ["*P", to] for drops, ["ready"].

// pickKinds are the piece letters in hand order (strongest first).
const pickKinds = "MGLSYKBTWFCNP"

func pickKind(c byte) int { return strings.IndexByte(pickKinds, c) }

func pickRank(level int, step string) int {
	switch level {
	case 0:
		// Pieces on the board by kind, then drops by kind, then ready.
		switch {
		case step == "ready":
			return 100
		case strings.HasPrefix(step, "*") && len(step) == 2:
			return 50 + pickKind(step[1])
		case step != "":
			return pickKind(step[0])
		}
	case 2:
		return strings.Index("-x^", step)
	}
	return 0
}

func pickLabel(t engine.Translator, pos engine.Position, level int, chosen []string, step string) string {
	name := func(letter byte) string { return t("gungi.piece." + string(letter)) }
	switch level {
	case 0:
		switch {
		case step == "ready":
			return t("movepick.gungi.ready")
		case len(step) == 2 && step[0] == '*' && pickKind(step[1]) >= 0:
			return t("movepick.gungi.drop", name(step[1]))
		case len(step) > 1 && pickKind(step[0]) >= 0:
			return name(step[0]) + " " + step[1:]
		}
	case 2:
		to := ""
		if len(chosen) > 1 {
			to = chosen[1]
		}
		switch step {
		case "-":
			return t("movepick.gungi.move", to)
		case "x":
			return t("movepick.gungi.attack", to)
		case "^":
			return t("movepick.gungi.stack", to)
		}
	}
	return ""
}
