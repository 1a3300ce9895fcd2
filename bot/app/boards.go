package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
)

// Only the current board is live (docs/reliability.md): every board
// message the transport records joins the game's boards in the store with
// its sequence; recording one that supersedes another live board (or that
// arrives already superseded: its id was known late) queues a strip post in
// the outbox. The deliverer runs it here, off the answer path: every
// superseded board loses its buttons, until none is left. Clicks on an old
// board are refused as stale whether or not it was stripped yet.

// BoardStripper is implemented by Notifiers that can remove a message's
// components in one request, reporting rate limits as *RateLimited and a
// deleted message as ErrMessageGone, so that the sweep reschedules instead
// of waiting. Without it the sweep uses Notifier.Edit with an empty Reply.
type BoardStripper interface {
	StripBoard(ctx context.Context, channelID, messageID string) error
}

// WebhookStripper is a BoardStripper that can also strip a board through
// the interaction webhook that made it (a route Discord does not count
// against the bot token's global limit): token is the interaction's,
// hookMessage "@original" or the follow-up's id. It falls back to the bot
// token itself when the webhook refuses (the token expired).
type WebhookStripper interface {
	StripBoardVia(ctx context.Context, channelID, messageID, token, hookMessage string) error
}

// HookLifetime is implemented by transports whose interaction tokens
// (a board's Hook) can be used for a while after the interaction: how
// long, a margin for the request itself and for clocks that differ
// included. A transport that does not say has no token to use.
type HookLifetime interface {
	HookLifetime() time.Duration
}

// hookFresh reports whether an interaction token issued then can still be
// used.
func (b *Bot) hookFresh(issued time.Time) bool {
	l, ok := b.n.(HookLifetime)
	return ok && b.Clk.Now().Sub(issued) < l.HookLifetime()
}

// RateLimited is returned (wrapped) by a transport asked to wait: After is
// the platform's retry_after; Global says the limit covers every request of
// the bot's token, not just this route.
type RateLimited struct {
	After  time.Duration
	Global bool
}

func (e *RateLimited) Error() string {
	scope := "route"
	if e.Global {
		scope = "global"
	}
	return fmt.Sprintf("rate limited (%s) for %v", scope, e.After)
}

// ErrMessageGone is returned (wrapped) when the message to edit no longer
// exists: a deleted board has no buttons left to strip.
var ErrMessageGone = errors.New("message gone")

// Strip retries: never given up silently. Each failure is logged and the
// post comes back after a growing pause (retry_after when the transport
// gave one), at most stripMaxPause; after stripLoudAfter failures the log
// turns to an error. A strip is only ever dropped with its game's boards
// (none left to strip), never for its failures.
const (
	stripMaxPause  = 5 * time.Minute
	stripLoudAfter = 10
	// stripRounds bounds one delivery's re-reads of boards recorded while
	// it stripped (the next strip post takes over beyond it).
	stripRounds = 8
)

// Boards are the board messages the sweep strips (the store side of the
// sweep), a kind of record of Storage.
type Boards interface {
	supersededBoards(ctx context.Context, game int64) ([]store.Board, error)
	// pendingBoard is a board recorded before its answer was sent
	// (store.RecordPendingBoard); recordShown records it as delivered.
	pendingBoard(ctx context.Context, game int64, seq int) (store.Board, error)
	recordShown(ctx context.Context, bd store.Board, messageID string) error
	boardStripped(ctx context.Context, game int64, messageID string) error
	// pauseStrips holds every pending strip post until until (a global
	// rate limit covers the whole fleet's token).
	pauseStrips(ctx context.Context, until time.Time) error
}

// AnswerChecker is a transport that can tell whether an interaction's
// answer reached Discord: the id of the message hookMessage ("@original")
// of the interaction with token shows, "" when there is none.
type AnswerChecker interface {
	AnswerShown(ctx context.Context, token, hookMessage string) (messageID string, err error)
}

func (s *storeRepo) pendingBoard(ctx context.Context, game int64, seq int) (store.Board, error) {
	return s.st.PendingBoard(ctx, game, seq)
}

func (s *storeRepo) recordShown(ctx context.Context, bd store.Board, messageID string) error {
	return s.st.RecordBoardVia(ctx, bd.Game, bd.Seq, messageID, bd.Hook)
}

// answerShown says whether the answer a fallback ping stands in for did
// reach Discord after all: its process recorded the board as pending and
// died before learning the message id. Then the board is recorded (which
// cancels the ping) and the ping must not post the board a second time.
// In doubt (no pending board, a spent token, an error) the ping goes.
func (b *Bot) answerShown(ctx context.Context, m outMsg) bool {
	ac, ok := b.n.(AnswerChecker)
	if !ok {
		return false
	}
	bd, err := b.St.pendingBoard(ctx, m.Game, m.Seq)
	if err != nil || bd.Hook.Token == "" || !b.hookFresh(bd.Hook.Issued) {
		return false
	}
	id, err := ac.AnswerShown(ctx, bd.Hook.Token, bd.Hook.Message)
	if err != nil || id == "" {
		return false
	}
	if err := b.St.recordShown(ctx, bd, id); err != nil {
		b.Log.Warn("record a board found delivered", "game", m.Game, "err", err)
	}
	return true
}

