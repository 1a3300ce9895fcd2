package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// Takebacks: the player who just moved may ask to take that move back
// before the opponent replies; the opponent accepts or declines with
// buttons. Time is not refunded: the opponent's thinking time so far is
// charged to them, and the requester's clock continues from what it showed.

var takebackCmd = command{
	name: "takeback",
	doc:  "Ask to take back the move you just played, before the opponent replies; they answer with buttons. Time is not refunded. The computer grants it at once.",
	opts: []optDef{gameOpt},
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findGame(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.askTakeback(ctx, r, g)
	},
	actions: []action{
		{name: takebackOffer.yes, doc: "Grant the takeback asked for.", run: (*Bot).acceptTakeback},
		{name: takebackOffer.no, doc: "Refuse the takeback asked for.", run: takebackOffer.declineAction()},
	},
}

func (b *Bot) askTakeback(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.Num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	if g.AILevel > 0 && side != g.AISide {
		return b.aiTakeback(ctx, r, g, side)
	}
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	if g.Ply == 0 || int(pos.Turn()) == side {
		return nil, refuse("takeback.nothing")
	}
	return b.propose(ctx, r, g, takebackOffer, side)
}

func (b *Bot) acceptTakeback(ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
	side, _ := g.Side(r.User.ID)
	if !takebackOffer.fromOpponent(g, side) {
		return nil, refuse("takeback.none")
	}
	return b.undo(ctx, r, g, 1, r.User)
}

// undo takes back the last n moves of g (granted by by) and posts the
// board of the position before them, pinging the player to move again.
func (b *Bot) undo(ctx context.Context, r *req, g *gameRec, n int, by User) ([]Reply, error) {
	gm, err := b.replay(ctx, g)
	if err != nil {
		return nil, err
	}
	log := gm.Moves()
	if n < 1 || n > len(log) {
		return nil, refuse("takeback.nothing")
	}
	kept, err := engine.Replay(gm.Start(), log[:len(log)-n])
	if err != nil {
		return nil, wrap("replay", err)
	}
	prev := kept.Position()
	// Each undone move leaves its mover's count (the Gungi draft does
	// not alternate, so the positions say who moved).
	p := prev
	for _, note := range log[len(log)-n:] {
		g.Moves[int(p.Turn())]--
		m, err := p.ParseMove(note)
		if err == nil {
			p, err = p.Play(m)
		}
		if err != nil {
			return nil, wrap("replay", err)
		}
	}
	tc, _ := parseClock(g.Clock)
	lastNote := ""
	if k := len(log) - n; k > 0 {
		lastNote = log[k-1]
	}
	g.TookBack(tc, b.clk.Now(), n, prev, lastNote)
	ok, err := b.st.takeBack(ctx, g, n, turnEffects(g, tc))
	if err != nil || !ok {
		return nil, orRaced(err)
	}
	_, last, err := b.replayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	pub := r.public()
	reply, err := b.boardReply(ctx, pub, g, prev, last, pub.t("takeback.done"), false)
	if err != nil {
		return nil, err
	}
	reply.Content, reply.Mentions = b.turnContent(ctx, g, prev, by, func(loc string) string {
		return i18n.T(loc, "takeback.granted", by.Name)
	})
	return []Reply{inGame(r, g, reply)}, nil
}
