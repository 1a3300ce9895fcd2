package router

import (
	"context"
	"errors"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/commands"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
)

// The Router: every command, click and form of a transport comes in
// through Handle. In front of every handler, once: the request (the
// caller's locale, the server's settings read once, the language of
// public messages), recovery and refusals (serve); then the table
// (commands.go) routes it: a slash command by name, a component by its
// custom id's prefix, a game component to its action behind the player
// check. Autocomplete (Suggest) builds its request the same way.

// handler answers one request.
type handler func(ctx context.Context, r *app.Req) ([]view.Reply, error)

// Handle runs one command and returns the replies to send. It never panics:
// a bug becomes an ephemeral apology and a log line.
func (rt *Router) Handle(ctx context.Context, c app.Command) []view.Reply {
	app.MarkUsers(&c)
	return rt.serve(ctx, rt.newReq(ctx, c), rt.dispatch)
}

// serve runs h for r behind the middleware every handler has: recovery
// (a panic becomes an apology and a log line) and refusals (a handler's
// refusal becomes its ephemeral answer, what the user typed clipped; any
// other error an apology). The request, r, was built once in front
// (newReq: the caller's locale and the server's settings).
func (rt *Router) serve(ctx context.Context, r *app.Req, h handler) (out []view.Reply) {
	c := r.Command
	defer func() {
		if p := recover(); p != nil {
			rt.Log.Error("handler panic", "panic", p, "command", c.Name, "custom_id", c.CustomID, "stack", string(debug.Stack()))
			out = []view.Reply{{Ephemeral: true, Content: r.T("refuse.internal")}}
		}
	}()
	replies, err := h(ctx, r)
	if err != nil {
		var rf *app.Refusal
		if errors.As(err, &rf) {
			// A refusal may quote what the user typed: never all of it.
			args := make([]string, len(rf.Args))
			for i, a := range rf.Args {
				args[i] = view.ClipRunes(a, app.MaxInput)
			}
			lines := []string{r.T(rf.Key, args...)}
			lines = append(lines, rf.Extra...)
			return []view.Reply{{Ephemeral: true, Content: view.ClipRunes(strings.Join(lines, "\n"), 2000)}}
		}
		rt.Log.Error("handler failed", "err", err, "command", c.Name, "custom_id", c.CustomID)
		return []view.Reply{{Ephemeral: true, Content: r.T("refuse.internal")}}
	}
	return replies
}

// newReq is c being handled: the caller's language, the server's
// settings and the language of its public messages.
func (rt *Router) newReq(ctx context.Context, c app.Command) *app.Req {
	r := &app.Req{Command: c, Loc: rt.Locale(ctx, c), Guild: rt.ServerSettings(ctx, c.GuildID)}
	r.Pub = rt.PubLocale(c, r.Guild.Locale)
	return r
}

// dispatch routes a command, click or form through the table.
func (rt *Router) dispatch(ctx context.Context, r *app.Req) ([]view.Reply, error) {
	switch r.Kind {
	case app.KindComponent, app.KindModal:
		prefix, _, _ := strings.Cut(r.CustomID, ":")
		if p, ok := rt.prefixes[prefix]; ok {
			return p.Run(rt.Bot, ctx, r)
		}
		id, ok := view.ParseCustomID(r.CustomID)
		if !ok || id.Kind != 'g' {
			return nil, app.Refuse("refuse.unknown")
		}
		return rt.gameAction(ctx, r, id)
	}
	if c, ok := rt.byName[r.Name]; ok {
		return c.Run(rt.Bot, ctx, r)
	}
	return nil, app.Refuse("refuse.unknown")
}

// gameAction routes a game component by its custom id: the game is loaded
// (another server's game does not exist here) and, unless the action is for
// anyone, the caller must be a player of the game while it is on, clicking
// the board it was drawn for.
func (rt *Router) gameAction(ctx context.Context, r *app.Req, id view.CustomID) ([]view.Reply, error) {
	a, ok := rt.actions[id.Action]
	if !ok {
		return nil, app.Refuse("refuse.unknown")
	}
	g, err := rt.LoadGame(ctx, r, id.ID)
	if err != nil {
		return nil, err
	}
	if !a.Anyone {
		if err := playerCheck(r, g, id); err != nil {
			return nil, err
		}
	}
	return a.Run(rt.Bot, ctx, r, g, id)
}

// playerCheck stands in front of every game action not open to anyone:
// the caller plays the game, the game is on, and the click is on the
// board it was drawn for.
func playerCheck(r *app.Req, g *app.Game, id view.CustomID) error {
	if _, ok := g.Side(r.User.ID); !ok {
		return app.Refuse("refuse.notplayer", g.Num())
	}
	if g.Status != app.GmActive {
		return app.OverRefusal(r, g)
	}
	if id.Seq != g.Seq {
		return app.Refuse("refuse.stale")
	}
	return nil
}

// Router indexes the table for dispatch. Handlers reach the table through
// it (Bot.cmds), never through the package variable, which refers to them.
type Router struct {
	*app.Bot
	list     []*app.CommandDef
	byName   map[string]*app.CommandDef
	actions  map[string]*app.ActionDef
	prefixes map[string]*app.RouteDef
}

// New is the router of b over the command table (bot/commands); a name, action or prefix defined twice is a
// programming error found by the first test that builds a Bot.
func New(b *app.Bot) *Router {
	return newRouter(b, commands.All)
}

