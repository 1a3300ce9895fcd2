// Package server holds /server: the server's settings, for members with Manage Server (the
// registration hides the command from the others; the handler checks
// again, since a server can change who sees it). Without options it shows
// the settings; each option given changes one. Stored per server
// (store.GuildSettings; web links in the web viewer's own switch) and
// read once per interaction into the req.
package server

import (
	"context"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

var Command = app.CommandDef{
	Name: "server",
	Doc: "The server's settings (Manage Server only; the answer is just for you): `public_language` (`auto`: Discord's server language), " +
		"`default_game`, `default_clock` (a preset), `threads` (games open a thread), `web_links` (Watch / Replay links), `ai` (games against the computer), " +
		"`games_channel` (the only text channel where /challenge works, its threads too), `daily_channel` and `daily_hour` (where and at what hour, UTC, the daily puzzle is posted), " +
		"`challenge_role` (the role needed to challenge; @everyone: anyone), `default_map` (a variant, the default map of its game; `auto`: the game's own), " +
		"`reset` (clears one of these). Without options: shows them. Bad values are refused and change nothing.",
	Opts: []app.OptDef{
		{Name: "public_language", Typ: app.String, Choices: publicLanguageChoices},
		{Name: "default_game", Typ: app.String, Choices: app.GameChoices},
		{Name: "default_clock", Typ: app.String, Choices: clockChoices},
		{Name: "threads", Typ: app.Bool},
		{Name: "web_links", Typ: app.Bool},
		{Name: "ai", Typ: app.Bool},
		{Name: "games_channel", Typ: app.ChannelOption},
		{Name: "daily_channel", Typ: app.ChannelOption},
		{Name: "daily_hour", Typ: app.Integer, Bounds: app.Between(0, 23)},
		{Name: "challenge_role", Typ: app.RoleOption},
		{Name: "default_map", Typ: app.String, Suggest: suggestServerMaps},
		{Name: "reset", Typ: app.String, Choices: resetChoices},
	},
	ManageServer: true,
	ServerOnly:   "place.serveronly.server",
	Run:          serverCommand,
	Routes:       []app.RouteDef{app.DailyRoute},
}

// resetValues are what /server reset clears.
var resetValues = []string{"games_channel", "daily_channel", "challenge_role", "default_maps"}

func resetChoices() []view.Choice {
	out := make([]view.Choice, len(resetValues))
	for i, v := range resetValues {
		out[i] = view.Choice{Name: i18n.T(i18n.English, "server.reset."+v), Value: v, NameLocalizations: app.Localized("server.reset." + v)}
	}
	return out
}

// suggestServerMaps offers the variants of the default_game given, else
// of every game, as "variant".
func suggestServerMaps(b *app.Bot, ctx context.Context, r *app.Req, typed string) []view.Choice {
	games := app.GameNames()
	if g := strings.TrimSpace(r.Options["default_game"]); g != "" {
		games = []string{g}
	}
	names := []string{"auto"}
	for _, g := range games {
		if rules, ok := app.LookupGame(g); ok {
			for _, v := range rules.Variants() {
				names = append(names, v.Name)
			}
		}
	}
	return app.PrefixChoices(names, typed)
}

// publicLanguageChoices: each language named in itself, and "auto".
func publicLanguageChoices() []view.Choice {
	out := app.LanguageChoices()
	for i := range out {
		out[i].NameLocalizations = map[string]string{"th": out[i].Name, "pt-BR": out[i].Name}
	}
	return append(out, view.Choice{Name: i18n.T(i18n.English, "server.auto"), Value: "auto", NameLocalizations: app.Localized("server.auto")})
}

// clockChoices are the clock presets, described in words.
func clockChoices() []view.Choice {
	out := make([]view.Choice, len(app.ClockPresets))
	for i, p := range app.ClockPresets {
		tc, _ := app.ParseClock(p)
		out[i] = view.Choice{Name: app.DescribeClock(i18n.English, tc), Value: p, NameLocalizations: map[string]string{
			"th": app.DescribeClock(i18n.Thai, tc), "pt-BR": app.DescribeClock(i18n.Portuguese, tc)}}
	}
	return out
}

func serverCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	if r.GuildID == "" {
		return nil, app.Refuse("server.noguild")
	}
	if !r.ManageServer {
		return nil, app.Refuse("server.refuse")
	}
	st := b.St
	// Read again, failing loudly: r.guild falls back to the defaults on a
	// failed read, which saved would wipe the other settings.
	gs, err := st.GuildSettings(ctx, r.GuildID)
	if err != nil {
		return nil, app.Wrap("read server settings", err)
	}
	opt := r.Options
	if v, ok := opt["public_language"]; ok {
		if strings.EqualFold(strings.TrimSpace(v), "auto") {
			gs.Locale = ""
		} else if l := i18n.Normalize(v); l != "" && l != i18n.Pseudo {
			gs.Locale = l
		} else {
			return nil, app.Refuse("settings.badlang", v, strings.Join(i18n.Locales, ", "))
		}
	}
	if v, ok := opt["default_game"]; ok {
		rules, found := app.LookupGame(strings.ToLower(strings.TrimSpace(v)))
		if !found {
			return nil, app.Refuse("refuse.unknowngame", v, strings.Join(app.GameNames(), ", "))
		}
		gs.Game = rules.Name()
	}
	if v, ok := opt["default_clock"]; ok {
		p := strings.TrimSpace(v)
		if _, valid := app.ParseClock(p); !valid {
			return nil, app.Refuse("refuse.badclock", v, strings.Join(app.ClockPresets, ", "))
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
	dailyBefore := [2]string{gs.DailyChannel, strconv.Itoa(gs.DailyHour)}
	if err := serverChannelsAndRoles(r, &gs); err != nil {
		return nil, err
	}
	if v, ok := opt["default_map"]; ok {
		if err := setDefaultMap(&gs, opt["default_game"], v); err != nil {
			return nil, err
		}
	}
	if len(opt) > 0 {
		var eff store.Effects
		if dailyBefore != [2]string{gs.DailyChannel, strconv.Itoa(gs.DailyHour)} {
			eff = b.DailyEffects(gs)
		}
		if err := st.SaveGuildSettings(ctx, gs, eff); err != nil {
			return nil, app.Wrap("save server settings", err)
		}
		if v, ok := opt["web_links"]; ok {
			if err := st.SetWebLinks(ctx, r.GuildID, v == "true"); err != nil {
				return nil, app.Wrap("save server settings", err)
			}
		}
	}
	links, err := st.WebLinks(ctx, r.GuildID)
	if err != nil {
		return nil, app.Wrap("read server settings", err)
	}
	head := r.T("server.shown")
	if len(opt) > 0 {
		head = r.T("server.saved")
	}
	return []view.Reply{{Ephemeral: true, Content: head + "\n" + b.ServerSummary(r, gs, links)}}, nil
}

// serverChannelsAndRoles applies /server's channel, hour, role and reset
// options to gs: a channel must be a text channel of the server (Discord
// sends its type), the hour 0–23.
func serverChannelsAndRoles(r *app.Req, gs *store.GuildSettings) error {
	opt := r.Options
	channel := func(name string) (string, error) {
		id := strings.TrimSpace(opt[name])
		if ch, ok := r.Channels[id]; !ok || !ch.Text {
			return "", app.Refuse("server.badchannel", app.ChannelMention(id))
		}
		return id, nil
	}
	if _, ok := opt["games_channel"]; ok {
		id, err := channel("games_channel")
		if err != nil {
			return err
		}
		gs.GamesChannel = id
	}
	if _, ok := opt["daily_channel"]; ok {
		id, err := channel("daily_channel")
		if err != nil {
			return err
		}
		gs.DailyChannel = id
	}
	if v, ok := opt["daily_hour"]; ok {
		h, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || h < 0 || h > 23 {
			return app.Refuse("server.badhour", v)
		}
		gs.DailyHour = h
	}
	if v, ok := opt["challenge_role"]; ok {
		// The @everyone role has the server's id: anyone may challenge.
		if v = strings.TrimSpace(v); v == r.GuildID {
			v = ""
		}
		gs.ChallengeRole = v
	}
	if v, ok := opt["reset"]; ok {
		switch v {
		case "games_channel":
			gs.GamesChannel = ""
		case "daily_channel":
			gs.DailyChannel = ""
		case "challenge_role":
			gs.ChallengeRole = ""
		case "default_maps":
			gs.Variants = nil
		default:
			return app.Refuse("server.badreset", v, strings.Join(resetValues, ", "))
		}
	}
	return nil
}

// setDefaultMap makes variant the default map of its game (of game when
// given); "auto" clears it (every game's when no game is given).
func setDefaultMap(gs *store.GuildSettings, game, variant string) error {
	game, variant = strings.ToLower(strings.TrimSpace(game)), strings.TrimSpace(variant)
	games := app.GameNames()
	if game != "" {
		games = []string{game}
	}
	if strings.EqualFold(variant, "auto") {
		for _, g := range games {
			delete(gs.Variants, g)
		}
		return nil
	}
	var known []string
	for _, g := range games {
		rules, ok := app.LookupGame(g)
		if !ok {
			continue
		}
		for _, v := range rules.Variants() {
			if strings.EqualFold(v.Name, variant) {
				if gs.Variants == nil {
					gs.Variants = map[string]string{}
				}
				gs.Variants[rules.Name()] = v.Name
				return nil
			}
			known = append(known, v.Name)
		}
	}
	return app.Refuse("server.badmap", variant, strings.Join(known, ", "))
}
