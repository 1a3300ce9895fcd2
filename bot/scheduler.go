package bot

import (
	"context"
	"errors"
	"strconv"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store/clock"
)

// maxAttempts is how often an event whose handling fails (Discord down, say)
// is tried before it is given up.
const maxAttempts = 5

// Tick runs one scheduler pass: it claims every due event and acts on it.
// A claim is a lease, so two bots on one file never fire an event at once,
// and one that dies mid-way lets it fire again; handled events are
// completed.
func (b *Bot) Tick(ctx context.Context) error {
	evs, err := b.st.claimDue(ctx, b.clk.Now())
	if err != nil {
		return wrap("claim due events", err)
	}
	var errs []error
	for _, e := range evs {
		if err := b.fire(ctx, e); err != nil {
			errs = append(errs, wrap(e.Kind+" "+strconv.FormatInt(e.Ref, 10), err))
			if e.Attempts < maxAttempts {
				continue // leased: it comes back after the lease
			}
			b.log.Error("dropping event after repeated failures", "kind", e.Kind, "ref", e.Ref, "attempts", e.Attempts)
		}
		if err := b.st.complete(ctx, e.ID); err != nil {
			errs = append(errs, wrap("complete "+e.Kind, err))
		}
	}
	return errors.Join(errs...)
}

func (b *Bot) fire(ctx context.Context, e event) error {
	loc := b.cfg.DefaultLocale
	switch e.Kind {
	case evExpire:
		c, err := b.st.challenge(ctx, e.Ref)
		if errors.Is(err, errNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		ok, err := b.st.setChallengeStatus(ctx, c.ID, chExpired)
		if err != nil || !ok {
			return err
		}
		return b.post(ctx, c.ChannelID, Reply{Content: b.tFor(ctx, c.Challenger.ID, "challenge.expired", c.Challenger.Name)})
	case evFlag, evRemind:
		g, err := b.st.game(ctx, e.Ref)
		if errors.Is(err, errNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if g.Status != gmActive || g.Ply != e.Ply {
			return nil // the turn it was scheduled for is over
		}
		if e.Kind == evFlag {
			replies, err := b.flagFall(ctx, loc, g, e.Ply)
			if err != nil {
				var rf *refusal
				if errors.As(err, &rf) {
					return nil // raced with a move: the move won
				}
				return err
			}
			if err := b.postAll(ctx, g, replies); err != nil {
				// The game is over; only the news is missing. Finishing
				// cancelled this event, so the announcement gets its own.
				if serr := b.st.schedule(ctx, event{Kind: evAnnounce, Ref: g.ID, Ply: g.Ply, Due: b.clk.Now()}); serr != nil {
					return errors.Join(err, wrap("schedule announcement", serr))
				}
				return err
			}
			return nil
		}
		return b.remind(ctx, g)
	case evAnnounce:
		g, err := b.st.game(ctx, e.Ref)
		if errors.Is(err, errNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if g.Status != gmFinished || g.Ply != e.Ply || (g.Reason != string(engine.ReasonTimeout) && g.Reason != string(engine.ReasonTimeoutDraw)) {
			return nil
		}
		replies, err := b.flagReplies(ctx, loc, g)
		if err != nil {
			return err
		}
		return b.postAll(ctx, g, replies)
	}
	return nil
}

func (b *Bot) postAll(ctx context.Context, g *gameRec, replies []Reply) error {
	for _, r := range replies {
		if err := b.post(ctx, g.ChannelID, r); err != nil {
			return err
		}
	}
	return nil
}

// flagFall ends g on time: the side to move loses, unless the game's rules
// say the opponent cannot win at all (engine.Winnable: Camelot with fewer
// than two pieces), then it is a draw. Tank Chess and Gungi have no such
// rule, so there a flag always loses (see docs/bot.md).
func (b *Bot) flagFall(ctx context.Context, loc string, g *gameRec, ply int) ([]Reply, error) {
	if g.Ply != ply || g.Status != gmActive {
		return nil, refuse("refuse.stale")
	}
	pos, err := g.position()
	if err != nil {
		return nil, err
	}
	loser := int(pos.Turn())
	o := engine.Win(engine.Side(1-loser), engine.ReasonTimeout)
	if w, ok := pos.(engine.Winnable); ok && !w.CanWin(engine.Side(1-loser)) {
		o = engine.Drawn(engine.ReasonTimeoutDraw)
	}
	// The fallen flag reads 0:00 on the final board.
	g.ClockState.Left[loser] = 0
	if err := b.end(ctx, g, o); err != nil {
		return nil, err
	}
	return b.flagReplies(ctx, loc, g)
}

// flagReplies announce a game lost on time, in its channel, to both players.
func (b *Bot) flagReplies(ctx context.Context, loc string, g *gameRec) ([]Reply, error) {
	pos, err := g.position()
	if err != nil {
		return nil, err
	}
	u := g.user(int(pos.Turn()))
	id := strconv.FormatInt(g.ID, 10)
	fell := func(loc string) string { return i18n.T(loc, "flag.fell", u.Name, id) }
	reply, err := b.boardReply(ctx, &req{loc: loc, pub: loc}, g, pos, nil, fell(loc), false)
	if err != nil {
		return nil, err
	}
	reply.ChannelID = g.ChannelID
	reply.Content, reply.Mentions = b.endContent(ctx, g, fell)
	b.retire(ctx, g)
	return []Reply{reply}, nil
}

func (b *Bot) remind(ctx context.Context, g *gameRec) error {
	tc, _ := parseClock(g.Clock)
	pos, err := g.position()
	if err != nil {
		return err
	}
	u := g.user(int(pos.Turn()))
	id := strconv.FormatInt(g.ID, 10)
	var text string
	if tc.Kind == clock.Correspondence {
		text = b.tFor(ctx, u.ID, "remind.deadline", "<@"+u.ID+">", id, discordTime(g.deadline(tc)))
	} else {
		left := g.remaining(tc, int(pos.Turn()), b.clk.Now())
		text = b.tFor(ctx, u.ID, "remind.low", "<@"+u.ID+">", fmtDuration(left), id, discordTime(g.deadline(tc)))
	}
	return b.post(ctx, g.ChannelID, Reply{Content: text, Mentions: []string{u.ID}})
}

// tFor translates for a user who is not the one acting (their /settings
// language, else the default).
func (b *Bot) tFor(ctx context.Context, userID, key string, args ...string) string {
	r := req{loc: b.locale(ctx, Command{User: User{ID: userID}})}
	return r.t(key, args...)
}

func (b *Bot) post(ctx context.Context, channel string, r Reply) error {
	if b.n == nil {
		return nil
	}
	_, err := b.n.Post(ctx, channel, r)
	return wrap("post", err)
}
