package app

import (
	"context"
)

// The move command's buttons and forms beyond the picker: the confirmation
// of a move that stands for many, and the typed-move form.

// rematch offers the same game with colours swapped, as a challenge to the
// other player.
func (b *Bot) rematch(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.Num())
	}
	if g.Status == gmActive {
		return nil, refuse("rematch.notover")
	}
	opp := g.User(1 - side)
	if g.AILevel > 0 {
		// Against the computer: a new game at once, same level.
		c := &challengeRec{
			Challenger: r.User, Game: g.Game, Variant: g.Variant, Start: g.Start, Clock: g.Clock,
			Color: []string{"black", "white"}[side], GuildID: g.GuildID, ChannelID: g.ChannelID,
			Status: chPending, Expires: b.clk.Now().Add(b.cfg.ChallengeExpiry), Rematch: g.ID,
		}
		return b.challengeAI(ctx, r, c, opp, g.AILevel)
	}
	pend, err := b.st.pendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil, wrap("pending challenges", err)
	}
	if err := b.underCap(r, pend); err != nil {
		return nil, err
	}
	for _, c := range pend {
		if c.Challenger.ID == opp.ID || c.Opponent.ID == opp.ID {
			return nil, refuse("refuse.duplicate", opp.Name)
		}
	}
	color := "black" // the challenger played white: swap
	if side == 1 {
		color = "white"
	}
	c := &challengeRec{
		Challenger: r.User, Opponent: opp, Game: g.Game, Variant: g.Variant, Start: g.Start,
		Clock: g.Clock, Color: color, GuildID: g.GuildID, ChannelID: g.ChannelID,
		Status: chPending, Expires: b.clk.Now().Add(b.cfg.ChallengeExpiry), Rematch: g.ID, Rated: g.Rated,
	}
	tc, _ := parseClock(g.Clock)
	return b.postChallenge(ctx, r, c, tc)
}

var rematchCmd = command{
	name: "rematch",
	doc:  "After a game: the same game as a new challenge, colours swapped (against the computer: a new game at once, same level).",
	opts: []optDef{gameOptFinished},
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findFinished(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.rematch(ctx, r, g)
	},
	actions: []action{{name: "rematch", anyone: true, doc: "Rematch, on a finished game's board.",
		run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
			return b.rematch(ctx, r, g)
		}}},
}
