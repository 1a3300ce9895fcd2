package movepick

import (
	"cmp"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// Prompts names what each level of a game's picker chooses, by game (from
// the games' descriptors); the menu's placeholder is the catalog's
// "movepick.prompt.<name>". Unknown games get "step".
var Prompts = func() map[string][]string {
	out := map[string][]string{}
	for _, d := range games.Descriptors() {
		out[d.Rules.Name()] = d.Picker.Prompts
	}
	return out
}()

// style is how one game's steps are ordered and labelled: its
// descriptor's picker style. The steps are the engines' notation (see
// their Steps methods); labels are notation plus words from the message
// catalog in the player's language.
type style struct{ engine.PickerStyle }

func styleFor(pos engine.Position) *style {
	d, _ := games.Describe(pos.Rules().Name())
	return &style{d.Picker}
}

func (s *style) prompt(level int) string {
	if level < len(s.Prompts) {
		return s.Prompts[level]
	}
	return "step"
}

func (s *style) label(loc string, pos engine.Position, level int, chosen []string, step string) string {
	if s.Label != nil {
		if l := s.Label(i18n.Text(loc), pos, level, chosen, step); l != "" {
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
	if s.Rank != nil {
		if c := cmp.Compare(s.Rank(level, a), s.Rank(level, b)); c != 0 {
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
