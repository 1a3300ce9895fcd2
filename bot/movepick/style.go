package movepick

import (
	"cmp"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// Prompts names what each level of a game's picker chooses; the menu's
// placeholder is the catalog's "movepick.prompt.<name>". Unknown games get
// "step".
var Prompts = map[string][]string{
	"tank":    {"piece", "destination", "facing", "target"},
	"camelot": {"piece", "destination", "route"},
	"gungi":   {"piece", "square", "action"},
}

// style is how one game's steps are ordered and labelled. The steps are
// the engines' notation (see their Steps methods); labels are notation plus
// words from the message catalog in the player's language.
type style struct {
	prompts []string
	// rank orders the steps of a level before the natural order.
	rank func(level int, step string) int
	// name labels a step; chosen are the steps chosen before it.
	name func(loc string, pos engine.Position, level int, chosen []string, step string) string
}

var styles = map[string]*style{
	"tank":    {prompts: Prompts["tank"], rank: tankRank, name: tankLabel},
	"camelot": {prompts: Prompts["camelot"], name: camelotLabel},
	"gungi":   {prompts: Prompts["gungi"], rank: gungiRank, name: gungiLabel},
}

var generic = &style{}

func styleFor(pos engine.Position) *style {
	if s, ok := styles[pos.Rules().Name()]; ok {
		return s
	}
	return generic
}

func (s *style) prompt(level int) string {
	if level < len(s.prompts) {
		return s.prompts[level]
	}
	return "step"
}

func (s *style) label(loc string, pos engine.Position, level int, chosen []string, step string) string {
	if s.name != nil {
		if l := s.name(loc, pos, level, chosen, step); l != "" {
			return l
		}
	}
	if step == "" {
		return "—"
	}
	return step
}

// compare orders the options of a level: "" (none) first, then by the
// game's rank, then naturally (numbers by value: C9 before C10).
func (s *style) compare(level int, a, b string) int {
	if (a == "") != (b == "") {
		if a == "" {
			return -1
		}
		return 1
	}
	if s.rank != nil {
		if c := cmp.Compare(s.rank(level, a), s.rank(level, b)); c != 0 {
			return c
		}
	}
	return natural(a, b)
}

// natural compares strings case-insensitively with runs of digits compared
// by value; equal-looking strings fall back to byte order, so the order is
// total.
func natural(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(lower(a[i]), lower(b[j])); c != 0 {
			return c
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// pieceName asks the position (a tank.Position, or a wrapper) for the
// short name of the piece on a square.
func pieceName(pos engine.Position, square string) string {
	if n, ok := pos.(PieceNamer); ok {
		return n.PieceName(square)
	}
	return ""
}

func withPiece(pos engine.Position, square string) string {
	if n := pieceName(pos, square); n != "" {
		return n + " " + square
	}
	return square
}

// Tank Chess: [from, to or "OFF", facing, target or ""].

var compass = []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
var arrows = []string{"↑", "↗", "→", "↘", "↓", "↙", "←", "↖"}

func tankRank(level int, step string) int {
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

func tankLabel(loc string, pos engine.Position, level int, chosen []string, step string) string {
	switch level {
	case 0:
		return withPiece(pos, step)
	case 1:
		switch {
		case step == "OFF":
			return i18n.T(loc, "movepick.tank.escape")
		case len(chosen) > 0 && step == chosen[0]:
			return i18n.T(loc, "movepick.tank.spin", step)
		}
	case 2:
		for i, d := range compass {
			if d == step {
				return d + " " + arrows[i]
			}
		}
	case 3:
		if step == "" {
			return i18n.T(loc, "movepick.tank.noshot")
		}
		return "×" + withPiece(pos, step)
	}
	return ""
}

// Camelot: [from, to, full route].

func camelotLabel(loc string, pos engine.Position, level int, _ []string, step string) string {
	if level != 0 {
		return ""
	}
	if n := pieceName(pos, step); n != "" {
		return n + " " + step
	}
	// camelot.Position.At names the piece on a square ('K', 'm', ...).
	if a, ok := pos.(interface{ At(string) byte }); ok {
		switch lower(a.At(step)) {
		case 'k':
			return i18n.T(loc, "movepick.camelot.knight", step)
		case 'm':
			return i18n.T(loc, "movepick.camelot.man", step)
		}
	}
	return ""
}

// Gungi: [letter+from, to, "-" | "x" | "^"] for board moves, ["*P", to] for
// drops, ["ready"].

// gungiKinds are the piece letters in hand order (strongest first) and
// their names, as in engine/gungi.
const gungiKinds = "MGLSYKBTWFCNP"

func gungiKind(c byte) int { return strings.IndexByte(gungiKinds, c) }

func gungiRank(level int, step string) int {
	switch level {
	case 0:
		// Pieces on the board by kind, then drops by kind, then ready.
		switch {
		case step == "ready":
			return 100
		case strings.HasPrefix(step, "*") && len(step) == 2:
			return 50 + gungiKind(step[1])
		case step != "":
			return gungiKind(step[0])
		}
	case 2:
		return strings.Index("-x^", step)
	}
	return 0
}

// gungiName is the piece's name in the player's language ("gungi.piece.M").
func gungiName(loc string, letter byte) string {
	key := "gungi.piece." + string(letter)
	return i18n.T(loc, key)
}

func gungiLabel(loc string, pos engine.Position, level int, chosen []string, step string) string {
	switch level {
	case 0:
		switch {
		case step == "ready":
			return i18n.T(loc, "movepick.gungi.ready")
		case len(step) == 2 && step[0] == '*' && gungiKind(step[1]) >= 0:
			return i18n.T(loc, "movepick.gungi.drop", gungiName(loc, step[1]))
		case len(step) > 1 && gungiKind(step[0]) >= 0:
			return gungiName(loc, step[0]) + " " + step[1:]
		}
	case 2:
		to := ""
		if len(chosen) > 1 {
			to = chosen[1]
		}
		switch step {
		case "-":
			return i18n.T(loc, "movepick.gungi.move", to)
		case "x":
			return i18n.T(loc, "movepick.gungi.attack", to)
		case "^":
			return i18n.T(loc, "movepick.gungi.stack", to)
		}
	}
	return ""
}
