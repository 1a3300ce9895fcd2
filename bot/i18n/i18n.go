// Package i18n is the bot's one message catalog: every string a player reads
// comes from here, in English, Thai and Brazilian Portuguese. Templates use
// the engine's {0}, {1}, ... placeholders.
package i18n

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// Locale ids the catalog holds. Pseudo wraps every English string in ⟦ ⟧ so
// tests can prove a reply holds no text that bypassed the catalog.
const (
	English    = "en"
	Thai       = "th"
	Portuguese = "pt-BR"
	Pseudo     = "x-pseudo"
)

// Locales are the real languages, English first.
var Locales = []string{English, Thai, Portuguese}

var tables = map[string]map[string]string{
	English:    en,
	Thai:       th,
	Portuguese: ptBR,
}

// addTables merges a part of the catalog kept in a file of its own (a
// feature's or an engine's keys, given prefix) into each language's table.
func addTables(prefix string, parts map[string]map[string]string) {
	for loc, m := range parts {
		for k, v := range m {
			tables[loc][prefix+k] = v
		}
	}
}

// Normalize maps a Discord locale ("en-US", "pt-BR", "th") or a /settings
// value onto a catalog locale; unknown locales give "".
func Normalize(locale string) string {
	l := strings.ToLower(strings.TrimSpace(locale))
	switch {
	case l == "x-pseudo":
		return Pseudo
	case l == "th" || strings.HasPrefix(l, "th-"):
		return Thai
	case l == "pt" || strings.HasPrefix(l, "pt-"):
		return Portuguese
	case l == "en" || strings.HasPrefix(l, "en-"):
		return English
	}
	return ""
}

// Has reports whether key exists in the English table (the reference).
func Has(key string) bool {
	_, ok := en[key]
	return ok
}

// T returns the message key in locale, filled with args. A key missing in a
// language falls back to English; a key missing everywhere returns the key
// itself so the gap is visible (tests forbid it).
func T(locale, key string, args ...string) string {
	loc := Normalize(locale)
	if loc == Pseudo {
		return "⟦" + engine.Fill(lookup(English, key), args) + "⟧"
	}
	if loc == "" {
		loc = English
	}
	return engine.Fill(lookup(loc, key), args)
}

func lookup(loc, key string) string {
	if s, ok := tables[loc][key]; ok {
		return s
	}
	if s, ok := en[key]; ok {
		return s
	}
	return key
}

// Keys returns every key of a locale's table (for the completeness test).
func Keys(locale string) []string {
	t := tables[Normalize(locale)]
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	return out
}

// Lookup returns the raw template and whether the locale has it.
func Lookup(locale, key string) (string, bool) {
	s, ok := tables[Normalize(locale)][key]
	return s, ok
}

// Wrapped reports whether s is entirely made of pseudo-locale pieces, with
// only whitespace and punctuation between them: the check behind the "no
// text outside the catalog" test.
func Wrapped(s string) bool {
	for {
		i := strings.Index(s, "⟦")
		if i < 0 {
			return strings.TrimFunc(s, isGlue) == ""
		}
		if strings.TrimFunc(s[:i], isGlue) != "" {
			return false
		}
		depth, j := 0, i
		for j < len(s) {
			switch {
			case strings.HasPrefix(s[j:], "⟦"):
				depth++
				j += len("⟦")
			case strings.HasPrefix(s[j:], "⟧"):
				depth--
				j += len("⟧")
			default:
				j++
			}
			if depth == 0 {
				break
			}
		}
		if depth != 0 {
			return false
		}
		s = s[j:]
	}
}

func isGlue(r rune) bool {
	return strings.ContainsRune(" \n\t·•—-:|*_`>()[],.", r)
}
