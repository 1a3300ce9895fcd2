package app

import (
	"context"
	"strconv"
	"time"
)

// A review takes seconds to tens of seconds of CPU, so the one who asked
// sees it advance: a private progress message ("Reviewing game #12… 40 %")
// edited every few seconds, then replaced by the review. The transport
// provides the message (WithInterim); the cadence runs on the Bot's
// injected clock.

// Interim shows or updates a slow handler's private progress message for
// the interaction being handled: the first call creates it (deferring the
// interaction if that was not yet done), later ones edit it, and the
// handler's answer replaces it. It never pings anyone.
type Interim func(ctx context.Context, content string) error

type interimKey struct{}

// WithInterim gives the handlers run with ctx a progress message (see
// Interim); a transport without one (the console) passes none and
// handlers then show no progress.
func WithInterim(ctx context.Context, f Interim) context.Context {
	return context.WithValue(ctx, interimKey{}, f)
}

func interimOf(ctx context.Context) Interim {
	f, _ := ctx.Value(interimKey{}).(Interim)
	return f
}

// reviewProgressEvery is the cadence of the progress edits: a review
// shorter than that shows none (Discord's own "thinking…" covers it), a
// long one a few edits, far within the interaction token's rate limit.
const reviewProgressEvery = 3 * time.Second

// progressNotes turns a review's position count into progress messages
// at most once per every of clk's time, each with a new percentage.
type progressNotes struct {
	clk   Clock
	every time.Duration
	next  time.Time
	last  int
	show  func(pct int)
}

func newProgressNotes(clk Clock, every time.Duration, show func(pct int)) *progressNotes {
	return &progressNotes{clk: clk, every: every, next: clk.Now().Add(every), last: -1, show: show}
}

// update is review.Options.Progress: done of total positions evaluated.
func (p *progressNotes) update(done, total int) {
	if total <= 0 || done >= total {
		return // the answer itself follows at once
	}
	now := p.clk.Now()
	if now.Before(p.next) {
		return
	}
	pct := done * 100 / total
	if pct == p.last {
		return
	}
	p.next, p.last = now.Add(p.every), pct
	p.show(pct)
}

// ReviewProgress is the progress callback of g's review for r: nil when
// the transport shows no progress.
func (b *Bot) ReviewProgress(ctx context.Context, r *Req, g *Game) func(done, total int) {
	f := interimOf(ctx)
	if f == nil {
		return nil
	}
	n := newProgressNotes(b.Clk, reviewProgressEvery, func(pct int) {
		if err := f(ctx, r.T("review.progress", g.Num(), strconv.Itoa(pct))); err != nil {
			// Progress is a courtesy: the review goes on and answers.
			b.Log.Warn("review progress", "game", g.ID, "err", err)
		}
	})
	return n.update
}
