package bot

import (
	"github.com/tankbot/tankbot/bot/i18n"
)

// OptionType is the kind of value a slash-command option takes.
type OptionType int

const (
	String OptionType = iota
	UserOption
	Bool
	Integer
)

// CommandSpec defines one slash command for registration, localised.
type CommandSpec struct {
	Name                     string
	Description              string
	NameLocalizations        map[string]string
	DescriptionLocalizations map[string]string
	Options                  []OptionSpec
}

// OptionSpec is one option of a slash command.
type OptionSpec struct {
	Name, Description        string
	DescriptionLocalizations map[string]string
	Type                     OptionType
	Required, Autocomplete   bool
	Choices                  []Choice
}

// commandOptions lists each command's options: name, type, required,
// autocomplete. Descriptions come from the catalog ("opt.<cmd>.<name>").
var commandOptions = []struct {
	name string
	opts []optDef
}{
	{"challenge", []optDef{
		{"opponent", UserOption, false, false},
		{"game", String, false, true},
		{"map", String, false, true},
		{"clock", String, false, true},
		{"color", String, false, false},
		{"thread", Bool, false, false},
		{"rated", Bool, false, false},
		{"level", Integer, false, false},
	}},
	{"accept", []optDef{{"challenge", String, false, true}}},
	{"move", []optDef{{"move", String, true, true}, {"game", String, false, true}}},
	{"board", []optDef{{"flip", Bool, false, false}, {"game", String, false, true}, {"public", Bool, false, false}, {"ply", Integer, false, false}}},
	{"resign", []optDef{{"game", String, false, true}}},
	{"draw", []optDef{{"game", String, false, true}}},
	{"takeback", []optDef{{"game", String, false, true}}},
	{"abort", []optDef{{"game", String, false, true}}},
	{"rematch", []optDef{{"game", String, false, true}}},
	{"games", nil},
	{"history", []optDef{{"game", String, false, true}}},
	{"rules", []optDef{{"game", String, false, false}}},
	{"help", nil},
	{"settings", []optDef{{"language", String, false, false}, {"flip", Bool, false, false}}},
}

type optDef struct {
	name         string
	typ          OptionType
	required     bool
	autocomplete bool
}

// Commands returns the slash commands with English names and descriptions
// and their Thai and Portuguese localisations, keyed by Discord locale.
func (b *Bot) Commands() []CommandSpec {
	out := make([]CommandSpec, 0, len(commandOptions))
	for _, c := range commandOptions {
		spec := CommandSpec{
			Name:                     c.name,
			Description:              i18n.T(i18n.English, "cmd."+c.name),
			DescriptionLocalizations: localized("cmd." + c.name),
		}
		for _, o := range c.opts {
			os := OptionSpec{
				Name:                     o.name,
				Description:              i18n.T(i18n.English, "opt."+o.name),
				DescriptionLocalizations: localized("opt." + o.name),
				Type:                     o.typ,
				Required:                 o.required,
				Autocomplete:             o.autocomplete,
			}
			switch {
			case c.name == "challenge" && o.name == "color":
				for _, v := range []string{"white", "black", "random"} {
					os.Choices = append(os.Choices, Choice{Name: i18n.T(i18n.English, "color."+v), Value: v})
				}
			case o.name == "game" && (c.name == "challenge" || c.name == "rules"):
				// A fixed list: the games themselves.
				os.Autocomplete = false
				for _, n := range gameNames() {
					os.Choices = append(os.Choices, Choice{Name: gameLabel(i18n.English, n, "x", nil), Value: n})
				}
			case c.name == "settings" && o.name == "language":
				for _, l := range i18n.Locales {
					os.Choices = append(os.Choices, Choice{Name: i18n.T(l, "language.name"), Value: l})
				}
			}
			spec.Options = append(spec.Options, os)
		}
		out = append(out, spec)
	}
	return out
}

// localized returns a key's non-English texts keyed by Discord locale.
func localized(key string) map[string]string {
	return map[string]string{
		"th":    i18n.T(i18n.Thai, key),
		"pt-BR": i18n.T(i18n.Portuguese, key),
	}
}
