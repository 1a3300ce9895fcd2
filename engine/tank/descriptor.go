package tank

import "github.com/tankbot/tankbot/engine"

// Descriptor presents Tank Chess to the bot (engine.Descriptor).
var Descriptor = engine.Descriptor{
	Rules: Rules,
	Examples: map[string][]string{
		"basic16": {"C3 > C5N", "F1 > G3NE"},
		"basic20": {"E2 > E3NE", "G1 > F3NW"},
	},
	Picker: engine.PickerStyle{
		Prompts: []string{"piece", "destination", "facing", "target"},
		Rank:    pickRank,
		Label:   pickLabel,
	},
	Legend: "upper case White, lower case Black: C command light tank, L light, M medium, H heavy tank, D tank destroyer, R heavy mortar, " +
		"followed by the facing (n ne e se s sw w nw); x before a piece: a wreck; # obstacle; . empty. " +
		"Under the board: the side to move (w, b) and the move number.",
	Messages: Messages,
}

// The picker's steps: [from, to or "OFF", facing, target or ""].

var compass = []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
var arrows = []string{"↑", "↗", "→", "↘", "↓", "↙", "←", "↖"}

func pickRank(level int, step string) int {
	switch level {
	case 1:
		if step == "OFF" {
			return 1 // the escape after the squares
		}
	case 2:
		for i, d := range compass {
			if d == step {
				return i // clockwise from north, not alphabetical
			}
		}
	}
	return 0
}

func pickLabel(t engine.Translator, pos engine.Position, level int, chosen []string, step string) string {
	switch level {
	case 0:
		return withPiece(pos, step)
	case 1:
		switch {
		case step == "OFF":
			return t("movepick.tank.escape")
		case len(chosen) > 0 && step == chosen[0]:
			return t("movepick.tank.spin", step)
		}
	case 2:
		for i, d := range compass {
			if d == step {
				return d + " " + arrows[i]
			}
		}
	case 3:
		if step == "" {
			return t("movepick.tank.noshot")
		}
		return "×" + withPiece(pos, step)
	}
	return ""
}

// withPiece is a square with the short name of the piece on it ("LT F3").
func withPiece(pos engine.Position, square string) string {
	if p, ok := pos.(interface{ PieceName(string) string }); ok {
		if n := p.PieceName(square); n != "" {
			return n + " " + square
		}
	}
	return square
}
