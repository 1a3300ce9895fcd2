// Package i18n is the bot's one message catalog: every string a player reads
// comes from here, in English, Thai and Brazilian Portuguese. The texts are
// data, one JSON file per part and language under locales/<locale>/
// (embedded), which translators edit without touching code. Templates use
// the engine's {0}, {1}, ... placeholders; a message whose wording depends
// on a number is an object of CLDR plural forms ("one", "other", ...) chosen
// by its argument "count" (default 0).
package i18n

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

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

// tags are the locales' languages, for the plural rules.
var tags = map[string]language.Tag{
	English:    language.English,
	Thai:       language.Thai,
	Portuguese: language.BrazilianPortuguese,
}

//go:embed locales
var files embed.FS

// message is one catalog entry: its text by plural form (Other always
// set) and which argument selects the form.
type message struct {
	forms map[plural.Form]string
	count int
}

// tables are the catalog by locale; problems what loading it found wrong
// (a duplicate key, a file that does not parse), reported by Check.
var tables, problems = load()

// Check reports what is wrong with the catalog files: duplicate keys
// (within a file or across a language's files) and files that do not
// parse. The tests fail on it; the bot runs with what could be read.
func Check() error { return errors.Join(problems...) }

func load() (map[string]map[string]message, []error) {
	out := map[string]map[string]message{}
	var errs []error
	for _, loc := range Locales {
		out[loc] = map[string]message{}
		names, err := fs.Glob(files, "locales/"+loc+"/*.json")
		if err != nil {
			errs = append(errs, err)
		}
		for _, name := range names {
			data, err := files.ReadFile(name)
			if err == nil {
				err = parseFile(data, out[loc])
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", path.Join(loc, path.Base(name)), err))
			}
		}
	}
	return out, errs
}

// pluralForms are the CLDR form names a plural message may give.
var pluralForms = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two,
	"few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// parseFile reads one catalog file (an object of key: text, or key:
// {"count": n, "one": text, "other": text}) into into, refusing a key
// seen before (encoding/json would keep the last silently).
func parseFile(data []byte, into map[string]message) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if _, dup := into[key]; dup {
			return fmt.Errorf("key %q defined twice", key)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("key %q: %w", key, err)
		}
		m, err := parseMessage(raw)
		if err != nil {
			return fmt.Errorf("key %q: %w", key, err)
		}
		into[key] = m
	}
	return delim(dec, '}')
}

func delim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, tok)
	}
	return nil
}

func parseMessage(raw json.RawMessage) (message, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return message{forms: map[plural.Form]string{plural.Other: s}}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return message{}, errors.New("a text or an object of plural forms")
	}
	m := message{forms: map[plural.Form]string{}}
	for k, v := range obj {
		if k == "count" {
			if err := json.Unmarshal(v, &m.count); err != nil || m.count < 0 {
				return message{}, errors.New("count: an argument index")
			}
			continue
		}
		f, ok := pluralForms[k]
		if !ok {
			return message{}, fmt.Errorf("%q is no plural form", k)
		}
		if err := json.Unmarshal(v, &s); err != nil {
			return message{}, fmt.Errorf("form %s: a text", k)
		}
		m.forms[f] = s
	}
	if _, ok := m.forms[plural.Other]; !ok {
		return message{}, errors.New("a plural message needs its \"other\" form")
	}
	return m, nil
}

// addTables merges texts that live in code rather than in the files (the
// images' English words, the engines' English errors), under prefix.
func addTables(prefix string, parts map[string]map[string]string) {
	for loc, m := range parts {
		for k, v := range m {
			if _, dup := tables[loc][prefix+k]; dup {
				problems = append(problems, fmt.Errorf("%s: key %q defined twice", loc, prefix+k))
			}
			tables[loc][prefix+k] = message{forms: map[plural.Form]string{plural.Other: v}}
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
	_, ok := tables[English][key]
	return ok
}

// T returns the message key in locale, filled with args; a plural message
// takes the form its count argument asks for in that language. A key
// missing in a language falls back to English; a key missing everywhere
// returns the key itself so the gap is visible (tests forbid it).
func T(locale, key string, args ...string) string {
	loc := Normalize(locale)
	if loc == Pseudo {
		return "⟦" + engine.Fill(lookup(English, key, args), args) + "⟧"
	}
	if loc == "" {
		loc = English
	}
	return engine.Fill(lookup(loc, key, args), args)
}

func lookup(loc, key string, args []string) string {
	m, ok := tables[loc][key]
	if !ok {
		if m, ok = tables[English][key]; !ok {
			return key
		}
		loc = English
	}
	return m.pick(loc, args)
}

// pick chooses the plural form for the count argument (Other when it is
// missing or not a whole number).
func (m message) pick(loc string, args []string) string {
	if len(m.forms) > 1 && m.count < len(args) {
		if n, err := strconv.Atoi(args[m.count]); err == nil && n >= 0 {
			f := plural.Cardinal.MatchPlural(tags[loc], n, 0, 0, 0, 0)
			if s, ok := m.forms[f]; ok {
				return s
			}
		}
	}
	return m.forms[plural.Other]
}

// Keys returns every key of a locale's table (for the completeness test).
func Keys(locale string) []string {
	t := tables[Normalize(locale)]
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the raw template (the "other" form of a plural message)
// and whether the locale has it.
func Lookup(locale, key string) (string, bool) {
	m, ok := tables[Normalize(locale)][key]
	return m.forms[plural.Other], ok
}

// Forms returns the plural forms a locale gives key, by CLDR name (one
// entry, "other", for a plain text).
func Forms(locale, key string) map[string]string {
	m, ok := tables[Normalize(locale)][key]
	if !ok {
		return nil
	}
	out := map[string]string{}
	for name, f := range pluralForms {
		if s, ok := m.forms[f]; ok {
			out[name] = s
		}
	}
	return out
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
