package app

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store/clock"
)

// maxAttempts is how often an event whose handling fails, or a post Discord
// refuses, is tried before it is given up (and logged).
const maxAttempts = 5

// Scheduler defaults (Config overrides them).
const (
	defaultWorkers       = 4
	defaultRetention     = 7 * 24 * time.Hour
	defaultDowntimeGrace = 30 * time.Second
	// maintainEvery is how often a running scheduler reconciles flag
	// events and purges old rows.
	maintainEvery = 5 * time.Minute
	// outboxBatch bounds the posts one pass delivers.
	outboxBatch = 50
	// pingFallbackDelay is how long a move's fallback ping waits for the
	// interaction's answer to be recorded. It outlasts the Discord
	// adapter's worst answer (a 3 s first response, or a deferral and a
	// follow-up tried 3 times with up to 10 s of rate-limit waits), so a
	// delivered answer cancels it first; shorter would ping twice, longer
	// would leave a lost ping later.
	pingFallbackDelay = 30 * time.Second
)

// Tick runs one scheduler pass: it records that the bot is alive, claims
// every due event and acts on it, then delivers the queued posts. Claims are
// leases, so two bots on one file never fire an event at once and one that
// dies mid-way lets it fire again. Events of different games run in
// parallel (Config.Workers at most); a panic in one is logged and the
// event retried like a failure.
func (b *Bot) Tick(ctx context.Context) error {
	now := b.Clk.Now()
	var errs []error
	if err := b.St.heartbeat(ctx, now); err != nil {
		errs = append(errs, Wrap("heartbeat", err))
	}
	evs, err := b.St.claimDue(ctx, now)
	if err != nil {
		return errors.Join(append(errs, Wrap("claim due events", err))...)
	}
	// The computer's moves search in their own pool: the loop goes on.
	evs = b.startAI(ctx, evs)
	// One worker per ref, so a game's flag and reminder never race.
	groups := groupBy(evs, func(e Event) int64 { return e.Ref })
	var mu sync.Mutex
	b.parallel(len(groups), func(i int) {
		for _, e := range groups[i] {
			if err := b.runEvent(ctx, e); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}
	})
	if err := b.tournamentTick(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := b.deliver(ctx); err != nil {
		errs = append(errs, err)
	}
	if last := b.lastMaintain.Load(); last == 0 || now.Sub(time.Unix(0, last)) >= maintainEvery {
		b.lastMaintain.Store(now.UnixNano())
		if err := b.maintain(ctx, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// parallel runs fn(0..n-1) on at most Config.Workers goroutines.
func (b *Bot) parallel(n int, fn func(int)) {
	sem := make(chan struct{}, b.Cfg.Workers)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			fn(i)
		}()
	}
	wg.Wait()
}

// groupBy splits xs by key, keeping the order of first appearance and,
// within a group, the order of xs.
func groupBy[T any, K comparable](xs []T, key func(T) K) [][]T {
	var out [][]T
	at := map[K]int{}
	for _, x := range xs {
		k := key(x)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], x)
	}
	return out
}

// errPanicked marks the error safely makes of a panic.
var errPanicked = errors.New("panic")

// safely runs fn, turning a panic into an error (with the stack logged)
// that wraps errPanicked.
func (b *Bot) safely(what string, fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			b.Log.Error("scheduler panic", "what", what, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("%s: %w: %v", what, errPanicked, p)
		}
	}()
	return fn()
}

// runEvent fires e and completes it (with the posts it asks for, in the
// completion's transaction); a failure leaves it leased for a retry until
// maxAttempts, then it is completed and the give-up logged.
func (b *Bot) runEvent(ctx context.Context, e Event) error {
	name := e.Kind + " " + strconv.FormatInt(e.Ref, 10)
	var posts []outbox.Post
	err := b.safely(name, func() error {
		var err error
		posts, err = b.fire(ctx, e)
		return err
	})
	if err != nil {
		if e.Attempts < maxAttempts {
			return Wrap(name, err) // leased: it comes back after the lease
		}
		b.Log.Error("dropping event after repeated failures", "kind", e.Kind, "ref", e.Ref, "attempts", e.Attempts, "err", err)
		posts = nil
	}
	if cerr := b.St.complete(ctx, e.ID, Effects{Posts: posts}); cerr != nil {
		return errors.Join(Wrap(name, err), Wrap("complete "+e.Kind, cerr))
	}
	return Wrap(name, err)
}

