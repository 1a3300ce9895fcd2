package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/view"
)

// The router and the command table sit above this package; the tests of
// this package reach them through routerFor, which link_test.go (package
// app_test, free to import them) sets through SetRouterFor.
var routerFor func(*Bot) Routed

// Routed is what the tests use of the router serving a Bot.
type Routed interface {
	Handle(ctx context.Context, c Command) []view.Reply
	Suggest(ctx context.Context, c Command, focused string) []view.Choice
	Commands() []CommandSpec
	CommandDoc() string
	Action(name string) (ActionDef, bool)
	Table() []CommandDef
}

// SetRouterFor is called by link_test.go before the tests run.
func SetRouterFor(f func(*Bot) Routed) { routerFor = f }

func (b *Bot) Handle(ctx context.Context, c Command) []view.Reply { return routerFor(b).Handle(ctx, c) }
func (b *Bot) Suggest(ctx context.Context, c Command, focused string) []view.Choice {
	return routerFor(b).Suggest(ctx, c, focused)
}
func (b *Bot) Commands() []CommandSpec { return routerFor(b).Commands() }
