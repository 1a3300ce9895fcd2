// Package commands is the one command list: every slash command a player
// can use, in the order /help and docs/bot.md list them. Each command is
// a leaf package of its own (bot/commands/<name>) with its handler, its
// options and the buttons, menus and forms it owns; no command package
// imports another, and only the router (bot/router) imports this one.
// Adding a command is one package and one line here.
package commands

import (
	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/commands/abort"
	"github.com/tankbot/tankbot/bot/commands/board"
	"github.com/tankbot/tankbot/bot/commands/challenge"
	"github.com/tankbot/tankbot/bot/commands/data"
	"github.com/tankbot/tankbot/bot/commands/draw"
	"github.com/tankbot/tankbot/bot/commands/games"
	"github.com/tankbot/tankbot/bot/commands/help"
	"github.com/tankbot/tankbot/bot/commands/history"
	"github.com/tankbot/tankbot/bot/commands/leaderboard"
	"github.com/tankbot/tankbot/bot/commands/move"
	"github.com/tankbot/tankbot/bot/commands/profile"
	"github.com/tankbot/tankbot/bot/commands/puzzle"
	"github.com/tankbot/tankbot/bot/commands/resign"
	"github.com/tankbot/tankbot/bot/commands/review"
	"github.com/tankbot/tankbot/bot/commands/rules"
	"github.com/tankbot/tankbot/bot/commands/server"
	"github.com/tankbot/tankbot/bot/commands/settings"
	"github.com/tankbot/tankbot/bot/commands/takeback"
	"github.com/tankbot/tankbot/bot/commands/tournament"
)

// All is the command table. Registration, routing, autocomplete, /help
// and docs/bot.md (a test compares) all read it, through the router.
var All = []app.CommandDef{
	challenge.Challenge,
	challenge.Accept,
	move.Command,
	board.Command,
	resign.Command,
	draw.Command,
	takeback.Command,
	abort.Command,
	challenge.Rematch,
	games.Command,
	history.Command,
	rules.Command,
	leaderboard.Command,
	profile.Command,
	help.Command,
	settings.Command,
	puzzle.Command,
	tournament.Command,
	review.Command,
	data.Command,
	server.Command,
}
