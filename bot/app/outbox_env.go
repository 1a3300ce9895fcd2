package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
)

// outboxEnv is what the outbox's post kinds use of the bot to draw and
// record what they deliver (outbox.Env).
type outboxEnv struct {
	b *Bot
	// seq is the move sequence of the fallback ping being delivered (0:
	// not a ping): recording its board cancels it.
	seq int
}

// Post sends a queued post; one of a game played where the bot may not
// post goes another way (places.go).
func (e outboxEnv) Post(ctx context.Context, channel string, r view.Reply) (string, error) {
	if g, ok := e.b.postsElsewhere(ctx, gameOf(r)); ok {
		return e.b.sendElsewhere(ctx, g, r)
	}
	return e.b.n.Post(ctx, channel, r)
}

func (e outboxEnv) Edit(ctx context.Context, channel, msg string, r view.Reply) error {
	return e.b.n.Edit(ctx, channel, msg, r)
}

// track makes the message r becomes recorded as game's board.
func (e outboxEnv) track(game int64, r *view.Reply) {
	if game != 0 {
		r.Sent = e.b.BoardRecorder(game, e.seq)
	}
}

func (e outboxEnv) RedrawBoard(ctx context.Context, game int64, r *view.Reply) {
	e.track(game, r)
	if r.Embed == nil || r.Embed.Image == "" {
		return
	}
	if g, ok := e.b.queuedGame(ctx, game, r); ok {
		e.b.redrawImage(ctx, r, g)
	}
}

func (e outboxEnv) FinalBoard(ctx context.Context, game int64, r *view.Reply) {
	e.track(game, r)
	if g, ok := e.b.queuedGame(ctx, game, r); ok {
		if r.Embed != nil && r.Embed.Image != "" {
			e.b.redrawImage(ctx, r, g)
		}
		e.b.finalExtras(ctx, e.b.outLocale(g), g, r)
	}
}

func (e outboxEnv) DrawDaily(r *view.Reply, d outbox.DailyRef) { e.b.drawDaily(r, d) }

func (e outboxEnv) DailyDelivered(ctx context.Context, d outbox.DailyRef, messageID string) {
	e.b.dailyDelivered(ctx, d, messageID)
}

func (e outboxEnv) RedrawStandings(ctx context.Context, r *view.Reply, tournament int64) {
	e.b.redrawStandings(ctx, r, tournament)
}
