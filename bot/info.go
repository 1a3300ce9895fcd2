package bot

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

func init() {
	extraCommands["games"] = (*Bot).gamesCommand
	extraCommands["history"] = (*Bot).historyCommand
	extraCommands["rules"] = (*Bot).rulesCommand
	extraCommands["settings"] = (*Bot).settingsCommand
}

// gamesCommand lists the server's active games, the caller's first.
func (b *Bot) gamesCommand(ctx context.Context, r *req) ([]Reply, error) {
	games, err := b.st.activeGames(ctx, r.GuildID)
	if err != nil {
		return nil, wrap("active games", err)
	}
	if len(games) == 0 {
		return []Reply{{Ephemeral: true, Content: r.t("games.none")}}, nil
	}
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	var mine, all []string
	for _, g := range games {
		turn := g.Turn
		if p, err := g.position(); err == nil {
			turn = int(p.Turn())
		}
		line := r.t("games.line", strconv.FormatInt(g.ID, 10), g.Game, g.White.Name, g.Black.Name,
			strconv.Itoa(g.Ply), g.user(turn).Name)
		if _, ok := g.player(r.User.ID); ok {
			mine = append(mine, line)
		} else {
			all = append(all, line)
		}
	}
	var sb strings.Builder
	if len(mine) > 0 {
		sb.WriteString("**" + r.t("games.mine") + "**\n" + strings.Join(mine, "\n") + "\n")
	}
	if len(all) > 0 {
		sb.WriteString("**" + r.t("games.header") + "**\n" + strings.Join(all, "\n"))
	}
	return []Reply{{Ephemeral: true, Content: strings.TrimSpace(sb.String())}}, nil
}

// historyCommand sends the full record as a text file: start, players,
// clock, numbered moves with their announcement marks, result.
func (b *Bot) historyCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.findFinished(ctx, r)
	if err != nil {
		return nil, err
	}
	rules, ok := lookupGame(g.Game)
	if !ok {
		return nil, refuse("refuse.unknowngame", g.Game, strings.Join(gameNames(), ", "))
	}
	start, err := rules.Decode(g.Start)
	if err != nil {
		return nil, wrap("decode start", err)
	}
	log, err := b.st.moveLog(ctx, g.ID)
	if err != nil {
		return nil, wrap("move log", err)
	}
	text, err := record(r.loc, g, start, log)
	if err != nil {
		return nil, err
	}
	id := strconv.FormatInt(g.ID, 10)
	return []Reply{{
		Ephemeral: true,
		Content:   r.t("history.file", id),
		Files:     []File{{Name: "game-" + id + ".txt", ContentType: "text/plain; charset=utf-8", Data: []byte(text)}},
	}}, nil
}

// record writes a game's record; moves are replayed so each carries the
// announcement mark of the position it led to.
func record(loc string, g *gameRec, start engine.Position, log []string) (string, error) {
	var sb strings.Builder
	line := func(s string) { sb.WriteString(s + "\n") }
	tc, _ := parseClock(g.Clock)
	line(i18n.T(loc, "game.title", strconv.FormatInt(g.ID, 10), g.Game))
	if g.Variant != "" {
		line(i18n.T(loc, "history.start", g.Variant))
	} else {
		line(i18n.T(loc, "history.start", g.Start))
	}
	line(i18n.T(loc, "history.players", g.White.Name, g.Black.Name))
	line(i18n.T(loc, "history.clock", describeClock(loc, tc)))
	line("")
	pos := start
	for i, n := range log {
		m, err := pos.ParseMove(n)
		if err != nil {
			return "", wrap("replay move "+strconv.Itoa(i+1), err)
		}
		next, err := pos.Play(m)
		if err != nil {
			return "", wrap("replay move "+strconv.Itoa(i+1), err)
		}
		note := pos.FormatMove(m) + suffix(next)
		if i%2 == 0 {
			sb.WriteString(strconv.Itoa(i/2+1) + ". " + note)
		} else {
			sb.WriteString(" " + note + "\n")
		}
		pos = next
	}
	if len(log)%2 == 1 {
		sb.WriteString("\n")
	}
	if g.Status != gmActive {
		line("")
		line(g.Result)
		line(i18n.T(loc, "history.result", i18n.T(loc, "result."+g.Result), i18n.T(loc, "reason."+g.Reason)))
	}
	return sb.String(), nil
}

// rulesCommand gives a short summary of a game with its start position.
func (b *Bot) rulesCommand(ctx context.Context, r *req) ([]Reply, error) {
	name := strings.ToLower(strings.TrimSpace(r.Options["game"]))
	if name == "" {
		name = "tank"
	}
	rules, ok := lookupGame(name)
	if !ok {
		return nil, refuse("refuse.unknowngame", name, strings.Join(gameNames(), ", "))
	}
	key := "rules." + rules.Name()
	if !i18n.Has(key) {
		return []Reply{{Ephemeral: true, Content: r.t("rules.unknown", rules.Name())}}, nil
	}
	reply := Reply{Ephemeral: true, Content: r.t(key)}
	if vs := rules.Variants(); len(vs) > 0 {
		// The first variant's start, except Gungi's empty draft board:
		// its quick formation shows the pieces.
		example := vs[0].Name
		for _, v := range vs {
			if v.Name == "quick" {
				example = v.Name
			}
		}
		if p, err := rules.Start(example); err == nil {
			if png, err := renderPNG(p, nil, false, r.loc, nil); err == nil {
				reply.Files = []File{{Name: "rules-" + rules.Name() + ".png", ContentType: "image/png", Data: png}}
			}
		}
	}
	return []Reply{reply}, nil
}

// settingsCommand stores the caller's language and board orientation.
func (b *Bot) settingsCommand(ctx context.Context, r *req) ([]Reply, error) {
	s, err := b.st.settings(ctx, r.User.ID)
	if err != nil {
		return nil, wrap("load settings", err)
	}
	if l, ok := r.Options["language"]; ok {
		loc := i18n.Normalize(l)
		if loc == "" || loc == i18n.Pseudo {
			return nil, refuse("settings.badlang", l, strings.Join(i18n.Locales, ", "))
		}
		s.Locale = loc
	}
	if f, ok := r.Options["flip"]; ok {
		s.Flip = f == "true"
	}
	if err := b.st.saveSettings(ctx, r.User.ID, s); err != nil {
		return nil, wrap("save settings", err)
	}
	loc := s.Locale
	if loc == "" {
		loc = r.loc
	}
	flip := i18n.T(loc, "settings.flip.off")
	if s.Flip {
		flip = i18n.T(loc, "settings.flip.on")
	}
	return []Reply{{Ephemeral: true, Content: i18n.T(loc, "settings.saved", i18n.T(loc, "language.name"), flip)}}, nil
}
