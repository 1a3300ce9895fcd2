package app

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
)

// The outbox: posts queued in a change's own transaction (the computer's moves,
// flag-falls, reminders, fallback pings) delivered by the scheduler, retried with
// backoff, and the transport's report of what it delivered (docs/reliability.md).

// backoff is the wait before the next attempt of a post tried n times:
// 2 s, 4 s, 8 s ... capped at 5 min.
func backoff(n int) time.Duration {
	d := 2 * time.Second << min(max(n-1, 0), 8)
	return min(d, 5*time.Minute)
}

// deliver sends the queued posts that are due, Config.Workers at a time,
// each as its kind says (posts.go). A new message carries its outbox
// nonce, so Discord drops a resend of a post it took just before a crash;
// Discord's id is recorded once it answers. A queued edit (an expired or
// accepted challenge losing its buttons) goes through Notifier.Edit. A refused post or edit is
// retried with backoff, and after maxAttempts given up and logged.
func (b *Bot) deliver(ctx context.Context) error {
	msgs, err := b.St.claimOutbox(ctx, b.Clk.Now(), outboxBatch)
	if err != nil {
		return Wrap("claim outbox", err)
	}
	// A channel's posts go in order (a reminder before the flag-fall it
	// warned of); channels run in parallel. After a failure the rest of
	// that channel waits for the next pass.
	groups := groupBy(msgs, func(m outMsg) string { return m.Channel })
	var mu sync.Mutex
	var errs []error
	b.parallel(len(groups), func(i int) {
		ms := groups[i]
		for j, m := range ms {
			err := b.safely("post "+strconv.FormatInt(m.ID, 10), func() error { return b.deliverOne(ctx, m) })
			if err == nil {
				continue
			}
			if errors.Is(err, errPanicked) {
				// A panic skipped deliverOne's own retry or give-up:
				// without it the post would come back after every
				// lease, forever, holding up its channel.
				err = b.postFailed(ctx, m, err)
			}
			for _, rest := range ms[j+1:] {
				err = errors.Join(err, b.St.postpone(ctx, rest.ID, b.Clk.Now().Add(backoff(m.Attempts)), "waiting for an earlier post"))
			}
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
			return
		}
	})
	return errors.Join(errs...)
}

func (b *Bot) deliverOne(ctx context.Context, m outMsg) error {
	if m.Strip {
		return b.sweepBoards(ctx, m)
	}
	if b.n == nil {
		return b.St.sent(ctx, m.ID, "") // no transport: dropped by design
	}
	if m.Ping {
		if why := b.needlessPing(ctx, m); why != "" {
			return b.St.dropPost(ctx, m.ID, why)
		}
		if b.answerShown(ctx, m) {
			return b.St.dropPost(ctx, m.ID, "the answer did arrive")
		}
	}
	id, err := m.Post.Kind.Deliver(ctx, outboxEnv{b, m.Seq}, outbox.Msg{Channel: m.Channel, Nonce: m.Nonce}, m.Post.Reply)
	if err == nil {
		return b.St.sent(ctx, m.ID, id)
	}
	if errors.Is(err, errHeld) || errors.Is(err, ErrNotMember) {
		// Where the bot may not post: kept for the next interaction
		// there (places.go), never retried.
		return b.St.hold(ctx, m.ID, heldReason(err))
	}
	return b.postFailed(ctx, m, err)
}

// postFailed schedules post m's next attempt after a failure (an error or
// a panic), or gives it up, logged with its id, after maxAttempts.
//
// A rate limit is no failure of the post: it comes back when Discord said
// (retry_after), however often, and the claim is not counted as one of
// its attempts (a later real failure is not its last); a global one holds
// every pending post until then, on every instance, since nothing of the
// bot's token gets through before.
func (b *Bot) postFailed(ctx context.Context, m outMsg, err error) error {
	var rl *RateLimited
	if errors.As(err, &rl) {
		until := b.Clk.Now().Add(max(rl.After, time.Second/10))
		if rl.Global {
			if perr := b.St.pauseOutbox(ctx, until); perr != nil {
				err = errors.Join(err, perr)
			}
		}
		b.Log.Warn("post rate limited: will retry", "post", m.ID, "channel", m.Channel, "global", rl.Global, "in", rl.After)
		return errors.Join(Wrap("post", err), b.St.postpone(ctx, m.ID, until, err.Error()))
	}
	if m.Attempts >= maxAttempts {
		b.Log.Error("giving up a post after repeated failures", "post", m.ID, "channel", m.Channel, "attempts", m.Attempts, "err", err)
		return errors.Join(Wrap("post", err), b.St.giveUp(ctx, m.ID, err.Error()))
	}
	return errors.Join(Wrap("post", err), b.St.retryAt(ctx, m.ID, b.Clk.Now().Add(backoff(m.Attempts)), err.Error()))
}

func (s *storeRepo) pauseOutbox(ctx context.Context, until time.Time) error {
	return s.st.HoldOutbox(ctx, until)
}

// needlessPing says why a fallback ping due now must not go ("" when it
// must): the game moved on (a takeback, a newer move) or ended since, so
// its "your move" would be wrong. (A newer move also cancelled it when
// queued; this covers takebacks and endings off the board.)
func (b *Bot) needlessPing(ctx context.Context, m outMsg) string {
	g, err := b.St.game(ctx, m.Game)
	switch {
	case errors.Is(err, ErrNotFound):
		return "game gone"
	case err != nil:
		return "" // when in doubt, ping
	case g.Seq != m.Seq:
		return "the game moved on"
	case !m.Post.Kind.Final() && g.Status != GmActive:
		return "the game is over"
	}
	return ""
}

// queuedGame is the stored game a queued post of game id draws from; a
// failure is logged and the post goes without its picture.
func (b *Bot) queuedGame(ctx context.Context, id int64, r *view.Reply) (*Game, bool) {
	g, err := b.St.game(ctx, id)
	if err != nil {
		b.Log.Warn("redraw queued board", "game", id, "err", err)
		if r.Embed != nil {
			r.Embed.Image = ""
		}
		return nil, false
	}
	return g, true
}

// outLocale is the language of a game's posts made out of band: the
// server's when the game recorded it, else the configured default.
func (b *Bot) outLocale(g *Game) string {
	if g.Locale != "" {
		return g.Locale
	}
	return b.Cfg.DefaultLocale
}

// redrawImage draws a queued board post's image from the stored game.
func (b *Bot) redrawImage(ctx context.Context, r *view.Reply, g *Game) {
	// The last move is highlighted as on any board (the computer's moves
	// reach players only this way).
	pos, last, err := b.ReplayLast(ctx, g)
	var png []byte
	if err == nil {
		png, err = b.boardImage(ctx, g, pos, last, b.PublicFlip(pos), b.outLocale(g))
	}
	if err != nil || png == nil {
		b.Log.Warn("redraw queued board", "game", g.ID, "err", err)
		r.Embed.Image = ""
		return
	}
	r.Files = []view.File{{Name: r.Embed.Image, ContentType: "image/png", Data: png, Description: b.boardAlt(ctx, b.outLocale(g), g, pos, last)}}
}
