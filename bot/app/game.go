package app

import (
	"context"
	"errors"
	"strings"

	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// Which game a command means, loading it, and ending it.

// OnGame is the Run of a command that acts on one game: the game FindGame
// resolves, then f (the game commands all begin the same way).
func OnGame(f func(b *Bot, ctx context.Context, r *Req, g *Game) ([]view.Reply, error)) func(*Bot, context.Context, *Req) ([]view.Reply, error) {
	return func(b *Bot, ctx context.Context, r *Req) ([]view.Reply, error) {
		g, err := b.FindGame(ctx, r)
		if err != nil {
			return nil, err
		}
		return f(b, ctx, r, g)
	}
}

// FindGame resolves which game a command means: the game option (of this
// server only), else the one game of the current thread, else the caller's
// only active game in this channel (its threads included), else their only
// active game in the server. With no active game it falls back to the
// caller's most recent game here, which may be over: /board and /history
// show it, the others say how it ended.
func (b *Bot) FindGame(ctx context.Context, r *Req) (*Game, error) {
	if s := strings.TrimSpace(r.Options["game"]); s != "" {
		// Players name games by their number on this server ("#12").
		g, ok, err := b.gameByNumber(ctx, r, s)
		if !ok {
			return nil, Refuse("refuse.badgame", view.ClipRunes(strings.TrimPrefix(s, "#"), MaxInput))
		}
		return g, err
	}
	games, err := b.St.channelGames(ctx, r.ChannelID)
	if err != nil {
		return nil, Wrap("channel games", err)
	}
	var inThread, mine []*Game
	for _, g := range games {
		inThread = append(inThread, g)
		if _, ok := g.Side(r.User.ID); ok {
			mine = append(mine, g)
		}
	}
	if r.ThreadID != "" && len(inThread) == 1 {
		return inThread[0], nil
	}
	switch len(mine) {
	case 0:
		if len(inThread) == 1 {
			return inThread[0], nil
		}
		if len(inThread) == 0 {
			if g := b.onlyGameInServer(ctx, r); g != nil {
				return g, nil
			}
		}
		if g, err := b.St.lastGame(ctx, r.User.ID, r.ChannelID); err == nil {
			return g, nil
		}
		return nil, Refuse("refuse.nogame")
	case 1:
		return mine[0], nil
	}
	ids := make([]string, len(mine))
	for i, g := range mine {
		ids[i] = "#" + g.Num()
	}
	return nil, Refuse("refuse.whichgame", strings.Join(ids, ", "))
}

// onlyGameInServer is the caller's one active game in this server, or nil.
func (b *Bot) onlyGameInServer(ctx context.Context, r *Req) *Game {
	games, err := b.St.ActiveGames(ctx, r.GuildID)
	if err != nil {
		return nil
	}
	var mine *Game
	for _, g := range games {
		if _, ok := g.Side(r.User.ID); ok {
			if mine != nil {
				return nil
			}
			mine = g
		}
	}
	return mine
}

// LoadGame loads a game named by id; another server's game does not exist
// here.
func (b *Bot) LoadGame(ctx context.Context, r *Req, id int64) (*Game, error) {
	g, err := b.St.game(ctx, id)
	if errors.Is(err, ErrNotFound) || err == nil && g.GuildID != r.GuildID {
		return nil, Refuse("refuse.nogame") // ids are internal: never shown
	}
	if err != nil {
		return nil, Wrap("load game", err)
	}
	return g, nil
}

// ReplayLast gives the current position and the last move as an engine
// move (for the image's highlight).
func (b *Bot) ReplayLast(ctx context.Context, g *Game) (engine.Position, engine.Move, error) {
	pos, err := g.Position()
	if err != nil {
		return nil, nil, err
	}
	if g.Ply == 0 {
		return pos, nil, nil
	}
	rules, _ := LookupGame(g.Game)
	start, err := rules.Decode(g.Start)
	if err != nil {
		return nil, nil, Wrap("decode start", err)
	}
	log, err := b.St.MoveLog(ctx, g.ID)
	if err != nil || len(log) == 0 {
		return pos, nil, Wrap("move log", err)
	}
	prev, err := engine.Replay(start, log[:len(log)-1])
	if err != nil {
		return pos, nil, nil
	}
	m, err := prev.Position().ParseMove(log[len(log)-1])
	if err != nil {
		return pos, nil, nil
	}
	return pos, m, nil
}

// OverRefusal is the answer to acting on a finished game: which game, and
// how it ended.
func OverRefusal(r *Req, g *Game) error {
	return Refuse("refuse.over", g.Num(), view.OutcomeWords(r.Locale(), g))
}

// end saves g finished with o; its clock events are dropped and posts
// queued for out-of-band delivery in the same transaction.
func (b *Bot) end(ctx context.Context, g *Game, o engine.Outcome, posts ...outbox.Post) error {
	*g, _ = g.Finish(o)
	eff := turnEffects(g, clockOf(g))
	eff.Posts = posts
	ok, err := b.St.saveGameWith(ctx, g, nil, eff)
	if err != nil {
		return Wrap("end game", err)
	}
	if !ok {
		return Refuse("refuse.raced")
	}
	return nil
}

// Finish ends g with an outcome decided off the board (resignation,
// agreement, abort) and posts the final board, pinging both players with
// what happened (event) and the result.
func (b *Bot) Finish(ctx context.Context, r *Req, g *Game, o engine.Outcome, event func(loc string) string) ([]view.Reply, error) {
	if err := b.end(ctx, g, o); err != nil {
		return nil, err
	}
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	pub := r.Public()
	reply, err := b.BoardReply(ctx, pub, g, pos, nil, event(pub.Locale()), false)
	if err != nil {
		return nil, err
	}
	reply.Content, reply.Mentions = b.endContent(ctx, g, event)
	b.finalExtras(ctx, pub.Locale(), g, &reply)
	return []view.Reply{InGame(r, g, reply)}, nil
}

// gameOverHooks are what other features do with a finished game, run
// when its final board is completed (finalExtras), in order. They must
// be idempotent: a final board delivered again after a crash runs them
// again. A feature that acts on game ends adds itself here instead of
// being called from the code that ends games. (Ratings are counted by the
// store in the finishing write, and puzzle mining reads the finished
// games on its own: neither needs a hook.)
var gameOverHooks = []func(b *Bot, ctx context.Context, g *Game){
	(*Bot).tournamentGameOver,
}

// gameOver runs the game-over hooks for g.
func (b *Bot) gameOver(ctx context.Context, g *Game) {
	for _, h := range gameOverHooks {
		h(b, ctx, g)
	}
}
