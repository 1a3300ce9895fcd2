package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/store"
)

// /leaderboard and its page buttons (ratings.go holds the rating math).

var leaderboardCmd = command{
	name: "leaderboard",
	doc:  "This server's ratings for a game, a page at a time; provisional ratings (few games) last.",
	opts: []optDef{{name: "game", typ: String}},
	run:  (*Bot).leaderboardCommand,
	routes: []route{{prefix: lbPrefix, format: "lb:<game>:<offset>", doc: "◀ ▶ of the leaderboard: the message is edited in place.",
		run: (*Bot).leaderboardPage}},
}

// lbPageSize rows per leaderboard page: 15 lines of ~60 characters stay
// far inside a message's 2,000.
const lbPageSize = 15

// lbPrefix starts the custom ids of leaderboard page buttons:
// "lb:<game>:<offset>".
const lbPrefix = "lb"

func (b *Bot) leaderboardCommand(ctx context.Context, r *req) ([]Reply, error) {
	kind := strings.TrimSpace(r.Options["game"])
	if kind == "" {
		kind = gameNames()[0]
	}
	rules, ok := lookupGame(kind)
	if !ok {
		return nil, refuse("refuse.unknowngame", kind, strings.Join(gameNames(), ", "))
	}
	reply, err := b.leaderboard(ctx, r, rules.Name(), 0)
	if err != nil {
		return nil, err
	}
	return []Reply{reply}, nil
}

// leaderboardPage answers a page button by editing the message in place.
func (b *Bot) leaderboardPage(ctx context.Context, r *req) ([]Reply, error) {
	parts := strings.Split(r.CustomID, ":")
	if len(parts) != 3 {
		return nil, refuse("refuse.unknown")
	}
	rules, ok := lookupGame(parts[1])
	off, err := strconv.Atoi(parts[2])
	if !ok || err != nil || off < 0 {
		return nil, refuse("refuse.unknown")
	}
	reply, err := b.leaderboard(ctx, r, rules.Name(), off)
	if err != nil {
		return nil, err
	}
	reply.Update = true
	return []Reply{reply}, nil
}

func (b *Bot) leaderboard(ctx context.Context, r *req, kind string, off int) (Reply, error) {
	st := b.st
	ladder := r.ladder()
	page, total, err := st.Leaderboard(ctx, ladder, kind, rating.ProvisionalRD, off, lbPageSize)
	if err != nil {
		return Reply{}, wrap("leaderboard", err)
	}
	title, empty := r.t("ratings.leaderboard.title", r.t("gamename."+kind)), r.t("ratings.leaderboard.empty")
	if ladder == store.GlobalLadder {
		title, empty = r.t("place.leaderboard.global", r.t("gamename."+kind)), r.t("place.leaderboard.empty")
	}
	if total == 0 {
		return Reply{Ephemeral: true, Content: title + "\n" + empty}, nil
	}
	if off >= total {
		off = (total - 1) / lbPageSize * lbPageSize
		if page, _, err = st.Leaderboard(ctx, ladder, kind, rating.ProvisionalRD, off, lbPageSize); err != nil {
			return Reply{}, wrap("leaderboard", err)
		}
	}
	lines := []string{"**" + title + "**"}
	shownProvisional := false
	for i, p := range page {
		g := glickoOf(p.Glicko)
		if g.Provisional() && !shownProvisional {
			lines = append(lines, r.t("ratings.leaderboard.provisional"))
			shownProvisional = true
		}
		lines = append(lines, r.t("ratings.leaderboard.line", strconv.Itoa(off+i+1), "<@"+p.Player+">", g.String(), strconv.Itoa(p.Games)))
	}
	pages := (total + lbPageSize - 1) / lbPageSize
	lines = append(lines, r.t("ratings.leaderboard.page", strconv.Itoa(off/lbPageSize+1), strconv.Itoa(pages)))
	reply := Reply{Ephemeral: true, Content: strings.Join(lines, "\n")}
	if pages > 1 {
		reply.Components = [][]Component{{
			{Kind: Button, CustomID: lbID(kind, max(off-lbPageSize, 0)), Label: r.t("ratings.leaderboard.prev"), Style: Secondary, Disabled: off == 0},
			{Kind: Button, CustomID: lbID(kind, off+lbPageSize), Label: r.t("ratings.leaderboard.next"), Style: Secondary, Disabled: off+lbPageSize >= total},
		}}
	}
	return reply, nil
}

func lbID(kind string, off int) string { return lbPrefix + ":" + kind + ":" + strconv.Itoa(off) }
