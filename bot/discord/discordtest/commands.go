package discordtest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Registering application commands (PUT .../commands, a bulk overwrite) as
// Discord's "Application Commands" page documents it: a list that breaks
// one of the rules below is refused whole with 400 Invalid Form Body
// (code 50035) and registers nothing. The rules:
//
//   - at most 100 commands, names unique;
//   - CHAT_INPUT command and option names, and their localizations, match
//     ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ and are lower case
//     where the letters have a lower case;
//   - descriptions (and their localizations) of 1–100 characters;
//   - localization keys are Discord locales;
//   - at most 25 options, names unique, required ones before optional ones;
//   - choices only on STRING, INTEGER and NUMBER options, at most 25, each
//     name 1–100 characters, never together with autocomplete;
//   - min_value/max_value only on INTEGER (whole numbers) and NUMBER
//     options, min_value ≤ max_value; channel_types only on CHANNEL;
//   - the names, descriptions and choice names and values of a command
//     together at most 4,000 characters.

// Option types, as Discord numbers them.
const (
	optSubCommand      = 1
	optSubCommandGroup = 2
	optString          = 3
	optInteger         = 4
	optChannel         = 7
	optNumber          = 10
)

// named is what commands and options share: a type, a name and a
// description, each with its localizations.
type named struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations"`
}

type appCommand struct {
	named
	Options []appOption `json:"options"`
}

type appOption struct {
	named
	Required     bool        `json:"required"`
	Autocomplete bool        `json:"autocomplete"`
	Choices      []appChoice `json:"choices"`
	Options      []appOption `json:"options"`
	ChannelTypes []int       `json:"channel_types"`
	MinValue     *float64    `json:"min_value"`
	MaxValue     *float64    `json:"max_value"`
}

type appChoice struct {
	Name              string            `json:"name"`
	NameLocalizations map[string]string `json:"name_localizations"`
	Value             any               `json:"value"`
}

// commandName is Discord's regex for CHAT_INPUT command and option names
// (Go spells the scripts Devanagari and Thai).
var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// discordLocales are the locales Discord accepts as localization keys.
var discordLocales = map[string]bool{}

func init() {
	for _, l := range strings.Fields("id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi th zh-CN ja zh-TW ko") {
		discordLocales[l] = true
	}
}

// CommandsProblem says why Discord would refuse the bulk overwrite body
// (a JSON array of application commands), "" when it would take it.
func CommandsProblem(body []byte) string {
	var cmds []appCommand
	if err := json.Unmarshal(body, &cmds); err != nil {
		return "not a list of application commands: " + err.Error()
	}
	return eachNamed("command", 100, cmds, func(c appCommand) string { return c.Name }, appCommand.problem)
}

// eachNamed checks a list of at most limit items with unique names, and
// each item with check.
func eachNamed[T any](what string, limit int, items []T, name func(T) string, check func(T) string) string {
	if len(items) > limit {
		return fmt.Sprintf("%d %ss, at most %d", len(items), what, limit)
	}
	seen := map[string]bool{}
	for _, it := range items {
		n := name(it)
		if seen[n] {
			return fmt.Sprintf("%s %q twice", what, n)
		}
		seen[n] = true
		if p := check(it); p != "" {
			return fmt.Sprintf("%s %q: %s", what, n, p)
		}
	}
	return ""
}

func (c appCommand) problem() string {
	chat := c.Type == 0 || c.Type == 1
	if p := checkNames(c.Name, c.NameLocalizations, chat); p != "" {
		return p
	}
	if chat {
		if p := checkDescriptions(c.Description, c.DescriptionLocalizations); p != "" {
			return p
		}
	}
	if p := checkOptions(c.Options); p != "" {
		return p
	}
	if n := c.chars(); n > 4000 {
		return fmt.Sprintf("%d characters of names, descriptions and choices, at most 4000", n)
	}
	return ""
}

