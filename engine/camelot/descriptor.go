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
