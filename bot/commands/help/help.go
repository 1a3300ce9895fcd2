package help

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
)

// /help: the guide, with every command of the table.

var Command = app.CommandDef{
	Name: "help",
	Doc:  "A short guide: starting a game, three ways to move with examples per game, clocks, where the game lives, every command, and this server's settings (/server).",
	Run: func(b *app.Bot, ctx context.Context, r *app.Req) ([]app.Reply, error) {
		text := r.T("help.text", app.ExamplesLine(r.Loc), b.HelpNames, app.DefaultGame())
		if r.GuildID != "" {
			// The server's settings (/server), for everyone to know them.
			if links, err := b.St.WebLinks(ctx, r.GuildID); err == nil {
				text = strings.Join([]string{text, r.T("server.help"), b.ServerSummary(r, r.Guild, links)}, "\n")
			}
		}
		return []app.Reply{{Ephemeral: true, Content: app.ClipRunes(text, 2000)}}, nil
	},
}
