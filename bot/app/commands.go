package app

import (
	"context"
	"sort"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
)

// The command table: every slash command a player can use, in the order
// /help and docs/bot.md list them, with its options, its handler and the
// buttons, menus and forms it owns. Registration (Commands), routing
// (dispatch), autocomplete (Suggest), /help and docs/bot.md (a test
// compares) all read this one list. Adding a command is one file with its
// handler and one line here.
var commands = []command{
	challengeCmd,
	acceptCmd,
	moveCmd,
	boardCmd,
	resignCmd,
	drawCmd,
	takebackCmd,
	abortCmd,
	rematchCmd,
	gamesCmd,
	historyCmd,
	rulesCmd,
	leaderboardCmd,
	profileCmd,
	helpCmd,
	settingsCmd,
	puzzleCmd,
	tournamentCmd,
	reviewCmd,
	dataCmd,
	serverCmd,
}

// command is one entry of the table.
type command struct {
	name string
	// doc says what the command does, in English, for docs/bot.md (players
	// read the catalog's "cmd.<name>").
	doc     string
	opts    []optDef
	run     func(*Bot, context.Context, *req) ([]Reply, error)
	actions []action // game buttons, menus and forms ("g:<game>:<seq>:<name>")
	routes  []route  // other components, by custom-id prefix ("c:", "lb:")
	// manageServer registers the command for members with Manage Server
	// only (Discord hides it from the others; its handler checks too).
	manageServer bool
	// serverOnly, when set, is the catalog key of the refusal of a command
	// that works only in a server that added the bot (it posts by itself
	// there: tournaments, server settings): it is registered for server
	// installs and server channels only, and refused elsewhere (router.go,
	// places.go).
	serverOnly string
	// subs, when set, are the command's subcommands: Discord shows each
	// with only its own options instead of every option at once. The
	// chosen one reaches the handler as the option SubcommandOption,
	// which opts defines (for the console, which writes it so).
	subs []subDef
}

// subDef is one subcommand: its name and the names of its options (from
// the command's opts). Its description is the catalog's
// "sub.<command>.<name>".
type subDef struct {
	name string
	opts []string
}

// SubcommandOption is the option in which a transport passes the chosen
// subcommand's name (Discord's nested subcommand; the console's
// "action:create").
const SubcommandOption = "action"

// optDef is one option of a command. Descriptions come from the catalog
// ("opt.<name>").
type optDef struct {
	name     string
	typ      OptionType
	required bool
	// suggest answers autocomplete for the option (nil: none).
	suggest func(b *Bot, ctx context.Context, r *req, typed string) []Choice
	// choices is a fixed list of values (nil: free input).
	choices func() []Choice
	// bounds, for an Integer option, are the values Discord lets through
	// (min_value, max_value; nil: none). The handler checks them again:
	// the console and other transports do not.
	bounds *Bounds
}

// Bounds limit an Integer option: Min ≤ value, and value ≤ Max when Max
// is set.
type Bounds struct {
	Min int
	Max *int
}

// between is the bounds lo..hi; atLeast is lo.. with no upper bound.
func between(lo, hi int) *Bounds { return &Bounds{Min: lo, Max: &hi} }
func atLeast(lo int) *Bounds     { return &Bounds{Min: lo} }

// action is a component or form on a game's message, custom id
// "g:<game>:<seq>:<name>[:<arg>]".
type action struct {
	name string
	arg  string // what the custom id carries after the name, for the doc ("<move>")
	// anyone may use it on any game at any time (a look, the record, a
	// rematch); otherwise only a player of the game while it is on, on
	// the board it was drawn for (the seq).
	anyone bool
	doc    string
	run    func(b *Bot, ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error)
}

// route handles the components whose custom id starts with "<prefix>:".
type route struct {
	prefix string
	format string // the custom id's format, for docs/bot.md
	doc    string
	run    func(b *Bot, ctx context.Context, r *req) ([]Reply, error)
}

// router indexes the table for dispatch. Handlers reach the table through
// it (Bot.cmds), never through the package variable, which refers to them.
type router struct {
	list     []*command
	byName   map[string]*command
	actions  map[string]*action
	prefixes map[string]*route
}

// newRouter indexes cmds; a name, action or prefix defined twice is a
// programming error found by the first test that builds a Bot.
func newRouter(cmds []command) *router {
	rt := &router{byName: map[string]*command{}, actions: map[string]*action{}, prefixes: map[string]*route{}}
	for i := range cmds {
		c := &cmds[i]
		if _, dup := rt.byName[c.name]; dup {
			panic("bot: command " + c.name + " defined twice")
		}
		rt.byName[c.name] = c
		rt.list = append(rt.list, c)
		for j := range c.actions {
			a := &c.actions[j]
			if _, dup := rt.actions[a.name]; dup {
				panic("bot: action " + a.name + " defined twice")
			}
			rt.actions[a.name] = a
		}
		for j := range c.routes {
			p := &c.routes[j]
			if _, dup := rt.prefixes[p.prefix]; dup || p.prefix == gamePrefix {
				panic("bot: custom id prefix " + p.prefix + " defined twice")
			}
			rt.prefixes[p.prefix] = p
		}
	}
	return rt
}

// gamePrefix starts the custom ids of game components (the actions).
const gamePrefix = "g"

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
	Choices                  []Choice
	Bounds                   *Bounds // Integer options only
}

