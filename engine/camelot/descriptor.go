package camelot

import "github.com/tankbot/tankbot/engine"

// Descriptor presents Camelot to the bot (engine.Descriptor).
var Descriptor = engine.Descriptor{
	Rules:    Rules,
	Examples: map[string][]string{"start": {"F6-F5", "H6^F8"}},
	Picker: engine.PickerStyle{
		Prompts: []string{"piece", "destination", "route"},
		Label:   pickLabel,
	},
	Legend: "K, M White knight, man; k, m Black; . empty; the short rows are the castles (f1 g1, f16 g16) and the board's edges. " +
		"Under the board: the side to move (w, b), the castle moves White and Black have used, and the move number.",
	Messages: Messages,
}

// The picker's steps: [from, to, full route]; the first level names the
// piece on the square.
func pickLabel(t engine.Translator, pos engine.Position, level int, _ []string, step string) string {
	if level != 0 {
		return ""
	}
	if a, ok := pos.(interface{ At(string) byte }); ok {
		switch a.At(step) {
		case 'K', 'k':
			return t("movepick.camelot.knight", step)
		case 'M', 'm':
			return t("movepick.camelot.man", step)
		}
	}
	return ""
}
