package bot

import "context"

// /help: the guide, with every command of the table.

var helpCmd = command{
	name: "help",
	doc:  "A short guide: starting a game, three ways to move with examples per game, clocks, where the game lives, every command.",
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		return []Reply{{Ephemeral: true, Content: r.t("help.text", examplesLine(r.loc), b.cmds.names(), defaultGame())}}, nil
	},
}
