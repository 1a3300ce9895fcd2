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

// gamesCommand lists the server's active games, the caller's first, a
// page at a time.
func (b *Bot) gamesCommand(ctx context.Context, r *req) ([]Reply, error) {
	return b.gamesPage(ctx, r, 1)
}

// gamesPageChars keeps a page well inside Discord's 2,000 characters.
const gamesPageChars = 1800

// gamesPage is page n (from 1) of the game list, with ◀ ▶ buttons; a click
// edits the list in place.
func (b *Bot) gamesPage(ctx context.Context, r *req, n int) ([]Reply, error) {
	games, err := b.st.activeGames(ctx, r.GuildID)
	if err != nil {
		return nil, wrap("active games", err)
	}
	upd := r.Kind == KindComponent
	if len(games) == 0 {
		return []Reply{{Ephemeral: true, Update: upd, Content: r.t("games.none")}}, nil
	}
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	var mine, all []string
	for _, g := range games {
		turn := g.Turn
		if p, err := g.position(); err == nil {
			turn = int(p.Turn())
		}
		line := r.t("games.line", strconv.FormatInt(g.ID, 10), labelOf(r.loc, g.Game, g.Variant, g.Start), g.White.Name, g.Black.Name,
			strconv.Itoa(g.Ply), g.user(turn).Name)
		if _, ok := g.player(r.User.ID); ok {
			mine = append(mine, line)
		} else {
			all = append(all, line)
		}
	}
	// Lines with their section headers, then pages of whole lines.
	var lines []string
	if len(mine) > 0 {
		lines = append(lines, "**"+r.t("games.mine")+"**")
		lines = append(lines, mine...)
	}
	if len(all) > 0 {
		lines = append(lines, "**"+r.t("games.header")+"**")
		lines = append(lines, all...)
	}
	var pages []string
	var cur strings.Builder
	for _, l := range lines {
		l = clipRunes(l, gamesPageChars)
		if cur.Len() > 0 && cur.Len()+len(l)+1 > gamesPageChars {
			pages = append(pages, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte('\n')
		}
		cur.WriteString(l)
	}
	pages = append(pages, cur.String())
	n = max(1, min(n, len(pages)))
	reply := Reply{Ephemeral: true, Update: upd, Content: pages[n-1]}
	if len(pages) > 1 {
		reply.Content += "\n" + r.t("games.page", strconv.Itoa(n), strconv.Itoa(len(pages)))
		reply.Components = [][]Component{{
			{Kind: Button, CustomID: "p:" + strconv.Itoa(max(1, n-1)) + ":games", Label: r.t("btn.prev"), Style: Secondary, Disabled: n == 1},
			{Kind: Button, CustomID: "p:" + strconv.Itoa(min(len(pages), n+1)) + ":games", Label: r.t("btn.next"), Style: Secondary, Disabled: n == len(pages)},
		}}
	}
	return []Reply{reply}, nil
}

// historyCommand sends the full record as a text file: start, players,
// clock, numbered moves with their announcement marks, result.
func (b *Bot) historyCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.findFinished(ctx, r)
	if err != nil {
		return nil, err
	}
	return b.recordReply(ctx, r, g)
}

// recordReply is a game's record as a file, for whoever asks.
func (b *Bot) recordReply(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
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
	content := r.t("history.file", id)
	if g.Status != gmActive {
		content += "\n" + resultText(r.loc, g)
	}
	return []Reply{{
		Ephemeral: true,
		Content:   content,
		Files:     []File{{Name: "game-" + id + ".txt", ContentType: "text/plain; charset=utf-8", Data: []byte(text)}},
	}}, nil
}

// record writes a game's record; moves are replayed so each carries the
// announcement mark of the position it led to.
func record(loc string, g *gameRec, start engine.Position, log []string) (string, error) {
	var sb strings.Builder
	line := func(s string) { sb.WriteString(s + "\n") }
	tc, _ := parseClock(g.Clock)
	line(i18n.T(loc, "game.title", strconv.FormatInt(g.ID, 10), gameLabel(loc, g.Game, g.Variant, start)))
	if g.Variant == "" {
		line(i18n.T(loc, "history.start", g.Start))
	}
	line(i18n.T(loc, "history.players", plain(g.White.Name), plain(g.Black.Name)))
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
		// One numbering everywhere: move n is the game's n-th action,
		// whoever made it (the Gungi draft does not alternate).
		note := pos.FormatMove(m) + suffix(next)
		line(strconv.Itoa(i+1) + ". " + i18n.T(loc, "game."+pos.Turn().String()) + ": " + note)
		pos = next
	}
	if g.Status != gmActive {
		line("")
		line(g.Result)
		line(i18n.T(loc, "history.result", outcomeWords(loc, g)))
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
	text := r.t(key)
	if i18n.Has(key + ".more") {
		// The piece table and the notation.
		text += "\n\n" + r.t(key+".more")
	}
	reply := Reply{Ephemeral: true, Content: clipRunes(text, 2000)}
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
			if png, err := renderPNG(p, nil, false); err == nil {
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
