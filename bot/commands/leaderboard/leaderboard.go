// Package leaderboard holds /leaderboard and its page buttons (ratings.go holds the rating math).
package leaderboard

import (
	"context"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/store"
)

var Command = app.CommandDef{
	Name: "leaderboard",
	Doc:  "This server's ratings for a game, a page at a time; provisional ratings (few games) last.",
	Opts: []app.OptDef{{Name: "game", Typ: app.String}},
	Run:  leaderboardCommand,
	Routes: []app.RouteDef{{Prefix: lbPrefix, Format: "lb:<game>:<offset>", Doc: "◀ ▶ of the leaderboard: the message is edited in place.",
		Run: leaderboardPage}},
}

// lbPageSize rows per leaderboard page: 15 lines of ~60 characters stay
// far inside a message's 2,000.
const lbPageSize = 15

// lbPrefix starts the custom ids of leaderboard page buttons:
// "lb:<game>:<offset>".
const lbPrefix = "lb"

func leaderboardCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	kind := strings.TrimSpace(r.Options["game"])
	if kind == "" {
		kind = app.GameNames()[0]
	}
	rules, ok := app.LookupGame(kind)
	if !ok {
		return nil, app.Refuse("refuse.unknowngame", kind, strings.Join(app.GameNames(), ", "))
	}
	reply, err := leaderboard(b, ctx, r, rules.Name(), 0)
	if err != nil {
		return nil, err
	}
	return []view.Reply{reply}, nil
}

// leaderboardPage answers a page button by editing the message in place.
func leaderboardPage(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	parts := strings.Split(r.CustomID, ":")
	if len(parts) != 3 {
		return nil, app.Refuse("refuse.unknown")
	}
	rules, ok := app.LookupGame(parts[1])
	off, err := strconv.Atoi(parts[2])
	if !ok || err != nil || off < 0 {
		return nil, app.Refuse("refuse.unknown")
	}
	reply, err := leaderboard(b, ctx, r, rules.Name(), off)
	if err != nil {
		return nil, err
	}
	reply.Update = true
	return []view.Reply{reply}, nil
}

func leaderboard(b *app.Bot, ctx context.Context, r *app.Req, kind string, off int) (view.Reply, error) {
	st := b.St
	ladder := r.Ladder()
	page, total, err := st.Leaderboard(ctx, ladder, kind, rating.ProvisionalRD, off, lbPageSize)
	if err != nil {
		return view.Reply{}, app.Wrap("leaderboard", err)
	}
	title, empty := r.T("ratings.leaderboard.title", r.T("gamename."+kind)), r.T("ratings.leaderboard.empty")
	if ladder == store.GlobalLadder {
		title, empty = r.T("place.leaderboard.global", r.T("gamename."+kind)), r.T("place.leaderboard.empty")
	}
	if total == 0 {
		return view.Reply{Ephemeral: true, Content: title + "\n" + empty}, nil
	}
	if off >= total {
		off = (total - 1) / lbPageSize * lbPageSize
		if page, _, err = st.Leaderboard(ctx, ladder, kind, rating.ProvisionalRD, off, lbPageSize); err != nil {
			return view.Reply{}, app.Wrap("leaderboard", err)
		}
	}
	lines := []string{"**" + title + "**"}
	shownProvisional := false
	for i, p := range page {
		g := app.GlickoOf(p.Glicko)
		if g.Provisional() && !shownProvisional {
			lines = append(lines, r.T("ratings.leaderboard.provisional"))
			shownProvisional = true
		}
		lines = append(lines, r.T("ratings.leaderboard.line", strconv.Itoa(off+i+1), "<@"+p.Player+">", g.String(), strconv.Itoa(p.Games)))
	}
	pages := (total + lbPageSize - 1) / lbPageSize
	lines = append(lines, r.T("ratings.leaderboard.page", strconv.Itoa(off/lbPageSize+1), strconv.Itoa(pages)))
	reply := view.Reply{Ephemeral: true, Content: strings.Join(lines, "\n")}
	if pages > 1 {
		reply.Components = [][]view.Component{{
			{Kind: view.Button, CustomID: lbID(kind, max(off-lbPageSize, 0)), Label: r.T("ratings.leaderboard.prev"), Style: view.Secondary, Disabled: off == 0},
			{Kind: view.Button, CustomID: lbID(kind, off+lbPageSize), Label: r.T("ratings.leaderboard.next"), Style: view.Secondary, Disabled: off+lbPageSize >= total},
		}}
	}
	return reply, nil
}

func lbID(kind string, off int) string { return lbPrefix + ":" + kind + ":" + strconv.Itoa(off) }
