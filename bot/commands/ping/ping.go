// Package ping is /ping: answers pong, just to the caller.
package ping

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

var Command = app.CommandDef{
	Name: "ping",
	Doc:  "Answers pong, just to you.",
	Run: func(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
		return []view.Reply{{Ephemeral: true, Content: r.T("ping.pong")}}, nil
	},
}
