package app

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tankbot/tankbot/bot/game"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/metrics"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
)

// Games against the bot (docs/ai.md "Playing the bot"). The computer plays
// as the bot's own user (Config.SelfID). Its turn is an evAI event written
// in the same transaction as the change that made it its turn (see
// turnEffects), so a pending move survives a restart. The scheduler hands
// claimed evAI events to a bounded pool (one search per core by default)
// and goes on at once; the search plays its move through the same path as
// a human's move (play), whose board is queued in the move's own
// transaction and pings the human.

// Levels the /challenge level option accepts.
const (
	MinAILevel = 1
	MaxAILevel = 5
)

// aiDrawMargin is how bad (centi-pawns, for the computer) the position
// must be before the computer accepts a draw offer.
const aiDrawMargin = 300

// aiPool runs the computer's searches off the scheduler's loop.
type aiPool struct {
	sem  chan struct{}  // one token per search allowed at once
	wg   sync.WaitGroup // searches started and not yet saved
	mu   sync.Mutex
	busy map[int64]bool // event ids being handled (a re-claim is skipped)
	self atomic.Pointer[string]
	// started counts the searches handed to the pool, so that the console
	// can run the scheduler until no pass starts another (the computer may
	// move several times in a row in the Gungi draft).
	started atomic.Int64
}

func (p *aiPool) init(workers int) {
	p.sem = make(chan struct{}, workers)
	p.busy = map[int64]bool{}
}

// SetSelfID records the bot's own user id (the gateway learns it from
// READY). Safe to call at any time.
func (b *Bot) SetSelfID(id string) { b.ai.self.Store(&id) }

func (b *Bot) selfID() string {
	if p := b.ai.self.Load(); p != nil {
		return *p
	}
	return ""
}

// WaitAI waits until every search the scheduler started has finished and
// saved its move (tests, the console, and shutdown before the store
// closes).
func (b *Bot) WaitAI() { b.ai.wg.Wait() }

// AISearches is the number of searches the scheduler has started so far.
func (b *Bot) AISearches() int64 { return b.ai.started.Load() }

// aiEvent is the computer's turn in g, when it is the computer's turn.
func aiEvent(g *Game) (Event, bool) {
	if g.Status != GmActive || !g.AIMoves(g.Turn) {
		return Event{}, false
	}
	due := g.ClockState.TurnStart
	if due.IsZero() {
		due = time.Unix(0, 0) // at once
	}
	return Event{Kind: evAI, Ref: g.ID, Ply: g.Ply, Due: due}, true
}

// startAI hands the claimed evAI events to the pool and returns the other
// events. Each search runs in its own goroutine holding a pool token; the
// event stays leased meanwhile (the lease, minutes, outlasts a search,
// seconds). When ctx ends before a token is free the event stays leased
// and comes back after its lease.
func (b *Bot) startAI(ctx context.Context, evs []Event) []Event {
	rest := evs[:0:0]
	for _, e := range evs {
		if e.Kind != evAI {
			rest = append(rest, e)
			continue
		}
		b.ai.mu.Lock()
		if b.ai.busy[e.ID] {
			b.ai.mu.Unlock()
			continue
		}
		b.ai.busy[e.ID] = true
		b.ai.wg.Add(1)
		b.ai.started.Add(1)
		b.ai.mu.Unlock()
		go func() {
			defer func() {
				b.ai.mu.Lock()
				delete(b.ai.busy, e.ID)
				b.ai.mu.Unlock()
				b.ai.wg.Done()
			}()
			select {
			case b.ai.sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-b.ai.sem }()
			if err := b.runEvent(ctx, e); err != nil && ctx.Err() == nil {
				b.Log.Error("computer move", "game", e.Ref, "err", err)
			}
		}()
	}
	return rest
}

// aiBoth is the AISide of a game the computer plays on both sides (two
// computer entrants of a tournament).
const aiBoth = game.AIBoth

// aiSeed makes the computer's choice reproducible: the same game at the
// same ply searches the same way.
func aiSeed(id int64, ply int) int64 { return id*1_000_003 + int64(ply) }

