package app

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
)

// The command table: every slash command a player can use, in the order
// /help and docs/bot.md list them, with its options, its handler and the
// buttons, menus and forms it owns. Registration (Commands), routing
// (dispatch), autocomplete (Suggest), /help and docs/bot.md (a test
// compares) all read this one list. Adding a command is one file with its
// handler and one line here.

// CommandDef is one entry of the table.
type CommandDef struct {
	Name string
	// Doc says what the command does, in English, for docs/bot.md (players
	// read the catalog's "cmd.<name>").
	Doc     string
	Opts    []OptDef
	Run     func(*Bot, context.Context, *Req) ([]view.Reply, error)
	Actions []ActionDef // game buttons, menus and forms ("g:<game>:<seq>:<name>")
	Routes  []RouteDef  // other components, by custom-id prefix ("c:", "lb:")
	// ManageServer registers the command for members with Manage Server
	// only (Discord hides it from the others; its handler checks too).
	ManageServer bool
	// ServerOnly, when set, is the catalog key of the refusal of a command
	// that works only in a server that added the bot (it posts by itself
	// there: tournaments, server settings): it is registered for server
	// installs and server channels only, and refused elsewhere (the
	// router; places.go).
	ServerOnly string
	// Subs, when set, are the command's subcommands: Discord shows each
	// with only its own options instead of every option at once. The
	// chosen one reaches the handler as the option SubcommandOption,
	// which opts defines (for the console, which writes it so).
	Subs []SubDef
}

// SubDef is one subcommand: its name and the names of its options (from
// the command's opts). Its description is the catalog's
// "sub.<command>.<name>".
type SubDef struct {
	Name string
	Opts []string
}

// SubcommandOption is the option in which a transport passes the chosen
// subcommand's name (Discord's nested subcommand; the console's
// "action:create").
const SubcommandOption = "action"

