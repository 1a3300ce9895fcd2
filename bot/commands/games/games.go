// Package games holds /games: the server's active games, a page at a time.
package games

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/engine"
)

var Command = app.CommandDef{
	Name: "games",
	Doc:  "Active games in this server, yours first, a page at a time (◀ ▶).",
	Run:  gamesCommand,
	Routes: []app.RouteDef{{Prefix: "p", Format: "p:<page>:games", Doc: "◀ ▶ of the `/games` list: the message is edited in place.",
		Run: func(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
			id, ok := view.ParseCustomID(r.CustomID)
			if !ok || id.Action != "games" {
				return nil, app.Refuse("refuse.unknown")
			}
			return gamesPage(b, ctx, r, int(id.ID))
		}}},
}

// gamesCommand lists the server's active games, the caller's first, a
// page at a time.
func gamesCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	return gamesPage(b, ctx, r, 1)
}

// gamesPageChars keeps a page well inside Discord's 2,000 characters.
const gamesPageChars = 1800

// gamesPage is page n (from 1) of the game list, with ◀ ▶ buttons; a click
// edits the list in place.
func gamesPage(b *app.Bot, ctx context.Context, r *app.Req, n int) ([]view.Reply, error) {
	games, err := b.St.ActiveGames(ctx, r.GuildID)
	if err != nil {
		return nil, app.Wrap("active games", err)
	}
	upd := r.Kind == app.KindComponent
	if len(games) == 0 {
		return []view.Reply{{Ephemeral: true, Update: upd, Content: r.T("games.none")}}, nil
	}
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	var mine, all []string
	for _, g := range games {
		turn := g.Turn
		if p, err := g.Position(); err == nil {
			turn = int(p.Turn())
		}
		line := r.T("games.line", g.Num(), view.LabelOf(r.Locale(), g.Game, g.Variant, g.Start), g.White.Name, g.Black.Name,
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
		lines = append(lines, "**"+r.T("games.mine")+"**")
		lines = append(lines, mine...)
	}
	if len(all) > 0 {
		lines = append(lines, "**"+r.T("games.header")+"**")
		lines = append(lines, all...)
	}
	var pages []string
	var cur strings.Builder
	for _, l := range lines {
		l = view.ClipRunes(l, gamesPageChars)
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
	reply := view.Reply{Ephemeral: true, Update: upd, Content: pages[n-1]}
	if len(pages) > 1 {
		reply.Content += "\n" + r.T("games.page", strconv.Itoa(n), strconv.Itoa(len(pages)))
		reply.Components = [][]view.Component{{
			{Kind: view.Button, CustomID: "p:" + strconv.Itoa(max(1, n-1)) + ":games", Label: r.T("btn.prev"), Style: view.Secondary, Disabled: n == 1},
			{Kind: view.Button, CustomID: "p:" + strconv.Itoa(min(len(pages), n+1)) + ":games", Label: r.T("btn.next"), Style: view.Secondary, Disabled: n == len(pages)},
		}}
	}
	return []view.Reply{reply}, nil
}
