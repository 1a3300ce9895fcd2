package app

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// /games: the server's active games, a page at a time.

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
		if p, err := g.Position(); err == nil {
			turn = int(p.Turn())
		}
		line := r.t("games.line", g.Num(), labelOf(r.loc, g.Game, g.Variant, g.Start), g.White.Name, g.Black.Name,
			strconv.Itoa(engine.MoveNumber(g.Ply)), g.User(turn).Name)
		if _, ok := g.Side(r.User.ID); ok {
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