// aiMove searches the computer's move for the turn e was written for and
// plays it. A stale event (the game moved on, was taken back or is over)
// does nothing.
func (b *Bot) aiMove(ctx context.Context, e Event) error {
	// The time cap counts from here (after the wait for a search slot):
	// loading the game and rebuilding its history are part of the think.
	start := b.Clk.Now()
	g, pos, ok, err := b.aiTurn(ctx, e.Ref, e.Ply)
	if !ok || err != nil {
		return err
	}
	if g.AISide == aiBoth && g.Ply >= ai.DefaultMaxPly {
		return b.aiPlyCap(ctx, g)
	}
	lim := ai.Limits{Level: g.AILevel, Seed: aiSeed(g.ID, g.Ply), Start: start, Now: b.Clk.Now}
	if tc := clockOf(g); tc.Timed() {
		// The computer's clock runs like a human's: with little left it
		// thinks less.
		lim.ClockLeft = max(g.Remaining(tc, int(pos.Turn()), b.Clk.Now()), time.Millisecond)
	}
	if _, rep := pos.(engine.Repeatable); rep {
		if gm, err := b.replay(ctx, g); err == nil {
			lim.History = ai.GameHistory(gm)
		}
	}
	res, err := ai.Think(ctx, pos, lim)
	if err != nil {
		return Wrap("search", err)
	}
	metrics.AIThink.WithLabelValues(g.Game).Observe(res.Elapsed.Seconds())
	// A shutdown that cut the search short still saves the move found
	// (depth 1 always completes).
	ctx = context.WithoutCancel(ctx)
	// The search took a while: play only on the very position it saw
	// (a takeback and a new move since would leave the ply unchanged).
	g2, pos2, ok, err := b.aiTurn(ctx, e.Ref, e.Ply)
	if !ok || err != nil || g2.Seq != g.Seq {
		return err
	}
	loc := b.Cfg.DefaultLocale
	if g2.Locale != "" {
		loc = g2.Locale // the server's language when the game began
	}
	r := &Req{
		Command:   Command{User: g2.User(int(pos2.Turn())), GuildID: g2.GuildID},
		Loc:       loc,
		Pub:       loc,
		outOfBand: true,
	}
	_, err = b.Play(ctx, r, g2, g2.Seq, res.Notation)
	var rf *Refusal
	if errors.As(err, &rf) {
		return nil // raced with a resignation, a takeback or a flag-fall
	}
	if err == nil {
		// took is what the time cap promises: from the turn to the stored move.
		took := b.Clk.Now().Sub(start)
		metrics.AIMove.WithLabelValues(g2.Game).Observe(took.Seconds())
		b.Log.Debug("computer moved", "game", g2.ID, "ply", g2.Ply, "move", res.Notation, "level", g2.AILevel,
			"score", res.Score, "depth", res.Depth, "nodes", res.Nodes, "elapsed", res.Elapsed, "took", took)
	}
	return err
}

