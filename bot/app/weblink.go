package app

import (
	"context"
	"errors"

	"github.com/tankbot/tankbot/bot/web"
	"github.com/tankbot/tankbot/store"
)

// watchLink adds the "Watch / Replay" link button to a game message's
// rows when the web viewer has a base URL and the server keeps links on
// (docs/web.md), after a Hide page button once the game is over: in the
// last row if it has room, else in a row of its own. A failure costs only
// the link.
func (b *Bot) watchLink(ctx context.Context, r *req, g *gameRec, rows [][]Component) [][]Component {
	if b.cfg.WebBaseURL == "" {
		return rows
	}
	u, err := web.GameURL(ctx, b.st, b.cfg.WebBaseURL, g.ID, g.GuildID)
	if err != nil {
		b.log.Warn("web link", "game", g.ID, "err", err)
		return rows
	}
	if u == "" {
		return rows
	}
	add := []Component{{Kind: Button, Style: Link, URL: u, Label: r.t("web.watch")}}
	if g.Status != gmActive {
		hide := Component{Kind: Button, CustomID: gameID(g.ID, g.Seq, "webhide"), Label: r.t("btn.webhide"), Style: Secondary}
		add = append([]Component{hide}, add...)
	}
	if n := len(rows); n > 0 && len(rows[n-1])+len(add) <= 5 && rows[n-1][0].Kind == Button {
		last := append(append([]Component(nil), rows[n-1]...), add...)
		return append(append([][]Component(nil), rows[:n-1]...), last)
	}
	if len(rows) < 5 {
		return append(rows, add)
	}
	return rows
}

// hideWebPage hides (hide) or shows again a finished game's web page at
// the request of one of its players (docs/web.md): the page, its images
// and downloads then answer 404, as for a token that never existed. The
// confirmation is private and offers the way back.
func (b *Bot) hideWebPage(ctx context.Context, r *req, g *gameRec, hide bool) ([]Reply, error) {
	if _, ok := g.Side(r.User.ID); !ok {
		return nil, refuse("web.hide-notplayer", g.Num())
	}
	if g.Status == gmActive {
		return nil, refuse("web.hide-active", g.Num())
	}
	if err := b.st.HideGame(ctx, g.ID, r.User.ID, hide); err != nil {
		switch {
		case errors.Is(err, store.ErrNotPlayer):
			return nil, refuse("web.hide-notplayer", g.Num())
		case errors.Is(err, store.ErrGameActive):
			return nil, refuse("web.hide-active", g.Num())
		}
		return nil, wrap("hide web page", err)
	}
	key, other, label := "web.hidden", "webshow", "btn.webshow"
	if !hide {
		key, other, label = "web.shown", "webhide", "btn.webhide"
	}
	return []Reply{{
		Ephemeral:  true,
		Content:    r.t(key, g.Num()),
		Components: [][]Component{{{Kind: Button, CustomID: gameID(g.ID, g.Seq, other), Label: r.t(label), Style: Secondary}}},
	}}, nil
}
