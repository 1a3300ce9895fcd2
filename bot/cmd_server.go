package bot

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

// /server: the server's settings, for members with Manage Server (the
// registration hides the command from the others; the handler checks
// again, since a server can change who sees it). Without options it shows
// the settings; each option given changes one. Stored per server
// (store.GuildSettings; web links in the web viewer's own switch) and
// read once per interaction into the req.

var serverCmd = command{
	name: "server",
	doc: "The server's settings (Manage Server only; the answer is just for you): `public_language` (`auto`: Discord's server language), " +
		"`default_game`, `default_clock` (a preset), `threads` (games open a thread), `web_links` (Watch / Replay links), `ai` (games against the computer). " +
		"Without options: shows them.",
	opts: []optDef{
		{name: "public_language", typ: String, choices: publicLanguageChoices},
		{name: "default_game", typ: String, choices: gameChoices},
		{name: "default_clock", typ: String, choices: clockChoices},
		{name: "threads", typ: Bool},
		{name: "web_links", typ: Bool},
		{name: "ai", typ: Bool},
	},
	manageServer: true,
	run:          (*Bot).serverCommand,
}

// publicLanguageChoices: each language named in itself, and "auto".
func publicLanguageChoices() []Choice {
	out := languageChoices()
	for i := range out {
		out[i].NameLocalizations = map[string]string{"th": out[i].Name, "pt-BR": out[i].Name}
	}
	return append(out, Choice{Name: i18n.T(i18n.English, "server.auto"), Value: "auto", NameLocalizations: localized("server.auto")})
}

// clockChoices are the clock presets, described in words.
func clockChoices() []Choice {
	out := make([]Choice, len(clockPresets))
	for i, p := range clockPresets {
		tc, _ := parseClock(p)
		out[i] = Choice{Name: describeClock(i18n.English, tc), Value: p, NameLocalizations: map[string]string{
			"th": describeClock(i18n.Thai, tc), "pt-BR": describeClock(i18n.Portuguese, tc)}}
	}
	return out
}

// guildSettings reads the server's settings; outside a server, or when
// the read fails (logged), the bot's defaults.
func (b *Bot) guildSettings(ctx context.Context, guild string) store.GuildSettings {
	if guild == "" || b.st == nil {
		return store.GuildSettings{}
	}
	s := b.st.store()
	if s == nil {
		return store.GuildSettings{Guild: guild}
	}
	gs, err := s.GuildSettings(ctx, guild)
	if err != nil {
		b.log.Warn("read server settings", "guild", guild, "err", err)
	}
	return gs
}

// newReq is c being handled: the caller's language, the server's
// settings and the language of its public messages.
func (b *Bot) newReq(ctx context.Context, c Command) *req {
	r := &req{Command: c, loc: b.locale(ctx, c), guild: b.guildSettings(ctx, c.GuildID)}
	r.pub = b.pubLocale(c, r.guild.Locale)
	return r
}

func (b *Bot) serverCommand(ctx context.Context, r *req) ([]Reply, error) {
	if r.GuildID == "" {
		return nil, refuse("server.noguild")
	}
	if !r.ManageServer {
		return nil, refuse("server.refuse")
	}
	st := b.st.store()
	// Read again, failing loudly: r.guild falls back to the defaults on a
	// failed read, which saved would wipe the other settings.
	gs, err := st.GuildSettings(ctx, r.GuildID)
	if err != nil {
		return nil, wrap("read server settings", err)
	}
	opt := r.Options
	if v, ok := opt["public_language"]; ok {
		if strings.EqualFold(strings.TrimSpace(v), "auto") {
			gs.Locale = ""
		} else if l := i18n.Normalize(v); l != "" && l != i18n.Pseudo {
			gs.Locale = l
		} else {
			return nil, refuse("settings.badlang", v, strings.Join(i18n.Locales, ", "))
		}
	}
	if v, ok := opt["default_game"]; ok {
		rules, found := lookupGame(strings.ToLower(strings.TrimSpace(v)))
		if !found {
			return nil, refuse("refuse.unknowngame", v, strings.Join(gameNames(), ", "))
		}
		gs.Game = rules.Name()
	}
	if v, ok := opt["default_clock"]; ok {
		p := strings.TrimSpace(v)
		if _, valid := parseClock(p); !valid {
			return nil, refuse("refuse.badclock", v, strings.Join(clockPresets, ", "))
		}
		gs.Clock = p
	}
	if v, ok := opt["threads"]; ok {
		on := v == "true"
		gs.Thread = &on
	}
	if v, ok := opt["ai"]; ok {
		gs.NoAI = v != "true"
	}
	if len(opt) > 0 {
		if err := st.SaveGuildSettings(ctx, gs); err != nil {
			return nil, wrap("save server settings", err)
		}
		if v, ok := opt["web_links"]; ok {
			if err := st.SetWebLinks(ctx, r.GuildID, v == "true"); err != nil {
				return nil, wrap("save server settings", err)
			}
		}
	}
	links, err := st.WebLinks(ctx, r.GuildID)
	if err != nil {
		return nil, wrap("read server settings", err)
	}
	head := r.t("server.shown")
	if len(opt) > 0 {
		head = r.t("server.saved")
	}
	return []Reply{{Ephemeral: true, Content: head + "\n" + b.serverSummary(r, gs, links)}}, nil
}

// serverSummary lists the server's settings in the reader's language, as
// /server and /help show them.
func (b *Bot) serverSummary(r *req, gs store.GuildSettings, links bool) string {
	onOff := func(on bool) string {
		if on {
			return r.t("server.on")
		}
		return r.t("server.off")
	}
	lang := r.t("server.auto")
	if gs.Locale != "" {
		lang = i18n.T(gs.Locale, "language.name")
	}
	game := gs.Game
	if game == "" {
		game = defaultGame()
	}
	clk := gs.Clock
	if clk == "" {
		clk = r.t("server.gamedefault")
	}
	thread := b.cfg.ThreadPerGame
	if gs.Thread != nil {
		thread = *gs.Thread
	}
	return r.t("server.summary", lang, gameLabel(r.loc, game, "x", nil), clk, onOff(thread), onOff(links), onOff(!gs.NoAI))
}
