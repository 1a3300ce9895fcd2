// Package bot wires tankbot's layers together and is the one door the
// transports (bot/discord, bot/console, cmd/tankbot) use: the handler core
// lives in bot/app and the packages under it (docs/architecture.md); this
// package names its types for them, so that a transport depends on one
// package whatever the layers below are called.
package bot

import (
	"log/slog"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/router"
	"github.com/tankbot/tankbot/store"
)

// The bot as the transports hold it: the router (commands, clicks and
// forms in, through the middleware) in front of the handler core, whose
// methods (the scheduler, the outbox, …) it carries.
type (
	Bot     = router.Router
	Config  = app.Config
	Storage = app.Storage
	Clock   = app.Clock
)

// New builds the bot on a Storage (see OpenSQLite), the time source, the
// transport's Notifier (nil: out-of-band posts are dropped) and a logger.
func New(cfg Config, st Storage, clk Clock, n Notifier, log *slog.Logger) *Bot {
	return router.New(app.New(cfg, st, clk, n, log))
}

// OpenSQLite opens (creating and migrating if needed) the database at path.
func OpenSQLite(path string) (Storage, error) { return app.OpenSQLite(path) }

// NewStorage adapts an open store (the caller keeps using it, e.g. for
// meta entries; Close closes it).
func NewStorage(st *store.Store) Storage { return app.NewStorage(st) }

// ErasureScrub is what erasing a user rewrites in the bot's own stored extras.
func ErasureScrub() store.Scrub { return app.ErasureScrub() }

// MoveExample is a move in the game's notation, legal at its start (the console's banner).
func MoveExample(game string) string { return app.MoveExample(game) }
