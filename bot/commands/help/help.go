// Package help holds /help: the guide, with every command of the table.
package help

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

var Command = app.CommandDef{
	Name: "help",
	Doc:  "A short guide: starting a game, three ways to move with examples per game, clocks, where the game lives, every command, and this server's settings (/server).",
	Run: func(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
		text := r.T("help.text", app.ExamplesLine(r.Locale()), b.HelpNames, app.DefaultGame())
		if r.GuildID != "" {
			// The server's settings (/server), for everyone to know them.
			if links, err := b.St.WebLinks(ctx, r.GuildID); err == nil {
				text = strings.Join([]string{text, r.T("server.help"), b.ServerSummary(r, r.Server(), links)}, "\n")
			}
		}
		return []view.Reply{{Ephemeral: true, Content: view.ClipRunes(text, 2000)}}, nil
	},
}
