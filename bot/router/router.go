package router

import (
	"context"
	"errors"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/commands"
	"github.com/tankbot/tankbot/bot/metrics"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
)

// The Router: every command, click and form of a transport comes in
// through Handle, passes the middleware (Use) in order, and reaches its
// handler through the table (bot/commands): a slash command by name, a
// component by its custom id's prefix, a game component to its action
// (behind the player check unless anyone may use it). Autocomplete
// (Suggest) builds its request through the same middleware.

// Handler answers one request.
type Handler func(ctx context.Context, r *app.Req) ([]view.Reply, error)

// Middleware is work done in front of (and around) a handler: it returns
// the handler that does it and calls next.
type Middleware func(next Handler) Handler

// Use adds middleware in front of every handler, after those added
// before (the first added runs first).
func (rt *Router) Use(m ...Middleware) { rt.mw = append(rt.mw, m...) }

// chain is h behind the middleware.
func (rt *Router) chain(h Handler) Handler {
	for i := len(rt.mw) - 1; i >= 0; i-- {
		h = rt.mw[i](h)
	}
	return h
}

// Handle runs one command and returns the replies to send. It never panics:
// a bug becomes an ephemeral apology and a log line.
func (rt *Router) Handle(ctx context.Context, c app.Command) []view.Reply {
	out, err := rt.chain(rt.dispatch)(ctx, &app.Req{Command: c})
	if err != nil {
		// Only without the refusal middleware (tests of the router).
		return []view.Reply{{Ephemeral: true, Content: i18n.T(rt.Cfg.DefaultLocale, "refuse.internal")}}
	}
	return out
}

// The middleware every router has (New), in this order.

// recovery turns a panic in what follows into an apology and a log line.
func (rt *Router) recovery(next Handler) Handler {
	return func(ctx context.Context, r *app.Req) (out []view.Reply, err error) {
		defer func() {
			if p := recover(); p != nil {
				rt.Log.Error("handler panic", "panic", p, "command", r.Name, "custom_id", r.CustomID, "stack", string(debug.Stack()))
				out, err = []view.Reply{{Ephemeral: true, Content: r.T("refuse.internal")}}, nil
			}
		}()
		return next(ctx, r)
	}
}

// refusals turns a handler's refusal into its ephemeral answer (what the
// user typed clipped) and any other error into an apology and a log line.
func (rt *Router) refusals(next Handler) Handler {
	return func(ctx context.Context, r *app.Req) ([]view.Reply, error) {
		replies, err := next(ctx, r)
		if err == nil {
			return replies, nil
		}
		var rf *app.Refusal
		if errors.As(err, &rf) {
			// A refusal may quote what the user typed: never all of it.
			args := make([]string, len(rf.Args))
			for i, a := range rf.Args {
				args[i] = view.ClipRunes(a, app.MaxInput)
			}
			lines := []string{r.T(rf.Key, args...)}
			lines = append(lines, rf.Extra...)
			return []view.Reply{{Ephemeral: true, Content: view.ClipRunes(strings.Join(lines, "\n"), 2000)}}, nil
		}
		rt.Log.Error("handler failed", "err", err, "command", r.Name, "custom_id", r.CustomID)
		return []view.Reply{{Ephemeral: true, Content: r.T("refuse.internal")}}, nil
	}
}

// measured counts every request by route and result (ok, refused,
// failed: an error or a panic) and times it, middleware and handler
// (bot/metrics). It stands behind recovery and refusals, where a
// handler's error is still an error and a panic still a panic.
func (rt *Router) measured(next Handler) Handler {
	return func(ctx context.Context, r *app.Req) (out []view.Reply, err error) {
		start := rt.now()
		result := metrics.RouteFailed // unless next returns: a panic
		defer func() {
			metrics.Routed(metrics.CommandLabel(r.Name, r.CustomID), result, rt.now().Sub(start))
		}()
		out, err = next(ctx, r)
		var rf *app.Refusal
		switch {
		case err == nil:
			result = metrics.RouteOK
		case errors.As(err, &rf):
			result = metrics.RouteRefused
		}
		return out, err
	}
}

// now is the bot's clock (the real one when none is injected).
func (rt *Router) now() time.Time {
	if rt.Clk == nil {
		return time.Now()
	}
	return rt.Clk.Now()
}

// escaping marks the user names the command brings in, so that every
// message that quotes them shows them as typed, never as markup.
func escaping(next Handler) Handler {
	return func(ctx context.Context, r *app.Req) ([]view.Reply, error) {
		markUsers(&r.Command)
		return next(ctx, r)
	}
}

// markUsers marks the names a command brings in (names.UserName).
func markUsers(c *app.Command) {
	c.User.Name = names.UserName(c.User.Name)
	if len(c.Users) == 0 {
		return
	}
	users := make(map[string]app.User, len(c.Users))
	for id, u := range c.Users {
		u.Name = names.UserName(u.Name)
		users[id] = u
	}
	c.Users = users
}

// locale gives the request the caller's language (/settings, else the
// command's Discord locale, else the last one seen, else the default),
// looked up when first asked for (app.Lookups): the router runs no code
// of bot/app before the handler.
func (rt *Router) locale(next Handler) Handler {
	return func(ctx context.Context, r *app.Req) ([]view.Reply, error) {
		rt.lookups(ctx, r).Locale = true
		return next(ctx, r)
	}
}

// serverSettings gives the request the server's settings, read once when
// first asked for, and with them the language of public messages.
func (rt *Router) serverSettings(next Handler) Handler {
	return func(ctx context.Context, r *app.Req) ([]view.Reply, error) {
		rt.lookups(ctx, r).Server = true
		return next(ctx, r)
	}
}

// lookups are r's lookups left for later, made on first use.
func (rt *Router) lookups(ctx context.Context, r *app.Req) *app.Lookups {
	if r.Lookups == nil {
		r.Lookups = &app.Lookups{Bot: rt.Bot, Ctx: ctx, Command: r.Command}
	}
	return r.Lookups
}

// places: the caller's DM channel with the bot is remembered when they
// use it there, and where the bot is not a member the posts held for the
// conversation follow the answer (bot/app/places.go).
func (rt *Router) places(next Handler) Handler {
	return func(ctx context.Context, r *app.Req) ([]view.Reply, error) {
		// Only there is there anything to do: elsewhere (a server's
		// channel with the bot) the request does not enter bot/app here.
		if r.BotDM {
			rt.Bot.RememberDM(ctx, r.Command)
		}
		out, err := next(ctx, r)
		if err != nil || !r.BotAbsent {
			return out, err
		}
		return rt.Bot.WithHeld(ctx, r, out), nil
	}
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
		if c.ServerOnly != "" && !r.InServerWithBot() {
			return nil, app.Refuse(c.ServerOnly)
		}
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
	mw       []Middleware
}

// New is the router of b over the command table (bot/commands), with the
// middleware every handler has: recovery, refusals, metrics, escaping,
// the caller's locale, the server's settings and the place's held posts.
// A name, action or prefix
// defined twice is a programming error found by the first test that
// builds a Bot.
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
	rt.Use(rt.recovery, rt.refusals, rt.measured, escaping, rt.locale, rt.serverSettings, rt.places)
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
			ServerOnly:               c.ServerOnly != "",
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
	var r *app.Req
	rt.chain(func(_ context.Context, req *app.Req) ([]view.Reply, error) {
		r = req
		return nil, nil
	})(ctx, &app.Req{Command: c})
	if r == nil {
		return nil
	}
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