// OptDef is one option of a command. Descriptions come from the catalog
// ("opt.<name>").
type OptDef struct {
	Name     string
	Typ      OptionType
	Required bool
	// Suggest answers autocomplete for the option (nil: none).
	Suggest func(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice
	// Choices is a fixed list of values (nil: free input).
	Choices func() []view.Choice
	// Bounds, for an Integer option, are the values Discord lets through
	// (min_value, max_value; nil: none). The handler checks them again:
	// the console and other transports do not.
	Bounds *Bounds
}

// Bounds limit an Integer option: Min ≤ value, and value ≤ Max when Max
// is set.
type Bounds struct {
	Min int
	Max *int
}

// Between is the bounds lo..hi; atLeast is lo.. with no upper bound.
func Between(lo, hi int) *Bounds { return &Bounds{Min: lo, Max: &hi} }
func AtLeast(lo int) *Bounds     { return &Bounds{Min: lo} }

// ActionDef is a component or form on a game's message, custom id
// "g:<game>:<seq>:<name>[:<arg>]".
type ActionDef struct {
	Name string
	Arg  string // what the custom id carries after the name, for the doc ("<move>")
	// Anyone may use it on any game at any time (a look, the record, a
	// rematch); otherwise only a player of the game while it is on, on
	// the board it was drawn for (the seq).
	Anyone bool
	Doc    string
	Run    func(b *Bot, ctx context.Context, r *Req, g *Game, id view.CustomID) ([]view.Reply, error)
}

// RouteDef handles the components whose custom id starts with "<prefix>:".
type RouteDef struct {
	Prefix string
	Format string // the custom id's format, for docs/bot.md
	Doc    string
	Run    func(b *Bot, ctx context.Context, r *Req) ([]view.Reply, error)
}

// GamePrefix starts the custom ids of game components (the actions).
const GamePrefix = "g"

// OptionType is the kind of value a slash-command option takes.
type OptionType int

const (
	String OptionType = iota
	UserOption
	Bool
	Integer
	// ChannelOption takes a text channel of the server.
	ChannelOption
	// RoleOption takes a role of the server.
	RoleOption
)

// CommandSpec defines one slash command for registration, localised.
type CommandSpec struct {
	Name                     string
	Description              string
	NameLocalizations        map[string]string
	DescriptionLocalizations map[string]string
	// Options, or Subcommands, each with its own options (never both).
	Options     []OptionSpec
	Subcommands []SubcommandSpec
	// ManageServer: only members with Manage Server see the command
	// (Discord's default_member_permissions).
	ManageServer bool
	// ServerOnly: the command is offered only in servers that added the
	// bot (Discord: integration_types [GUILD_INSTALL], contexts [GUILD]);
	// the others everywhere, installed to a server or to a user.
	ServerOnly bool
}

// SubcommandSpec is one subcommand of a slash command.
type SubcommandSpec struct {
	Name, Description        string
	DescriptionLocalizations map[string]string
	Options                  []OptionSpec
}

// OptionSpec is one option of a slash command.
type OptionSpec struct {
	Name, Description        string
	DescriptionLocalizations map[string]string
	Type                     OptionType
	Required, Autocomplete   bool
	Choices                  []view.Choice
	Bounds                   *Bounds // Integer options only
}

// Opt is the command's option called name.
func (c *CommandDef) Opt(name string) (OptDef, bool) {
	for _, o := range c.Opts {
		if o.Name == name {
			return o, true
		}
	}
	return OptDef{}, false
}

// OptSpec is o as registered.
func OptSpec(o OptDef) OptionSpec {
	os := OptionSpec{
		Name:                     o.Name,
		Description:              i18n.T(i18n.English, "opt."+o.Name, MoveExample(DefaultGame())),
		DescriptionLocalizations: Localized("opt."+o.Name, MoveExample(DefaultGame())),
		Type:                     o.Typ,
		Required:                 o.Required,
		Autocomplete:             o.Suggest != nil && o.Choices == nil,
		Bounds:                   o.Bounds,
	}
	if o.Choices != nil {
		os.Choices = o.Choices()
	}
	return os
}

// Localized returns a key's non-English texts keyed by Discord locale.
func Localized(key string, args ...string) map[string]string {
	return map[string]string{
		"th":    i18n.T(i18n.Thai, key, args...),
		"pt-BR": i18n.T(i18n.Portuguese, key, args...),
	}
}

// Fixed choice lists shared by several commands.

func GameChoices() []view.Choice {
	var out []view.Choice
	for _, n := range GameNames() {
		th, pt := view.GameLabel(i18n.Thai, n, "x", nil), view.GameLabel(i18n.Portuguese, n, "x", nil)
		out = append(out, view.Choice{Name: view.GameLabel(i18n.English, n, "x", nil), Value: n,
			NameLocalizations: map[string]string{"th": th, "pt-BR": pt}})
	}
	return out
}

func ColorChoices() []view.Choice {
	var out []view.Choice
	for _, v := range []string{"white", "black", "random"} {
		out = append(out, view.Choice{Name: i18n.T(i18n.English, "color."+v), Value: v, NameLocalizations: Localized("color." + v)})
	}
	return out
}

func LanguageChoices() []view.Choice {
	var out []view.Choice
	for _, l := range i18n.Locales {
		out = append(out, view.Choice{Name: i18n.T(l, "language.name"), Value: l})
	}
	return out
}

// GameOpt is the usual "game" option: one of the caller's games here,
// active ones suggested.
var GameOpt = OptDef{Name: "game", Typ: String, Suggest: suggestActiveGames}

// GameOptFinished is "game" where a finished game can be meant too.
var GameOptFinished = OptDef{Name: "game", Typ: String, Suggest: suggestAnyGames}

// Usage writes a command as docs/bot.md shows it: "/move <move> [game]";
// one per subcommand ("/tournament join [id] [level]"), joined by " · ".
func (c CommandDef) Usage() string {
	if len(c.Subs) > 0 {
		var subs []string
		for _, s := range c.Subs {
			parts := []string{"/" + c.Name + " " + s.Name}
			for _, name := range s.Opts {
				if o, ok := c.Opt(name); ok && o.Required {
					parts = append(parts, "<"+name+">")
				} else {
					parts = append(parts, "["+name+"]")
				}
			}
			subs = append(subs, strings.Join(parts, " "))
		}
		return strings.Join(subs, "` · `")
	}
	parts := []string{"/" + c.Name}
	for _, o := range c.Opts {
		if o.Required {
			parts = append(parts, "<"+o.Name+">")
		} else {
			parts = append(parts, "["+o.Name+"]")
		}
	}
	return strings.Join(parts, " ")
}
