package app

import (
	"context"
	"errors"
	"strings"

	"github.com/tankbot/tankbot/bot/game"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// MustMove checks the caller may act on g now: a player, the game on, and
// their turn by the position itself (games whose turns do not simply
// alternate by ply, like Gungi's draft, are right too).
func (b *Bot) MustMove(r *Req, g *Game) (side int, pos engine.Position, err error) {
	side, ok := g.Side(r.User.ID)
	if !ok {
		return 0, nil, Refuse("refuse.notplayer", g.Num())
	}
	if g.Status != GmActive {
		return 0, nil, OverRefusal(r, g)
	}
	pos, err = g.Position()
	if err != nil {
		return 0, nil, err
	}
	if int(pos.Turn()) != side {
		return 0, nil, Refuse("refuse.notyourturn", g.User(1-side).Name)
	}
	return side, pos, nil
}

// noMove refuses an empty move with an example legal in g's position for
// its player to move (the mover's refusal when it is not their turn).
func (b *Bot) noMove(r *Req, g *Game) error {
	_, pos, err := b.MustMove(r, g)
	if err != nil {
		return err
	}
	return Refuse("refuse.nomove", engine.ExampleMove(pos))
}

// PlayTyped is /move typed: the game the caller means (FindGame), then
// the move played in it (Play), or an example when text is empty; one
// call of the command into the application.
func (b *Bot) PlayTyped(ctx context.Context, r *Req, text string) ([]view.Reply, error) {
	g, err := b.FindGame(ctx, r)
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, b.noMove(r, g)
	}
	return b.Play(ctx, r, g, g.Seq, text)
}

// Play is the path of one move: checks, engine, compare-and-set save,
// clocks, events, board and ping. seq is the game sequence the move was
// chosen at (a component's pin); a game that moved on refuses it.
func (b *Bot) Play(ctx context.Context, r *Req, g *Game, seq int, text string) ([]view.Reply, error) {
	side, pos, err := b.MustMove(r, g)
	if err != nil {
		return nil, err
	}
	if seq != g.Seq {
		return nil, Refuse("refuse.stale")
	}
	m, err := pos.ParseMove(text)
	if err != nil {
		return nil, Illegal(r, err)
	}
	next, err := pos.Play(m)
	if err != nil {
		return nil, Illegal(r, err)
	}
	note := pos.FormatMove(m)
	tc, _ := ParseClock(g.Clock)
	now := b.Clk.Now()
	outcome := next.Status()
	repKey := ""
	if rp, ok := next.(engine.Repeatable); ok {
		repKey = rp.RepetitionKey()
		if !outcome.Over() {
			o, err := b.repetitionOutcome(ctx, g, note, repKey)
			if err != nil {
				return nil, err
			}
			outcome = o
		}
	}
	if g.ClockState.Flagged(tc, now) {
		// The flag fell before the move arrived: the scheduler may
		// simply not have run yet. Time decides, not the move.
		return b.flagFall(ctx, r.PubLoc(), g, g.Ply, r.outOfBand)
	}
	var moved game.Effects
	*g, moved = g.Play(tc, now, side, next, note, outcome)
	spent := moved.Spent
	pub := r.Public()
	// The record's notation, and what it means when the game can say so
	// (Gungi's draft: "placed the Marshal on a9").
	played := func(loc string) string {
		if w := view.MoveWords(loc, pos, m); w != "" {
			return i18n.T(loc, "game.played.means", r.User.Name, note+view.Suffix(next), w)
		}
		return i18n.T(loc, "game.played", r.User.Name, note+view.Suffix(next))
	}
	head := played(pub.Locale())
	for _, a := range next.Announcements() {
		head += "\n" + view.AnnounceText(pub.Locale(), g, next, a)
	}
	reply, err := b.BoardReply(ctx, pub, g, next, m, head, false)
	if err != nil {
		return nil, err
	}
	queue := outbox.Board
	if g.Status == GmActive {
		reply.Content, reply.Mentions = b.turnContent(ctx, g, next, r.User, played)
	} else {
		reply.Content, reply.Mentions = b.endContent(ctx, g, played)
		queue = outbox.FinalBoard
	}
	reply.Update = false
	reply.Sent = b.BoardRecorder(g.ID, g.Seq)
	reply = InGame(r, g, reply)
	// The board is built before the save so that, out of band, it is
	// queued in the move's own transaction; in answer to an interaction,
	// when it pings somebody, it is queued as the move's fallback ping,
	// cancelled once the transport records that the answer arrived.
	eff := turnEffects(g, tc)
	if r.outOfBand {
		eff.Posts = []outbox.Post{queue(g.ID, reply)}
	} else if len(reply.Mentions) > 0 {
		fb := reply
		fb.ChannelID = g.ChannelID
		p := queue(g.ID, fb)
		eff.ping, eff.pingDue = &p, now.Add(pingFallbackDelay)
	}
	ok, err := b.St.saveGameWith(ctx, g, &moveRec{Notation: note, Side: side, Spent: spent, RepKey: repKey}, eff)
	if err != nil {
		return nil, Wrap("save move", err)
	}
	if !ok {
		return nil, Refuse("refuse.raced")
	}
	if r.outOfBand {
		// Only the computer moves out of band, in casual games: no
		// rating lines; the record files are not kept in the outbox.
		return nil, nil
	}
	if g.Status != GmActive {
		// Ratings and the record read the saved result.
		b.finalExtras(ctx, pub.Locale(), g, &reply)
	}
	return append([]view.Reply{reply}, b.moveInWords(ctx, r, g, pos, next, m)...), nil
}

