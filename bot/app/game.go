package app

import (
	"context"
	"errors"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// Which game a command means, loading it, and ending it.

// findGame resolves which game a command means: the game option (of this
// server only), else the one game of the current thread, else the caller's
// only active game in this channel (its threads included), else their only
// active game in the server. With no active game it falls back to the
// caller's most recent game here, which may be over: /board and /history
// show it, the others say how it ended.
func (b *Bot) findGame(ctx context.Context, r *req) (*gameRec, error) {
	if s := strings.TrimSpace(r.Options["game"]); s != "" {
		// Players name games by their number on this server ("#12").
		g, ok, err := b.gameByNumber(ctx, r, s)
		if !ok {
			return nil, refuse("refuse.badgame", clipRunes(strings.TrimPrefix(s, "#"), maxInput))
		}
		return g, err
	}
	games, err := b.st.channelGames(ctx, r.ChannelID)
	if err != nil {
		return nil, wrap("channel games", err)
	}
	var inThread, mine []*gameRec
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
		if g, err := b.st.lastGame(ctx, r.User.ID, r.ChannelID); err == nil {
			return g, nil
		}
		return nil, refuse("refuse.nogame")
	case 1:
		return mine[0], nil
	}
	ids := make([]string, len(mine))
	for i, g := range mine {
		ids[i] = "#" + g.Num()
	}
	return nil, refuse("refuse.whichgame", strings.Join(ids, ", "))
}

// onlyGameInServer is the caller's one active game in this server, or nil.
func (b *Bot) onlyGameInServer(ctx context.Context, r *req) *gameRec {
	games, err := b.st.activeGames(ctx, r.GuildID)
	if err != nil {
		return nil
	}
	var mine *gameRec
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

// loadGame loads a game named by id; another server's game does not exist
// here.
func (b *Bot) loadGame(ctx context.Context, r *req, id int64) (*gameRec, error) {
	g, err := b.st.game(ctx, id)
	if errors.Is(err, errNotFound) || err == nil && g.GuildID != r.GuildID {
		return nil, refuse("refuse.nogame") // ids are internal: never shown
	}
	if err != nil {
		return nil, wrap("load game", err)
	}
	return g, nil
}

// replayLast gives the current position and the last move as an engine
// move (for the image's highlight).
func (b *Bot) replayLast(ctx context.Context, g *gameRec) (engine.Position, engine.Move, error) {
	pos, err := g.Position()
	if err != nil {
		return nil, nil, err
	}
	if g.Ply == 0 {
		return pos, nil, nil
	}
	rules, _ := lookupGame(g.Game)
	start, err := rules.Decode(g.Start)
	if err != nil {
		return nil, nil, wrap("decode start", err)
	}
	log, err := b.st.moveLog(ctx, g.ID)
	if err != nil || len(log) == 0 {
		return pos, nil, wrap("move log", err)
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

// overRefusal is the answer to acting on a finished game: which game, and
// how it ended.
func overRefusal(r *req, g *gameRec) error {
	return refuse("refuse.over", g.Num(), outcomeWords(r.loc, g))
}

// end saves g finished with o; its clock events are dropped and posts
// queued for out-of-band delivery in the same transaction.
func (b *Bot) end(ctx context.Context, g *gameRec, o engine.Outcome, posts ...outPost) error {
	g.Finish(o)
	eff := turnEffects(g, clockOf(g))
	eff.posts = posts
	ok, err := b.st.saveGameWith(ctx, g, nil, eff)
	if err != nil {
		return wrap("end game", err)
	}
	if !ok {
		return refuse("refuse.raced")
	}
	return nil
}

// finish ends g with an outcome decided off the board (resignation,
// agreement, abort) and posts the final board, pinging both players with
// what happened (event) and the result.
func (b *Bot) finish(ctx context.Context, r *req, g *gameRec, o engine.Outcome, event func(loc string) string) ([]Reply, error) {
	if err := b.end(ctx, g, o); err != nil {
		return nil, err
	}
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	pub := r.public()
	reply, err := b.boardReply(ctx, pub, g, pos, nil, event(pub.loc), false)
	if err != nil {
		return nil, err
	}
	reply.Content, reply.Mentions = b.endContent(ctx, g, event)
	b.finalExtras(ctx, pub.loc, g, &reply)
	return []Reply{inGame(r, g, reply)}, nil
}

// gameOverHooks are what other features do with a finished game, run
// when its final board is completed (finalExtras), in order. They must
// be idempotent: a final board delivered again after a crash runs them
// again. A feature that acts on game ends adds itself here instead of
// being called from the code that ends games. (Ratings are counted by the
// store in the finishing write, and puzzle mining reads the finished
// games on its own: neither needs a hook.)
var gameOverHooks = []func(b *Bot, ctx context.Context, g *gameRec){
	(*Bot).tournamentGameOver,
}

// gameOver runs the game-over hooks for g.
func (b *Bot) gameOver(ctx context.Context, g *gameRec) {
	for _, h := range gameOverHooks {
		h(b, ctx, g)
	}
}