// newRouter indexes cmds for b.
func newRouter(b *app.Bot, cmds []app.CommandDef) *Router {
	rt := &Router{Bot: b, byName: map[string]*app.CommandDef{}, actions: map[string]*app.ActionDef{}, prefixes: map[string]*app.RouteDef{}}
	for i := range cmds {
		c := &cmds[i]
		if _, dup := rt.byName[c.Name]; dup {
			panic("bot: command " + c.Name + " defined twice")
		}
		rt.byName[c.Name] = c
		rt.list = append(rt.list, c)
		for j := range c.Actions {
			a := &c.Actions[j]
			if _, dup := rt.actions[a.Name]; dup {
				panic("bot: action " + a.Name + " defined twice")
			}
			rt.actions[a.Name] = a
		}
		for j := range c.Routes {
			p := &c.Routes[j]
			if _, dup := rt.prefixes[p.Prefix]; dup || p.Prefix == app.GamePrefix {
				panic("bot: custom id prefix " + p.Prefix + " defined twice")
			}
			rt.prefixes[p.Prefix] = p
		}
	}
	b.HelpNames = rt.names()
	return rt
}

// Commands returns the slash commands of the table with English names and
// descriptions and their Thai and Portuguese localisations, keyed by
// Discord locale.
func (rt *Router) Commands() []app.CommandSpec {
	out := make([]app.CommandSpec, 0, len(rt.list))
	for _, c := range rt.list {
		spec := app.CommandSpec{
			Name:                     c.Name,
			Description:              i18n.T(i18n.English, "cmd."+c.Name),
			DescriptionLocalizations: app.Localized("cmd." + c.Name),
			ManageServer:             c.ManageServer,
		}
		if len(c.Subs) > 0 {
			for _, s := range c.Subs {
				key := "sub." + c.Name + "." + s.Name
				ss := app.SubcommandSpec{Name: s.Name, Description: i18n.T(i18n.English, key), DescriptionLocalizations: app.Localized(key)}
				for _, name := range s.Opts {
					if o, ok := c.Opt(name); ok {
						ss.Options = append(ss.Options, app.OptSpec(o))
					}
				}
				spec.Subcommands = append(spec.Subcommands, ss)
			}
			out = append(out, spec)
			continue
		}
		for _, o := range c.Opts {
			spec.Options = append(spec.Options, app.OptSpec(o))
		}
		out = append(out, spec)
	}
	return out
}

// names lists the commands as /help does: "`/challenge`, `/accept`, …".
func (rt *Router) names() string {
	names := make([]string, len(rt.list))
	for i, c := range rt.list {
		names[i] = "`/" + c.Name + "`"
	}
	return strings.Join(names, ", ")
}

// CommandDoc is the part of docs/bot.md written from the table: the
// commands, then every custom id with the command that owns it.
func (rt *Router) CommandDoc() string {
	var sb strings.Builder
	sb.WriteString("| Command | What it does |\n|---|---|\n")
	for _, c := range rt.list {
		sb.WriteString("| `" + c.Usage() + "` | " + c.Doc + " |\n")
	}
	sb.WriteString("\nButtons, menus and forms, by custom id (`<seq>` is the game's sequence,\n" +
		"which every move and takeback advances; a game click whose seq is not the\n" +
		"game's current one is stale and refused, except where anyone may click):\n\n")
	sb.WriteString("| Custom id | Command | What it does |\n|---|---|---|\n")
	type row struct{ id, cmd, doc string }
	var rows []row
	for _, c := range rt.list {
		for _, p := range c.Routes {
			rows = append(rows, row{p.Format, c.Name, p.Doc})
		}
		for _, a := range c.Actions {
			d := a.Doc
			if a.Anyone {
				d += " Anyone, any time."
			}
			id := "g:<game>:<seq>:" + a.Name
			if a.Arg != "" {
				id += ":" + a.Arg
			}
			rows = append(rows, row{id, c.Name, d})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].id[0] != 'g' && rows[j].id[0] == 'g' })
	for _, r := range rows {
		sb.WriteString("| `" + r.id + "` | /" + r.cmd + " | " + r.doc + " |\n")
	}
	return sb.String()
}

// Suggest answers autocomplete for the focused option, through the
// command table. It never fails: on any problem it offers nothing.
func (rt *Router) Suggest(ctx context.Context, c app.Command, focused string) (out []view.Choice) {
	defer func() {
		if p := recover(); p != nil {
			rt.Log.Error("suggest panic", "panic", p)
			out = nil
		}
	}()
	cmd, ok := rt.byName[c.Name]
	if !ok {
		return nil
	}
	app.MarkUsers(&c)
	r := rt.newReq(ctx, c)
	typed := strings.TrimSpace(c.Options[focused])
	for _, o := range cmd.Opts {
		if o.Name != focused {
			continue
		}
		switch {
		case o.Suggest != nil:
			out = o.Suggest(rt.Bot, ctx, r, typed)
		case o.Choices != nil:
			for _, ch := range o.Choices() {
				if strings.HasPrefix(strings.ToLower(ch.Value), strings.ToLower(typed)) {
					out = append(out, ch)
				}
			}
		}
	}
	if len(out) > app.MaxSuggestions {
		out = out[:app.MaxSuggestions]
	}
	return out
}

// Table is the command table the router serves, in its order.
func (rt *Router) Table() []app.CommandDef {
	out := make([]app.CommandDef, len(rt.list))
	for i, c := range rt.list {
		out[i] = *c
	}
	return out
}

// Action is the game action of that name.
func (rt *Router) Action(name string) (app.ActionDef, bool) {
	a, ok := rt.actions[name]
	if !ok {
		return app.ActionDef{}, false
	}
	return *a, true
}
