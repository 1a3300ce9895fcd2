package bot

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
)

var gamesCmd = command{
	name: "games",
	doc:  "Active games in this server, yours first, a page at a time (◀ ▶).",
	run:  (*Bot).gamesCommand,
	routes: []route{{prefix: "p", format: "p:<page>:games", doc: "◀ ▶ of the `/games` list: the message is edited in place.",
		run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
			id, ok := parseCustomID(r.CustomID)
			if !ok || id.action != "games" {
				return nil, refuse("refuse.unknown")
			}
			return b.gamesPage(ctx, r, int(id.id))
		}}},
}

var historyCmd = command{
	name: "history",
	doc:  "A game's record as a text file (start, players, clock, numbered moves with CHECK/ESCAPE marks `+`, `-`, `+-`, result) and, once it is over, its animated replay. `game:#12` names any game of this server by its number.",
	opts: []optDef{gameOptFinished},
	run:  (*Bot).historyCommand,
	actions: []action{{name: "record", anyone: true, doc: "Game record, on a finished game's board: the record file and replay, just for whoever clicks.",
		run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
			return b.recordReply(ctx, r, g)
		}}},
}

var rulesCmd = command{
	name: "rules",
	doc:  "A short summary, the piece table and the notation, with a start position as an image.",
	opts: []optDef{{name: "game", typ: String, choices: gameChoices}},
	run:  (*Bot).rulesCommand,
}

var settingsCmd = command{
	name: "settings",
	doc:  "Your language (en, th, pt-BR) and board orientation.",
	opts: []optDef{{name: "language", typ: String, choices: languageChoices}, {name: "flip", typ: Bool}},
	run:  (*Bot).settingsCommand,
}

var helpCmd = command{
	name: "help",
	doc:  "A short guide: starting a game, three ways to move with examples per game, clocks, where the game lives, every command.",
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		return []Reply{{Ephemeral: true, Content: r.t("help.text", MoveExample("tank"), MoveExample("camelot"), MoveExample("gungi"), b.cmds.names())}}, nil
	},
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
		line := r.t("games.line", g.num(), labelOf(r.loc, g.Game, g.Variant, g.Start), g.White.Name, g.Black.Name,
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

// historyCommand sends a game's record file (engine/record: tags, numbered
// moves with announcement marks, result) and, once the game is over, its
// animated replay. game:#N names a game by its number on this server;
// without it, the caller's game here (which may be over).
func (b *Bot) historyCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, byNumber, err := b.gameByNumber(ctx, r, r.Options["game"])
	if err != nil {
		return nil, err
	}
	if !byNumber {
		if g, err = b.findFinished(ctx, r); err != nil {
			return nil, err
		}
	}
	return b.recordReply(ctx, r, g)
}

// recordReply is a game's record file and, once it is over, its animated
// replay, for whoever asks (/history, the final board's record button).
func (b *Bot) recordReply(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	files, err := b.gameFiles(ctx, g, false)
	if err != nil {
		return nil, err
	}
	num := strings.TrimSuffix(strings.TrimPrefix(files[0].Name, "game-"), ".txt")
	lines := []string{r.t("history.file", num), r.t("history.players", "<@"+g.White.ID+">", "<@"+g.Black.ID+">")}
	if g.Status != gmActive {
		lines = append(lines, r.t("history.result", outcomeWords(r.loc, g)))
	}
	return []Reply{{Ephemeral: true, Content: strings.Join(lines, "\n"), Files: files}}, nil
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