func (c appCommand) chars() int {
	n := utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Description)
	var walk func([]appOption)
	walk = func(os []appOption) {
		for _, o := range os {
			n += utf8.RuneCountInString(o.Name) + utf8.RuneCountInString(o.Description)
			for _, ch := range o.Choices {
				n += utf8.RuneCountInString(ch.Name) + utf8.RuneCountInString(fmt.Sprint(ch.Value))
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return n
}

func checkOptions(os []appOption) string {
	if p := eachNamed("option", 25, os, func(o appOption) string { return o.Name }, appOption.problem); p != "" {
		return p
	}
	optional := ""
	for _, o := range os {
		switch {
		case o.Type == optSubCommand || o.Type == optSubCommandGroup:
		case o.Required && optional != "":
			return fmt.Sprintf("required option %q after optional %q", o.Name, optional)
		case !o.Required:
			optional = o.Name
		}
	}
	return ""
}

func (o appOption) problem() string {
	if p := checkNames(o.Name, o.NameLocalizations, true); p != "" {
		return p
	}
	if p := checkDescriptions(o.Description, o.DescriptionLocalizations); p != "" {
		return p
	}
	numeric := o.Type == optInteger || o.Type == optNumber
	switch {
	case len(o.Choices) > 0 && !numeric && o.Type != optString:
		return "choices on an option that is not a string, integer or number"
	case len(o.Choices) > 25:
		return fmt.Sprintf("%d choices, at most 25", len(o.Choices))
	case len(o.Choices) > 0 && o.Autocomplete:
		return "choices and autocomplete together"
	case (o.MinValue != nil || o.MaxValue != nil) && !numeric:
		return "min_value or max_value on an option that is not an integer or number"
	case o.MinValue != nil && o.MaxValue != nil && *o.MinValue > *o.MaxValue:
		return fmt.Sprintf("min_value %v above max_value %v", *o.MinValue, *o.MaxValue)
	case len(o.ChannelTypes) > 0 && o.Type != optChannel:
		return "channel_types on an option that is not a channel"
	}
	if o.Type == optInteger {
		for _, v := range []*float64{o.MinValue, o.MaxValue} {
			if v != nil && *v != float64(int64(*v)) {
				return fmt.Sprintf("integer option bound %v is not a whole number", *v)
			}
		}
	}
	for _, ch := range o.Choices {
		if n := utf8.RuneCountInString(ch.Name); n < 1 || n > 100 {
			return fmt.Sprintf("choice name of %d characters, want 1–100", n)
		}
		if p := checkLocales(ch.NameLocalizations, func(v string) string {
			if n := utf8.RuneCountInString(v); n < 1 || n > 100 {
				return fmt.Sprintf("%d characters, want 1–100", n)
			}
			return ""
		}); p != "" {
			return "choice " + p
		}
	}
	return checkOptions(o.Options)
}

func checkNames(name string, locs map[string]string, chat bool) string {
	check := func(v string) string {
		if !chat {
			if n := utf8.RuneCountInString(v); n < 1 || n > 32 {
				return fmt.Sprintf("name %q: %d characters, want 1–32", v, n)
			}
			return ""
		}
		if !commandName.MatchString(v) {
			return fmt.Sprintf("name %q does not match Discord's pattern", v)
		}
		if strings.ToLower(v) != v {
			return fmt.Sprintf("name %q is not lower case", v)
		}
		return ""
	}
	if p := check(name); p != "" {
		return p
	}
	return checkLocales(locs, check)
}

func checkDescriptions(d string, locs map[string]string) string {
	check := func(v string) string {
		if n := utf8.RuneCountInString(v); n < 1 || n > 100 {
			return fmt.Sprintf("description of %d characters, want 1–100", n)
		}
		return ""
	}
	if p := check(d); p != "" {
		return p
	}
	return checkLocales(locs, check)
}

func checkLocales(locs map[string]string, check func(string) string) string {
	for k, v := range locs {
		if !discordLocales[k] {
			return fmt.Sprintf("localization key %q is not a Discord locale", k)
		}
		if p := check(v); p != "" {
			return k + ": " + p
		}
	}
	return ""
}