func (s *storeRepo) supersededBoards(ctx context.Context, game int64) ([]store.Board, error) {
	return s.st.SupersededBoards(ctx, game)
}

func (s *storeRepo) boardStripped(ctx context.Context, game int64, messageID string) error {
	return s.st.BoardStripped(ctx, game, messageID)
}

func (s *storeRepo) pauseStrips(ctx context.Context, until time.Time) error {
	return s.st.HoldKind(ctx, store.OutboxStrip, until)
}

// sweepBoards delivers strip post m: every superseded live board of the
// game loses its buttons. It is done (sent) only when none is left.
func (b *Bot) sweepBoards(ctx context.Context, m outMsg) error {
	sw := b.St
	if b.n == nil {
		return b.St.sent(ctx, m.ID, "")
	}
	game := m.Game
	// Two strip posts of a game claimed together take turns here: the
	// second reads the boards after the first stripped them, instead of
	// editing them again (each edit spends the bot token's budget).
	defer lockSweep(b, game)()
	for range stripRounds {
		boards, err := sw.supersededBoards(ctx, game)
		if err != nil {
			return b.stripLater(ctx, m, 0, Wrap("read boards", err))
		}
		if len(boards) == 0 {
			return b.St.sent(ctx, m.ID, "")
		}
		for _, bd := range boards {
			err := b.stripOne(ctx, bd)
			var rl *RateLimited
			switch {
			case err == nil || errors.Is(err, ErrMessageGone):
			case errors.As(err, &rl):
				if rl.Global {
					// Every strip waits, on every instance: nothing of
					// this token gets through before then anyway.
					if perr := sw.pauseStrips(ctx, b.Clk.Now().Add(rl.After)); perr != nil {
						err = errors.Join(err, perr)
					}
				}
				return b.stripLater(ctx, m, rl.After, err)
			default:
				return b.stripLater(ctx, m, 0, err)
			}
			if err := sw.boardStripped(ctx, game, bd.Message); err != nil {
				return b.stripLater(ctx, m, 0, Wrap("record stripped board", err))
			}
		}
	}
	// Boards keep arriving: the strip post their records queued goes on.
	return b.St.sent(ctx, m.ID, "")
}

// stripOne removes board bd's buttons: through the interaction webhook
// that made it while its token is fresh (the previous move's answer
// usually is the board to strip), else with the bot token.
func (b *Bot) stripOne(ctx context.Context, bd store.Board) error {
	if ws, ok := b.n.(WebhookStripper); ok && bd.Hook.Token != "" && b.hookFresh(bd.Hook.Issued) {
		return ws.StripBoardVia(ctx, bd.Channel, bd.Message, bd.Hook.Token, bd.Hook.Message)
	}
	if g, ok := b.postsElsewhere(ctx, bd.Game); ok && g != nil {
		// Played where the bot may not edit by itself (places.go) and
		// the token is spent: the buttons stay; a click on them is
		// refused as stale.
		return ErrMessageGone
	}
	if store.IsPendingBoard(bd.Message) {
		// Recorded before its answer was sent, by a process that died
		// before learning its id, and its token is spent: out of reach.
		return ErrMessageGone
	}
	if s, ok := b.n.(BoardStripper); ok {
		return s.StripBoard(ctx, bd.Channel, bd.Message)
	}
	return b.n.Edit(ctx, bd.Channel, bd.Message, view.Reply{})
}

// stripLater puts strip post m back: after wait when the transport asked
// for one, else after the outbox's backoff, never beyond stripMaxPause.
// The failure is logged here (an error once it keeps failing) and not
// returned, so that a strip waiting for its retry is not logged again as
// the scheduler's error; only a failure to requeue it is.
func (b *Bot) stripLater(ctx context.Context, m outMsg, wait time.Duration, err error) error {
	pause := min(max(wait, backoff(m.Attempts)), stripMaxPause)
	if wait > 0 {
		pause = min(wait, stripMaxPause) // Discord said when: no sooner, no later
	}
	level := "warn"
	log := b.Log.Warn
	if m.Attempts >= stripLoudAfter {
		level, log = "error", b.Log.Error
	}
	log("strip old board buttons: will retry", "game", m.Game, "post", m.ID, "attempts", m.Attempts, "in", pause, "level", level, "err", err)
	return Wrap("requeue the strip of game "+strconv.FormatInt(m.Game, 10),
		b.St.retryAt(ctx, m.ID, b.Clk.Now().Add(pause), err.Error()))
}

// sweeps holds a lock per (bot, game) while one of the game's strip posts
// runs in this process; an entry lives only while someone holds or waits.
var sweeps struct {
	mu sync.Mutex
	m  map[sweepKey]*sweepLock
}

type sweepKey struct {
	b    *Bot
	game int64
}

type sweepLock struct {
	sync.Mutex
	users int
}

func lockSweep(b *Bot, game int64) (unlock func()) {
	k := sweepKey{b, game}
	sweeps.mu.Lock()
	if sweeps.m == nil {
		sweeps.m = map[sweepKey]*sweepLock{}
	}
	l := sweeps.m[k]
	if l == nil {
		l = &sweepLock{}
		sweeps.m[k] = l
	}
	l.users++
	sweeps.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		sweeps.mu.Lock()
		if l.users--; l.users == 0 {
			delete(sweeps.m, k)
		}
		sweeps.mu.Unlock()
	}
}
