package bot

import (
	"context"

	"github.com/tankbot/tankbot/bot/web"
	"github.com/tankbot/tankbot/store"
)

// watchLink adds the "Watch / Replay" link button to a game message's
// rows when the web viewer has a base URL and the server keeps links on
// (docs/web.md): in the last row if it has room, else in a row of its own.
// A failure costs only the link.
func (b *Bot) watchLink(ctx context.Context, r *req, g *gameRec, rows [][]Component) [][]Component {
	if b.cfg.WebBaseURL == "" {
		return rows
	}
	// The store under the bot's storage (a storage without one has no
	// pages to link to).
	sr, ok := any(b.st).(interface{ store() *store.Store })
	if !ok {
		return rows
	}
	u, err := web.GameURL(ctx, sr.store(), b.cfg.WebBaseURL, g.ID, g.GuildID)
	if err != nil {
		b.log.Warn("web link", "game", g.ID, "err", err)
		return rows
	}
	if u == "" {
		return rows
	}
	link := Component{Kind: Button, Style: Link, URL: u, Label: r.t("web.watch")}
	if n := len(rows); n > 0 && len(rows[n-1]) < 5 && rows[n-1][0].Kind == Button {
		last := append(append([]Component(nil), rows[n-1]...), link)
		return append(append([][]Component(nil), rows[:n-1]...), last)
	}
	if len(rows) < 5 {
		return append(rows, []Component{link})
	}
	return rows
}
