package app

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

// The router: every command, click and form of a transport comes in
// through Handle. In front of every handler, once: the request (the
// caller's locale, the server's settings read once, the language of
// public messages), recovery and refusals (serve); then the table
// (commands.go) routes it: a slash command by name, a component by its
// custom id's prefix, a game component to its action behind the player
// check. Autocomplete (Suggest) builds its request the same way.

// handler answers one request.
type handler func(ctx context.Context, r *req) ([]Reply, error)

// Handle runs one command and returns the replies to send. It never panics:
// a bug becomes an ephemeral apology and a log line.
func (b *Bot) Handle(ctx context.Context, c Command) []Reply {
	markUsers(&c)
	b.rememberDM(ctx, c)
	r := b.newReq(ctx, c)
	return b.withHeld(ctx, r, b.serve(ctx, r, b.dispatch))
}

// serve runs h for r behind the middleware every handler has: recovery
// (a panic becomes an apology and a log line) and refusals (a handler's
// refusal becomes its ephemeral answer, what the user typed clipped; any
// other error an apology). The request, r, was built once in front
// (newReq: the caller's locale and the server's settings).
func (b *Bot) serve(ctx context.Context, r *req, h handler) (out []Reply) {
	c := r.Command
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("handler panic", "panic", p, "command", c.Name, "custom_id", c.CustomID, "stack", string(debug.Stack()))
			out = []Reply{{Ephemeral: true, Content: r.t("refuse.internal")}}
		}
	}()
	replies, err := h(ctx, r)
	if err != nil {
		var rf *refusal
		if errors.As(err, &rf) {
			// A refusal may quote what the user typed: never all of it.
			args := make([]string, len(rf.args))
			for i, a := range rf.args {
				args[i] = clipRunes(a, maxInput)
			}
			lines := []string{r.t(rf.key, args...)}
			lines = append(lines, rf.extra...)
			return []Reply{{Ephemeral: true, Content: clipRunes(strings.Join(lines, "\n"), 2000)}}
		}
		b.log.Error("handler failed", "err", err, "command", c.Name, "custom_id", c.CustomID)
		return []Reply{{Ephemeral: true, Content: r.t("refuse.internal")}}
	}
	return replies
}

// newReq is c being handled: the caller's language, the server's
// settings and the language of its public messages.
func (b *Bot) newReq(ctx context.Context, c Command) *req {
	r := &req{Command: c, loc: b.locale(ctx, c), guild: b.guildSettings(ctx, c.GuildID)}
	r.pub = b.pubLocale(c, r.guild.Locale)
	return r
}

// locale picks the caller's language: /settings, then the Discord locale
// of the command, then the Discord locale last seen from them (for messages
// written outside an interaction), then the configured default. A Discord
// locale that differs from the stored one is saved.
func (b *Bot) locale(ctx context.Context, c Command) string {
	var s userSettings
	if c.User.ID != "" && b.st != nil {
		var err error
		if s, err = b.st.settings(ctx, c.User.ID); err != nil {
			b.log.Warn("read settings", "user", c.User.ID, "err", err)
		}
		b.rememberLocale(ctx, c.User.ID, i18n.Normalize(c.Locale), s.Seen)
		if s.Locale != "" {
			return s.Locale
		}
	}
	if l := i18n.Normalize(c.Locale); l != "" {
		return l
	}
	if s.Seen != "" {
		return s.Seen
	}
	return b.cfg.DefaultLocale
}

// rememberLocale stores loc as the user's last seen Discord locale when it
// differs from what is stored (stored: the value just read, or the cache).
func (b *Bot) rememberLocale(ctx context.Context, user, loc, stored string) {
	if loc == "" {
		return
	}
	if v, ok := b.seen.Load(user); ok {
		stored = v.(string)
	}
	if loc == stored {
		b.seen.Store(user, loc)
		return
	}
	if err := b.st.setSeenLocale(ctx, user, loc); err != nil {
		b.log.Warn("remember locale", "user", user, "err", err)
		return
	}
	b.seen.Store(user, loc)
}

// guildSettings reads the server's settings; outside a server, or when
// the read fails (logged), the bot's defaults.
func (b *Bot) guildSettings(ctx context.Context, guild string) store.GuildSettings {
	if guild == "" || b.st == nil {
		return store.GuildSettings{}
	}
	s := b.st
	if s == nil {
		return store.GuildSettings{Guild: guild}
	}
	gs, err := s.GuildSettings(ctx, guild)
	if err != nil {
		b.log.Warn("read server settings", "guild", guild, "err", err)
	}
	return gs
}

// pubLocale is the language of public messages: the one the server chose
// (/server), else Discord's server locale, else the configured default.
func (b *Bot) pubLocale(c Command, chosen string) string {
	if chosen != "" {
		return chosen
	}
	if l := i18n.Normalize(c.GuildLocale); l != "" {
		return l
	}
	return b.cfg.DefaultLocale
}

// dispatch routes a command, click or form through the table.
func (b *Bot) dispatch(ctx context.Context, r *req) ([]Reply, error) {
	switch r.Kind {
	case KindComponent, KindModal:
		prefix, _, _ := strings.Cut(r.CustomID, ":")
		if p, ok := b.cmds.prefixes[prefix]; ok {
			return p.run(b, ctx, r)
		}
		id, ok := parseCustomID(r.CustomID)
		if !ok || id.kind != 'g' {
			return nil, refuse("refuse.unknown")
		}
		return b.gameAction(ctx, r, id)
	}
	if c, ok := b.cmds.byName[r.Name]; ok {
		if c.serverOnly != "" && !r.inServerWithBot() {
			return nil, refuse(c.serverOnly)
		}
		return c.run(b, ctx, r)
	}
	return nil, refuse("refuse.unknown")
}

// gameAction routes a game component by its custom id: the game is loaded
// (another server's game does not exist here) and, unless the action is for
// anyone, the caller must be a player of the game while it is on, clicking
// the board it was drawn for.
func (b *Bot) gameAction(ctx context.Context, r *req, id customID) ([]Reply, error) {
	a, ok := b.cmds.actions[id.action]
	if !ok {
		return nil, refuse("refuse.unknown")
	}
	g, err := b.loadGame(ctx, r, id.id)
	if err != nil {
		return nil, err
	}
	if !a.anyone {
		if err := playerCheck(r, g, id); err != nil {
			return nil, err
		}
	}
	return a.run(b, ctx, r, g, id)
}

// playerCheck stands in front of every game action not open to anyone:
// the caller plays the game, the game is on, and the click is on the
// board it was drawn for.
func playerCheck(r *req, g *gameRec, id customID) error {
	if _, ok := g.Side(r.User.ID); !ok {
		return refuse("refuse.notplayer", g.Num())
	}
	if g.Status != gmActive {
		return overRefusal(r, g)
	}
	if id.seq != g.Seq {
		return refuse("refuse.stale")
	}
	return nil
}
