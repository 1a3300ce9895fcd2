package app

import (
	"context"
	"strings"
)

// /help: the guide, with every command of the table.

var helpCmd = command{
	name: "help",
	doc:  "A short guide: starting a game, three ways to move with examples per game, clocks, where the game lives, every command, and this server's settings (/server).",
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		text := r.t("help.text", examplesLine(r.loc), b.cmds.names(), defaultGame())
		if r.GuildID != "" {
			// The server's settings (/server), for everyone to know them.
			if links, err := b.st.WebLinks(ctx, r.GuildID); err == nil {
				text = strings.Join([]string{text, r.t("server.help"), b.serverSummary(r, r.guild, links)}, "\n")
			}
		}
		return []Reply{{Ephemeral: true, Content: clipRunes(text, 2000)}}, nil
	},
}
