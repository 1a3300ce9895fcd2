// Package names holds how player names travel through the bot's output:
// marked, so that each transport shows them its way at output, and only
// there.
package names

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Player names are text players chose. They are kept and stored as typed
// and travel through the bot's output marked (isolated between U+2068 and
// U+2069, the Unicode isolates meant for text of unknown content), so that
// each transport shows them its way at output, and only there: the Discord
// adapter escapes the markdown in them (Reply.WithText), the console and
// the record files print them plain (PlainText).
const (
	nameStart = '\u2068'
	nameEnd   = '\u2069'
)

// maxName is Discord's length of a display name.
const maxName = 32

// MarkName marks s as a player's name in output ("" stays "").
func MarkName(s string) string {
	if s == "" {
		return ""
	}
	return string(nameStart) + s + string(nameEnd)
}

// cleanName is a name as it arrives, made fit to show: control characters
// become spaces, marks a player typed are dropped, and it is clipped to
// Discord's 32 runes. It is not escaped.
// UserName is a name a command brings in, as the output carries it:
// cleaned (cleanName) and marked.
func UserName(s string) string { return MarkName(cleanName(s)) }

func cleanName(s string) string {
	return clip(strings.Map(func(r rune) rune {
		switch {
		case r == nameStart || r == nameEnd:
			return -1
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, s), maxName)
}

// PlainText is s with its names' marks removed: the names as typed.
func PlainText(s string) string {
	if !strings.ContainsAny(s, string([]rune{nameStart, nameEnd})) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == nameStart || r == nameEnd {
			return -1
		}
		return r
	}, s)
}

// MarkedText is s with each marked name replaced by f(name) and the marks
// removed (a mark left open by clipping runs to the end).
func MarkedText(s string, f func(name string) string) string {
	if !strings.ContainsRune(s, nameStart) {
		return PlainText(s)
	}
	var sb strings.Builder
	for {
		i := strings.IndexRune(s, nameStart)
		if i < 0 {
			sb.WriteString(PlainText(s))
			return sb.String()
		}
		sb.WriteString(PlainText(s[:i]))
		s = s[i+len(string(nameStart)):]
		j := strings.IndexRune(s, nameEnd)
		if j < 0 {
			j = len(s)
		}
		sb.WriteString(f(PlainText(s[:j])))
		s = s[min(len(s), j+len(string(nameEnd))):]
	}
}

// clip keeps at most n runes of s, the last an ellipsis when cut (as
// bot/view's ClipRunes, which this leaf package cannot import).
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
