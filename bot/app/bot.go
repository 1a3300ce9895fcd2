// Package app holds tankbot's transport-free handlers: challenges, moves,
// boards, clocks and the scheduler. Transports (bot/discord, bot/console,
// tests) turn what users do into Commands and send back the Replies.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/store"
)

// Config tunes the bot.
type Config struct {
	// ChallengeExpiry is how long an unanswered challenge stays open
	// (default 24 h).
	ChallengeExpiry time.Duration
	// DefaultLocale is used when neither /settings nor the command has one.
	DefaultLocale string
	// DefaultClocks maps a variant ("basic16") or a game ("camelot") to its
	// default clock preset; unset entries use the rulebook's defaults.
	DefaultClocks map[string]string
	// ThreadPerGame is the default of /challenge's thread option.
	ThreadPerGame bool
	// Workers bounds the events and posts the scheduler handles at once
	// (default 4).
	Workers int
	// Retention is how long completed events and delivered posts are kept
	// (default 7 days).
	Retention time.Duration
	// DowntimeGrace is the gap between heartbeats above which the bot
	// counts itself as having been down and extends the running clocks
	// (default 30 s).
	DowntimeGrace time.Duration
	// WhiteAtBottom draws every public board with White at the bottom;
	// by default it is drawn from the side of the player to move.
	WhiteAtBottom bool
	// SelfID is the bot's own Discord user id: challenging it (or giving
	// /challenge a level) starts a game against the computer, which plays
	// as this user. The gateway adapter also sets it from READY
	// (SetSelfID).
	SelfID string
	// AIWorkers bounds the computer's searches running at once (default:
	// one per core, runtime.NumCPU()).
	AIWorkers int
	// WebBaseURL is the web viewer's public address (docs/web.md): every
	// game message links to its page; "" for no links.
	WebBaseURL string
	// MaxRenders bounds the replays and stored boards drawn at once, by
	// the bot and the web viewer sharing Renders (default: one per core,
	// runtime.NumCPU()).
	MaxRenders int
	// ReviewNodes is a game review's node budget per position before the
	// game's scaling (default review.DefaultNodes; docs/review.md).
	ReviewNodes int64
}

// Renders is what draws the bot's replays and finished boards: the web
// viewer shares it, so that MaxRenders bounds the whole instance.
func (b *Bot) Renders() *renders.Renders { return b.rd }

// Bot is the handler core. It is safe for concurrent use.
type Bot struct {
	Cfg Config
	St  Storage
	Clk Clock
	n   Notifier
	Log *slog.Logger

	// Seen caches the Discord locale last stored per user, so an
	// interaction writes only when it changes.
	Seen sync.Map
	// dms caches the DM channels with the bot already recorded, by user
	// (places.go).
	dms sync.Map
	// lastMaintain is when the scheduler last reconciled and purged
	// (Unix nanoseconds).
	lastMaintain atomic.Int64

	ai aiPool

	// rv bounds and counts the game reviews (cmd_review.go).
	rv reviewer

	// mine mines finished games for puzzles (puzzle_pool.go).
	mine miner

	// rd draws replays and finished boards at most MaxRenders at once
	// and stores a finished game's (archive.go).
	rd *renders.Renders

	// HelpNames lists the commands for /help ("`/challenge`, `/accept`,
	// …"), set by the router that serves this bot.
	HelpNames string
}

// New builds the bot on a Storage (see OpenSQLite), the time source, the
// transport's Notifier (nil: out-of-band posts are dropped) and a logger.
func New(cfg Config, st Storage, clk Clock, n Notifier, log *slog.Logger) *Bot {
	return newBot(cfg, st, clk, n, log)
}

func newBot(cfg Config, st Storage, clk Clock, n Notifier, log *slog.Logger) *Bot {
	if cfg.ChallengeExpiry <= 0 {
		cfg.ChallengeExpiry = 24 * time.Hour
	}
	if cfg.DefaultLocale == "" {
		cfg.DefaultLocale = i18n.English
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = defaultWorkers
	}
	if cfg.Retention <= 0 {
		cfg.Retention = defaultRetention
	}
	if cfg.DowntimeGrace <= 0 {
		cfg.DowntimeGrace = defaultDowntimeGrace
	}
	if cfg.AIWorkers <= 0 {
		cfg.AIWorkers = runtime.NumCPU()
	}
	b := &Bot{Cfg: cfg, St: st, Clk: clk, n: n, Log: log}
	if st != nil {
		b.rd = renders.New(st, cfg.MaxRenders, log)
	} else {
		b.rd = renders.New(nil, cfg.MaxRenders, log)
	}
	b.ai.init(cfg.AIWorkers)
	b.SetSelfID(cfg.SelfID)
	return b
}