// aiTurn loads game id and says whether it is still the computer's turn
// at ply.
func (b *Bot) aiTurn(ctx context.Context, id int64, ply int) (*Game, engine.Position, bool, error) {
	g, err := b.St.game(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	if g.AILevel == 0 || g.Status != GmActive || g.Ply != ply {
		return nil, nil, false, nil
	}
	pos, err := g.Position()
	if err != nil {
		return nil, nil, false, err
	}
	if !g.AIMoves(int(pos.Turn())) || pos.Status().Over() {
		return nil, nil, false, nil
	}
	return g, pos, true, nil
}

// replay is g as an engine game (start and log).
func (b *Bot) replay(ctx context.Context, g *Game) (*engine.Game, error) {
	start, err := g.Decode(g.Start, "start")
	if err != nil {
		return nil, err
	}
	log, err := b.St.MoveLog(ctx, g.ID)
	if err != nil {
		return nil, Wrap("move log", err)
	}
	return engine.Replay(start, log)
}

// WantsAI says whether a /challenge is a game against the computer, and at
// which level: the bot's own user as opponent, or a level option.
func (b *Bot) WantsAI(r *Req) (level int, ok bool, err error) {
	s := strings.TrimSpace(r.Options["level"])
	self := b.selfID()
	vsBot := self != "" && r.Options["opponent"] == self
	if s == "" && !vsBot {
		return 0, false, nil
	}
	if s == "" {
		return 3, true, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < MinAILevel || n > MaxAILevel {
		return 0, false, Refuse("refuse.badlevel", s, strconv.Itoa(MinAILevel), strconv.Itoa(MaxAILevel))
	}
	if self == "" {
		return 0, false, Refuse("refuse.noai")
	}
	if id := r.Options["opponent"]; id != "" && id != self {
		return 0, false, Refuse("refuse.levelopp")
	}
	return n, true, nil
}

// AiUser is the computer as a player: the bot's user, named with its level.
func (b *Bot) AiUser(r *Req, level int) User {
	name := names.PlainText(r.Users[b.selfID()].Name)
	if name == "" {
		name = "tankbot"
	}
	return User{ID: b.selfID(), Name: names.MarkName(names.PlainText(r.Public().T("ai.name", names.PlainText(name), strconv.Itoa(level)))), Bot: true}
}

// ChallengeAI starts a game against the computer (me) at once (there is
// nobody to accept): the challenge is written and accepted by the computer
// in the usual two steps, so the game is created exactly as any other. A
// challenge whose game cannot start (an active game here already) is
// cancelled at once.
func (b *Bot) ChallengeAI(ctx context.Context, r *Req, c *ChallengeRec, me User, level int) ([]view.Reply, error) {
	if r.Server().NoAI { // the server turned the computer off (/server): no new game, rematches too
		return nil, Refuse("server.noai")
	}
	c.Opponent = me
	c.AILevel = level
	c.Rated = false // casual: ratings are for games between people
	id, err := b.St.CreateChallenge(ctx, c, Effects{Schedule: []Event{{Kind: EvExpire, Due: c.Expires}}})
	if err != nil {
		return nil, Wrap("create challenge", err)
	}
	c.ID = id
	out, err := b.StartGame(ctx, r, c, me)
	if err != nil {
		if _, cerr := b.St.SetChallengeStatus(ctx, id, ChCancelled, Effects{Cancel: []CancelSpec{{Kinds: []string{EvExpire}}}}); cerr != nil {
			b.Log.Error("cancel a challenge of the computer that did not start", "challenge", id, "err", cerr)
		}
	}
	return out, err
}

// aiTurnContent is the content of a board after which the computer is to
// move: what was played, and that the computer is thinking. Nobody is
// pinged (the mover is not waited for; the computer is the bot).
func (b *Bot) aiTurnContent(ctx context.Context, g *Game, pos engine.Position, mover, next User, what func(loc string) string) (string, []string) {
	loc := b.userLocale(ctx, mover.ID)
	var parts []string
	if what != nil {
		parts = append(parts, what(loc))
	}
	for _, a := range pos.Announcements() {
		parts = append(parts, view.AnnounceText(loc, g, pos, a))
	}
	parts = append(parts, i18n.T(loc, "ai.thinking", next.Name))
	return view.ClipRunes(strings.Join(parts, " "), 2000), nil
}

// AiDraw answers a draw offer to the computer at once: it accepts only
// when a short search finds its position clearly bad.
func (b *Bot) AiDraw(ctx context.Context, r *Req, g *Game) ([]view.Reply, error) {
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	res, err := ai.Think(ctx, pos, ai.Limits{Level: g.AILevel, Nodes: 2000, MaxDepth: 3, MoveTime: 300 * time.Millisecond, Noise: -1, Seed: aiSeed(g.ID, g.Ply)})
	if err != nil {
		return nil, Wrap("evaluate draw offer", err)
	}
	score := res.Score // for the side to move
	if int(pos.Turn()) != g.AISide {
		score = -score
	}
	me := g.User(g.AISide)
	if score > -aiDrawMargin {
		return nil, Refuse("ai.draw.declined", me.Name)
	}
	return b.Finish(ctx, r, g, engine.Drawn(engine.ReasonAgreement), func(loc string) string {
		return i18n.T(loc, "draw.accepted.by", me.Name)
	})
}

// AiTakeback grants a takeback in a game against the computer at once:
// the human's last move goes, with every computer move after it, and the
// human is to move again.
func (b *Bot) AiTakeback(ctx context.Context, r *Req, g *Game, side int) ([]view.Reply, error) {
	gm, err := b.replay(ctx, g)
	if err != nil {
		return nil, err
	}
	// The human's last move: the position before each move says who made
	// it (the Gungi draft does not alternate).
	moves := gm.Moves()
	p, last := gm.Start(), -1
	for i, n := range moves {
		if int(p.Turn()) == side {
			last = i
		}
		m, err := p.ParseMove(n)
		if err == nil {
			p, err = p.Play(m)
		}
		if err != nil {
			return nil, Wrap("replay", err)
		}
	}
	if last < 0 {
		return nil, Refuse("takeback.nothing")
	}
	return b.Undo(ctx, r, g, len(moves)-last, g.User(g.AISide))
}
