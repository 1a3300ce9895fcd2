package app

import (
	"context"
	"errors"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/bot/web"
	"github.com/tankbot/tankbot/store"
)

// WatchLink adds the "Watch / Replay" link button to a game message's
// rows when the web viewer has a base URL and the server keeps links on
// (docs/web.md), after a Hide page button once the game is over: in the
// last row if it has room, else in a row of its own. A failure costs only
// the link.
func (b *Bot) WatchLink(ctx context.Context, r *Req, g *Game, rows [][]view.Component) [][]view.Component {
	if b.Cfg.WebBaseURL == "" {
		return rows
	}
	u, err := web.GameURL(ctx, b.St, b.Cfg.WebBaseURL, g.ID, g.GuildID)
	if err != nil {
		b.Log.Warn("web link", "game", g.ID, "err", err)
		return rows
	}
	if u == "" {
		return rows
	}
	add := []view.Component{{Kind: view.Button, Style: view.Link, URL: u, Label: r.T("web.watch")}}
	if g.Status != GmActive {
		hide := view.Component{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "webhide"), Label: r.T("btn.webhide"), Style: view.Secondary}
		add = append([]view.Component{hide}, add...)
	}
	if n := len(rows); n > 0 && len(rows[n-1])+len(add) <= 5 && rows[n-1][0].Kind == view.Button {
		last := append(append([]view.Component(nil), rows[n-1]...), add...)
		return append(append([][]view.Component(nil), rows[:n-1]...), last)
	}
	if len(rows) < 5 {
		return append(rows, add)
	}
	return rows
}

// HideWebPage hides (hide) or shows again a finished game's web page at
// the request of one of its players (docs/web.md): the page, its images
// and downloads then answer 404, as for a token that never existed. The
// confirmation is private and offers the way back.
func (b *Bot) HideWebPage(ctx context.Context, r *Req, g *Game, hide bool) ([]view.Reply, error) {
	if _, ok := g.Side(r.User.ID); !ok {
		return nil, Refuse("web.hide-notplayer", g.Num())
	}
	if g.Status == GmActive {
		return nil, Refuse("web.hide-active", g.Num())
	}
	if err := b.St.HideGame(ctx, g.ID, r.User.ID, hide); err != nil {
		switch {
		case errors.Is(err, store.ErrNotPlayer):
			return nil, Refuse("web.hide-notplayer", g.Num())
		case errors.Is(err, store.ErrGameActive):
			return nil, Refuse("web.hide-active", g.Num())
		}
		return nil, Wrap("hide web page", err)
	}
	key, other, label := "web.hidden", "webshow", "btn.webshow"
	if !hide {
		key, other, label = "web.shown", "webhide", "btn.webhide"
	}
	return []view.Reply{{
		Ephemeral:  true,
		Content:    r.T(key, g.Num()),
		Components: [][]view.Component{{{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, other), Label: r.T(label), Style: view.Secondary}}},
	}}, nil
}