// fire acts on one event. Changes of state carry their own announcements
// (queued in their transaction); the posts returned are queued with the
// event's completion.
func (b *Bot) fire(ctx context.Context, e Event) ([]outbox.Post, error) {
	loc := b.Cfg.DefaultLocale
	switch e.Kind {
	case evAI:
		return nil, b.aiMove(ctx, e)
	case evDaily:
		return nil, b.dailyFire(ctx, e)
	case EvExpire:
		c, err := b.St.Challenge(ctx, e.Ref)
		if errors.Is(err, ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		_, err = b.St.SetChallengeStatus(ctx, c.ID, ChExpired, Effects{Posts: b.ExpiryNotice(ctx, c)})
		return nil, err
	case evFlag, evRemind:
		g, err := b.St.game(ctx, e.Ref)
		if errors.Is(err, ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if g.Status != GmActive || g.Ply != e.Ply {
			return nil, nil // the turn it was scheduled for is over
		}
		if e.Kind == evRemind {
			if g.AIMoves(g.Turn) {
				return nil, nil // the computer needs no reminder
			}
			if g.ClockState.Flagged(clockOf(g), b.Clk.Now()) {
				return nil, nil // claimed late: the flag-fall says it, not "0:00 left"
			}
			r, err := b.reminder(ctx, g)
			return []outbox.Post{queuedAs(r)}, err
		}
		if !g.ClockState.Flagged(clockOf(g), b.Clk.Now()) {
			// Moved by a downtime extension after it was claimed: the
			// new flag event decides.
			return nil, nil
		}
		_, err = b.flagFall(ctx, loc, g, e.Ply, true)
		var rf *Refusal
		if errors.As(err, &rf) {
			return nil, nil // raced with a move: the move won
		}
		return nil, err
	}
	return nil, nil
}

// ExpiryNotice tells the channel that challenge c expired: its own message
// edited in place in the server's language (buttons gone, nobody pinged),
// or, when that message is unknown (challenges made before its id was
// kept), a new message in the challenger's language.
func (b *Bot) ExpiryNotice(ctx context.Context, c *ChallengeRec) []outbox.Post {
	if c.NoPosts {
		// Where the bot may not post (places.go): the challenge's buttons
		// stay, and a click on them says it expired.
		return nil
	}
	if c.MessageID == "" {
		return []outbox.Post{outbox.Text(view.Reply{ChannelID: c.ChannelID, Content: b.tFor(ctx, c.Challenger.ID, "challenge.expired", c.Challenger.Name)})}
	}
	loc := c.Locale
	if loc == "" {
		loc = b.Cfg.DefaultLocale
	}
	return ChallengeEdit(c, i18n.T(loc, "challenge.expired", c.Challenger.Name))
}

// flagFall ends g on time: the side to move loses, unless the game's rules
// say the opponent cannot win at all (engine.Winnable: Camelot with fewer
// than two pieces), then it is a draw. Tank Chess and Gungi have no such
// rule, so there a flag always loses (see docs/bot.md). Out of band (the
// scheduler), the announcement is queued in the game's final write and the
// replies are not returned; in answer to a late move they are the answer.
func (b *Bot) flagFall(ctx context.Context, loc string, g *Game, ply int, outOfBand bool) ([]view.Reply, error) {
	if g.Ply != ply || g.Status != GmActive {
		return nil, Refuse("refuse.stale")
	}
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	loser := int(pos.Turn())
	o := engine.Win(engine.Side(1-loser), engine.ReasonTimeout)
	if w, ok := pos.(engine.Winnable); ok && !w.CanWin(engine.Side(1-loser)) {
		o = engine.Drawn(engine.ReasonTimeoutDraw)
	}
	*g, _ = g.FlagFall(loser, o)
	replies, err := b.flagReplies(ctx, loc, g)
	if err != nil {
		return nil, err
	}
	if outOfBand {
		posts := make([]outbox.Post, len(replies))
		for i, r := range replies {
			posts[i] = outbox.FinalBoard(gameOf(r), r)
		}
		if err := b.end(ctx, g, o, posts...); err != nil {
			return nil, err
		}
		return nil, nil
	}
	if err := b.end(ctx, g, o); err != nil {
		return nil, err
	}
	b.finalExtras(ctx, loc, g, &replies[0])
	return replies, nil
}

// flagReplies announce a game lost on time, in its channel, to both players.
func (b *Bot) flagReplies(ctx context.Context, loc string, g *Game) ([]view.Reply, error) {
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	u := g.User(int(pos.Turn()))
	id := g.Num()
	fell := func(loc string) string { return i18n.T(loc, "flag.fell", u.Name, id) }
	reply, err := b.BoardReply(ctx, &Req{Loc: loc, Pub: loc}, g, pos, nil, fell(loc), false)
	if err != nil {
		return nil, err
	}
	reply.ChannelID = g.ChannelID
	reply.Content, reply.Mentions = b.endContent(ctx, g, fell)
	return []view.Reply{reply}, nil
}

// reminder is the post telling the side to move that time runs short.
func (b *Bot) reminder(ctx context.Context, g *Game) (view.Reply, error) {
	tc := clockOf(g)
	pos, err := g.Position()
	if err != nil {
		return view.Reply{}, err
	}
	u := g.User(int(pos.Turn()))
	id := g.Num()
	var text string
	if tc.Kind == clock.Correspondence {
		text = b.tFor(ctx, u.ID, "remind.deadline", "<@"+u.ID+">", id, DiscordTime(g.Deadline(tc)))
	} else {
		left := g.Remaining(tc, int(pos.Turn()), b.Clk.Now())
		// Rounded up: while any time remains the reminder never reads 0:00.
		left = (left + time.Second - 1).Truncate(time.Second)
		text = b.tFor(ctx, u.ID, "remind.low", "<@"+u.ID+">", fmtDuration(left), id, DiscordTime(g.Deadline(tc)))
	}
	return view.Reply{ChannelID: g.ChannelID, Content: text, Mentions: []string{u.ID}}, nil
}

// tFor translates for a user who is not the one acting: their /settings
// language, else the Discord language last seen from them, else the
// default.
func (b *Bot) tFor(ctx context.Context, userID, key string, args ...string) string {
	r := Req{Loc: b.Locale(ctx, Command{User: User{ID: userID}})}
	return r.T(key, args...)
}

// maintain reconciles the flag events and purges finished rows older than
// the retention period.
func (b *Bot) maintain(ctx context.Context, now time.Time) error {
	var errs []error
	if n, err := b.reconcile(ctx); err != nil {
		errs = append(errs, err)
	} else if n > 0 {
		b.Log.Warn("repaired flag events", "games", n)
	}
	if _, err := b.St.purge(ctx, now.Add(-b.Cfg.Retention)); err != nil {
		errs = append(errs, Wrap("purge", err))
	}
	return errors.Join(errs...)
}

// reconcile gives every active timed game exactly one pending flag event
// for its current ply (with its reminders when it had to be made anew).
func (b *Bot) reconcile(ctx context.Context) (int, error) {
	n, err := b.St.reconcileFlags(ctx, func(g *Game) []Event { return clockEvents(g, clockOf(g)) })
	return n, Wrap("reconcile flag events", err)
}

// Recover runs once at startup, before the first Tick: if the last
// heartbeat is older than Config.DowntimeGrace, the bot was down, and the
// clocks that were running are extended by the time it was down (one
// transaction per game: its clock, its flag event moved, a notice queued in
// the game), so nobody loses on time while no move could be made. Then the
// flag events are reconciled.
func (b *Bot) Recover(ctx context.Context) error {
	now := b.Clk.Now()
	last, err := b.St.lastHeartbeat(ctx)
	if err != nil {
		return Wrap("read heartbeat", err)
	}
	var errs []error
	if !last.IsZero() && now.Sub(last) > b.Cfg.DowntimeGrace {
		if err := b.extendClocks(ctx, last, now); err != nil {
			errs = append(errs, err)
		}
	}
	if err := b.St.heartbeat(ctx, now); err != nil {
		errs = append(errs, Wrap("heartbeat", err))
	}
	if _, err := b.reconcile(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := b.resumeTournaments(ctx); err != nil {
		errs = append(errs, err)
	}
	b.lastMaintain.Store(now.UnixNano())
	return errors.Join(errs...)
}

// extendClocks gives back the outage [down, up) to every running clock.
func (b *Bot) extendClocks(ctx context.Context, down, up time.Time) error {
	gs, err := b.St.timedGames(ctx)
	if err != nil {
		return Wrap("timed games", err)
	}
	var errs []error
	for _, g := range gs {
		// The part of the outage this turn lived through.
		d := up.Sub(maxTime(down, g.ClockState.TurnStart))
		if d <= 0 {
			continue
		}
		tc := clockOf(g)
		*g, _ = g.Extend(d)
		eff := turnEffects(g, tc)
		loc := b.Cfg.DefaultLocale
		eff.Posts = []outbox.Post{outbox.Text(view.Reply{ChannelID: g.ChannelID, Content: i18n.T(loc, "downtime.extended",
			fmtDuration(d), g.Num(), DiscordTime(g.Deadline(tc)))})}
		ok, err := b.St.saveGameWith(ctx, g, nil, eff)
		if err != nil {
			errs = append(errs, Wrap("extend clock of game "+g.Num(), err))
			continue
		}
		if ok {
			b.Log.Info("clock extended after downtime", "game", g.ID, "by", d)
		}
	}
	return errors.Join(errs...)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