// repetitionOutcome decides the repetition rule for a move reaching the
// position with key repKey: three occurrences (the start counts) draw. The
// store counts the keys with an index look-up, so a move costs the same at
// ply 10 and ply 10,000; a game begun before keys were stored is replayed.
func (b *Bot) repetitionOutcome(ctx context.Context, g *Game, note, repKey string) (engine.Outcome, error) {
	n, partial, err := b.St.repetitions(ctx, g.ID, repKey)
	if err != nil {
		return engine.Outcome{}, Wrap("count repetitions", err)
	}
	if partial {
		return b.replayOutcome(ctx, g, note)
	}
	n++ // this move
	rules, _ := LookupGame(g.Game)
	if start, err := rules.Decode(g.Start); err == nil {
		if rp, ok := start.(engine.Repeatable); ok && rp.RepetitionKey() == repKey {
			n++
		}
	}
	if n >= 3 {
		return engine.Drawn(engine.ReasonRepetition), nil
	}
	return engine.Outcome{}, nil
}

// replayOutcome replays the log plus the new move (games whose early moves
// were stored without repetition keys).
func (b *Bot) replayOutcome(ctx context.Context, g *Game, note string) (engine.Outcome, error) {
	rules, _ := LookupGame(g.Game)
	start, err := rules.Decode(g.Start)
	if err != nil {
		return engine.Outcome{}, err
	}
	log, err := b.St.MoveLog(ctx, g.ID)
	if err != nil {
		return engine.Outcome{}, err
	}
	gm, err := engine.Replay(start, append(log, note))
	if err != nil {
		return engine.Outcome{}, err
	}
	return gm.Outcome(), nil
}

// Illegal turns an engine error into a translated refusal with the
// engine's close alternatives.
func Illegal(r *Req, err error) error {
	rf := &Refusal{Key: "refuse.illegal", Args: []string{view.EngineError(r.Locale(), err)}}
	var ee *engine.Error
	if errors.As(err, &ee) && len(ee.Alternatives) > 0 {
		rf.Extra = append(rf.Extra, r.T("refuse.alternatives", strings.Join(ee.Alternatives, ", ")))
	}
	return rf
}

// MoveForm is the typed-move form for pos, submitted with customID (a
// game's board or a puzzle's step: one form for both).
func MoveForm(r *Req, pos engine.Position, customID string) view.Reply {
	return view.Reply{Modal: &view.Modal{
		CustomID: customID,
		Title:    r.T("modal.title"),
		Inputs:   []view.Input{{CustomID: "move", Label: r.T("modal.label"), Placeholder: engine.ExampleMove(pos), Required: true}},
	}}
}

// Undo takes back the last n moves of g (granted by by) and posts the
// board of the position before them, pinging the player to move again.
func (b *Bot) Undo(ctx context.Context, r *Req, g *Game, n int, by User) ([]view.Reply, error) {
	gm, err := b.replay(ctx, g)
	if err != nil {
		return nil, err
	}
	log := gm.Moves()
	if n < 1 || n > len(log) {
		return nil, Refuse("takeback.nothing")
	}
	kept, err := engine.Replay(gm.Start(), log[:len(log)-n])
	if err != nil {
		return nil, Wrap("replay", err)
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
			return nil, Wrap("replay", err)
		}
	}
	tc, _ := ParseClock(g.Clock)
	lastNote := ""
	if k := len(log) - n; k > 0 {
		lastNote = log[k-1]
	}
	*g, _ = g.TakeBack(tc, b.Clk.Now(), n, prev, lastNote)
	ok, err := b.St.takeBack(ctx, g, n, turnEffects(g, tc))
	if err != nil || !ok {
		return nil, orRaced(err)
	}
	_, last, err := b.ReplayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	pub := r.Public()
	reply, err := b.BoardReply(ctx, pub, g, prev, last, pub.T("takeback.done"), false)
	if err != nil {
		return nil, err
	}
	reply.Content, reply.Mentions = b.turnContent(ctx, g, prev, by, func(loc string) string {
		return i18n.T(loc, "takeback.granted", by.Name)
	})
	return []view.Reply{InGame(r, g, reply)}, nil
}
