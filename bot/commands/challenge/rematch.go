package challenge

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

// The move command's buttons and forms beyond the picker: the confirmation
// of a move that stands for many, and the typed-move form.

// rematch offers the same game with colours swapped, as a challenge to the
// other player.
func rematch(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game) ([]view.Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, app.Refuse("refuse.notplayer", g.Num())
	}
	if g.Status == app.GmActive {
		return nil, app.Refuse("rematch.notover")
	}
	opp := g.User(1 - side)
	if g.AILevel > 0 {
		// Against the computer: a new game at once, same level.
		c := &app.ChallengeRec{
			Challenger: r.User, Game: g.Game, Variant: g.Variant, Start: g.Start, Clock: g.Clock,
			Color: []string{"black", "white"}[side], GuildID: g.GuildID, ChannelID: g.ChannelID,
			Status: app.ChPending, Expires: b.Clk.Now().Add(b.Cfg.ChallengeExpiry), Rematch: g.ID, NoPosts: g.NoPosts,
		}
		return b.ChallengeAI(ctx, r, c, opp, g.AILevel)
	}
	pend, err := b.St.PendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil, app.Wrap("pending challenges", err)
	}
	if err := b.UnderCap(r, pend); err != nil {
		return nil, err
	}
	for _, c := range pend {
		if c.Challenger.ID == opp.ID || c.Opponent.ID == opp.ID {
			return nil, app.Refuse("refuse.duplicate", opp.Name)
		}
	}
	color := "black" // the challenger played white: swap
	if side == 1 {
		color = "white"
	}
	c := &app.ChallengeRec{
		Challenger: r.User, Opponent: opp, Game: g.Game, Variant: g.Variant, Start: g.Start,
		Clock: g.Clock, Color: color, GuildID: g.GuildID, ChannelID: g.ChannelID,
		Status: app.ChPending, Expires: b.Clk.Now().Add(b.Cfg.ChallengeExpiry), Rematch: g.ID, Rated: g.Rated, NoPosts: g.NoPosts,
	}
	tc, _ := app.ParseClock(g.Clock)
	return postChallenge(b, ctx, r, c, tc)
}

var Rematch = app.CommandDef{
	Name: "rematch",
	Doc:  "After a game: the same game as a new challenge, colours swapped (against the computer: a new game at once, same level).",
	Opts: []app.OptDef{app.GameOptFinished},
	Run: func(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
		g, err := b.FindFinished(ctx, r)
		if err != nil {
			return nil, err
		}
		return rematch(b, ctx, r, g)
	},
	Actions: []app.ActionDef{{Name: "rematch", Anyone: true, Doc: "Rematch, on a finished game's board.",
		Run: func(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
			return rematch(b, ctx, r, g)
		}}},
}
