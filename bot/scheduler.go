package bot

import (
	"context"
	"errors"
	"strconv"

	"github.com/tankbot/tankbot/engine"
)

// Tick runs one scheduler pass: it claims every due event and acts on it.
// Claiming removes the event, so two bots on one file never fire it twice.
func (b *Bot) Tick(ctx context.Context) error {
	evs, err := b.st.claimDue(ctx, b.clk.Now())
	if err != nil {
		return wrap("claim due events", err)
	}
	var errs []error
	for _, e := range evs {
		if err := b.fire(ctx, e); err != nil {
			errs = append(errs, wrap(e.Kind+" "+strconv.FormatInt(e.Ref, 10), err))
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
			for _, r := range replies {
				if err := b.post(ctx, g.ChannelID, r); err != nil {
					return err
				}
			}
			return nil
		}
		return b.remind(ctx, g)
	}
	return nil
}

// flagFall ends g on time: the side to move loses. Tank Chess has no rule
// making a player who cannot win only draw, so a flag always loses (see
// docs/bot.md).
func (b *Bot) flagFall(ctx context.Context, loc string, g *gameRec, ply int) ([]Reply, error) {
	if g.Ply != ply || g.Status != gmActive {
		return nil, refuse("refuse.stale")
	}
	pos, err := g.position()
	if err != nil {
		return nil, err
	}
	loser := int(pos.Turn())
	u := g.user(loser)
	head := b.tFor(ctx, u.ID, "flag.fell", u.Name, strconv.FormatInt(g.ID, 10))
	replies, err := b.finish(ctx, loc, g, engine.Win(engine.Side(1-loser), engine.ReasonTimeout), head)
	if err != nil {
		return nil, err
	}
	for i := range replies {
		replies[i].ChannelID = g.ChannelID
		replies[i].Mentions = []string{g.White.ID, g.Black.ID}
	}
	return replies, nil
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
	if tc.PerMove > 0 {
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