// Refusal is a player-facing refusal: a catalog key and its args. Handlers
// return it as an error; Handle turns it into an ephemeral reply.
type Refusal struct {
	Key  string
	Args []string
	// Extra lines (already translated), e.g. engine alternatives
	Extra []string
}

func (r *Refusal) Error() string { return r.Key }

func Refuse(key string, args ...string) error { return &Refusal{Key: key, Args: args} }

// Req is one command being handled: the command and the caller's locale.
// Read the locale, the public language and the server's settings through
// Locale, PubLoc and Server: the router's middleware leaves them to be
// looked up (Lookups) the first time they are asked for, on the way down
// through bot/app, once for the request and its copies.
type Req struct {
	Command
	Loc string
	Pub string // the language of public messages (the server's)
	// Guild is the server's settings (/server); zero outside a server.
	Guild store.GuildSettings
	// Lookups, when set, resolves Loc, or Pub and Guild, the first time
	// they are asked for.
	Lookups *Lookups
	// outOfBand marks the scheduler acting for a player (the computer's
	// move): its posts are queued in the change's own transaction and
	// nothing is returned.
	outOfBand bool
}

func (r *Req) T(key string, args ...string) string { return i18n.T(r.Locale(), key, args...) }

// Lookups are a request's lookups left for when they are first needed:
// the caller's locale (Bot.Locale: /settings, Discord's, the last seen,
// the default, remembering the one Discord shows) and the server's
// settings with the language of public messages (Bot.ServerSettings).
// The first of them asked for runs all, in that order, once for the
// request and its copies: a request that says anything reads one, so the
// caller's Discord locale is remembered as before. The router's
// middleware fills the exported fields; nothing runs then.
type Lookups struct {
	Bot     *Bot
	Ctx     context.Context
	Command Command
	// Locale and Server say which lookups are left to do.
	Locale, Server bool

	once   sync.Once
	locale string
	guild  store.GuildSettings
	pub    string
}

// run does the lookups asked for, once.
func (l *Lookups) run() {
	l.once.Do(func() {
		if l.Locale {
			l.locale = l.Bot.Locale(l.Ctx, l.Command)
		}
		if l.Server {
			l.guild = l.Bot.ServerSettings(l.Ctx, l.Command.GuildID)
			l.pub = l.Bot.PubLocale(l.Command, l.guild.Locale)
		}
	})
}

// Locale is the caller's language.
func (r *Req) Locale() string {
	if l := r.Lookups; r.Loc == "" && l != nil && l.Locale {
		l.run()
		r.Loc = l.locale
	}
	return r.Loc
}

// Server is the server's settings (/server); zero outside a server.
func (r *Req) Server() store.GuildSettings {
	r.lookServer()
	return r.Guild
}

// PubLoc is the language of public messages: the server's.
func (r *Req) PubLoc() string {
	r.lookServer()
	return r.Pub
}

func (r *Req) lookServer() {
	l := r.Lookups
	if l == nil || !l.Server || r.Pub != "" {
		return
	}
	l.run()
	r.Guild, r.Pub = l.guild, l.pub
}

// RunScheduler calls Tick every interval until ctx ends. Events that fell due
// while the bot was down fire on the first pass.
func (b *Bot) RunScheduler(ctx context.Context, every time.Duration) error {
	if every <= 0 {
		every = time.Second
	}
	if err := b.Recover(ctx); err != nil && ctx.Err() == nil {
		b.Log.Error("scheduler recovery", "err", err)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := b.Tick(ctx); err != nil && ctx.Err() == nil {
			b.Log.Error("scheduler tick", "err", err)
		}
		b.minePuzzlesLater(ctx)
		select {
		case <-ctx.Done():
			// Searches end with ctx; wait for them to save what they
			// found before the caller closes the store.
			b.WaitAI()
			b.WaitMining()
			return nil
		case <-t.C:
		}
	}
}

func Wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}