// Commands returns the slash commands of the table with English names and
// descriptions and their Thai and Portuguese localisations, keyed by
// Discord locale.
func (b *Bot) Commands() []CommandSpec {
	out := make([]CommandSpec, 0, len(commands))
	for _, c := range commands {
		spec := CommandSpec{
			Name:                     c.name,
			Description:              i18n.T(i18n.English, "cmd."+c.name),
			DescriptionLocalizations: localized("cmd." + c.name),
			ManageServer:             c.manageServer,
			ServerOnly:               c.serverOnly != "",
		}
		if len(c.subs) > 0 {
			for _, s := range c.subs {
				key := "sub." + c.name + "." + s.name
				ss := SubcommandSpec{Name: s.name, Description: i18n.T(i18n.English, key), DescriptionLocalizations: localized(key)}
				for _, name := range s.opts {
					if o, ok := c.opt(name); ok {
						ss.Options = append(ss.Options, optSpec(o))
					}
				}
				spec.Subcommands = append(spec.Subcommands, ss)
			}
			out = append(out, spec)
			continue
		}
		for _, o := range c.opts {
			spec.Options = append(spec.Options, optSpec(o))
		}
		out = append(out, spec)
	}
	return out
}

// opt is the command's option called name.
func (c *command) opt(name string) (optDef, bool) {
	for _, o := range c.opts {
		if o.name == name {
			return o, true
		}
	}
	return optDef{}, false
}

// optSpec is o as registered.
func optSpec(o optDef) OptionSpec {
	os := OptionSpec{
		Name:                     o.name,
		Description:              i18n.T(i18n.English, "opt."+o.name, MoveExample(defaultGame())),
		DescriptionLocalizations: localized("opt."+o.name, MoveExample(defaultGame())),
		Type:                     o.typ,
		Required:                 o.required,
		Autocomplete:             o.suggest != nil && o.choices == nil,
		Bounds:                   o.bounds,
	}
	if o.choices != nil {
		os.Choices = o.choices()
	}
	return os
}

// localized returns a key's non-English texts keyed by Discord locale.
func localized(key string, args ...string) map[string]string {
	return map[string]string{
		"th":    i18n.T(i18n.Thai, key, args...),
		"pt-BR": i18n.T(i18n.Portuguese, key, args...),
	}
}

// Fixed choice lists shared by several commands.

func gameChoices() []Choice {
	var out []Choice
	for _, n := range gameNames() {
		th, pt := gameLabel(i18n.Thai, n, "x", nil), gameLabel(i18n.Portuguese, n, "x", nil)
		out = append(out, Choice{Name: gameLabel(i18n.English, n, "x", nil), Value: n,
			NameLocalizations: map[string]string{"th": th, "pt-BR": pt}})
	}
	return out
}

func colorChoices() []Choice {
	var out []Choice
	for _, v := range []string{"white", "black", "random"} {
		out = append(out, Choice{Name: i18n.T(i18n.English, "color."+v), Value: v, NameLocalizations: localized("color." + v)})
	}
	return out
}

func languageChoices() []Choice {
	var out []Choice
	for _, l := range i18n.Locales {
		out = append(out, Choice{Name: i18n.T(l, "language.name"), Value: l})
	}
	return out
}

// gameOpt is the usual "game" option: one of the caller's games here,
// active ones suggested.
var gameOpt = optDef{name: "game", typ: String, suggest: suggestActiveGames}

// gameOptFinished is "game" where a finished game can be meant too.
var gameOptFinished = optDef{name: "game", typ: String, suggest: suggestAnyGames}

// usage writes a command as docs/bot.md shows it: "/move <move> [game]";
// one per subcommand ("/tournament join [id] [level]"), joined by " · ".
func (c command) usage() string {
	if len(c.subs) > 0 {
		var subs []string
		for _, s := range c.subs {
			parts := []string{"/" + c.name + " " + s.name}
			for _, name := range s.opts {
				if o, ok := c.opt(name); ok && o.required {
					parts = append(parts, "<"+name+">")
				} else {
					parts = append(parts, "["+name+"]")
				}
			}
			subs = append(subs, strings.Join(parts, " "))
		}
		return strings.Join(subs, "` · `")
	}
	parts := []string{"/" + c.name}
	for _, o := range c.opts {
		if o.required {
			parts = append(parts, "<"+o.name+">")
		} else {
			parts = append(parts, "["+o.name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// names lists the commands as /help does: "`/challenge`, `/accept`, …".
func (rt *router) names() string {
	names := make([]string, len(rt.list))
	for i, c := range rt.list {
		names[i] = "`/" + c.name + "`"
	}
	return strings.Join(names, ", ")
}

// commandDoc is the part of docs/bot.md written from the table: the
// commands, then every custom id with the command that owns it.
func commandDoc() string {
	var sb strings.Builder
	sb.WriteString("| Command | What it does |\n|---|---|\n")
	for _, c := range commands {
		sb.WriteString("| `" + c.usage() + "` | " + c.doc + " |\n")
	}
	sb.WriteString("\nButtons, menus and forms, by custom id (`<seq>` is the game's sequence,\n" +
		"which every move and takeback advances; a game click whose seq is not the\n" +
		"game's current one is stale and refused, except where anyone may click):\n\n")
	sb.WriteString("| Custom id | Command | What it does |\n|---|---|---|\n")
	type row struct{ id, cmd, doc string }
	var rows []row
	for _, c := range commands {
		for _, p := range c.routes {
			rows = append(rows, row{p.format, c.name, p.doc})
		}
		for _, a := range c.actions {
			d := a.doc
			if a.anyone {
				d += " Anyone, any time."
			}
			id := "g:<game>:<seq>:" + a.name
			if a.arg != "" {
				id += ":" + a.arg
			}
			rows = append(rows, row{id, c.name, d})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].id[0] != 'g' && rows[j].id[0] == 'g' })
	for _, r := range rows {
		sb.WriteString("| `" + r.id + "` | /" + r.cmd + " | " + r.doc + " |\n")
	}
	return sb.String()
}
