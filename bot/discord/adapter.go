// Package discord is tankbot's thin discordgo adapter: it registers the
// core's slash commands, turns interactions into bot.Commands, sends the
// bot.Replies back within Discord's deadlines and implements bot.Notifier
// for everything posted outside an interaction.
package discord

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// Core is what the adapter needs from the handlers; *bot.Bot satisfies it.
type Core interface {
	Handle(ctx context.Context, c bot.Command) []bot.Reply
	Suggest(ctx context.Context, c bot.Command, focused string) []bot.Choice
	Commands() []bot.CommandSpec
}

// Store is what the adapter needs from the database: a place for the
// hash of the registered command definitions.
type Store interface {
	// GetMeta returns "" and no error for a key never set.
	GetMeta(ctx context.Context, key string) (string, error)
	SetMeta(ctx context.Context, key, value string) error
}

// Options configure the adapter.
type Options struct {
	Token   string // bot token, without the "Bot " prefix
	AppID   string
	GuildID string // development guild: commands appear there at once
	Log     *slog.Logger
	// Client replaces the HTTP client (tests point it at a fake Discord).
	Client *http.Client
	// Sleep waits between retries; tests make it instant.
	Sleep func(ctx context.Context, d time.Duration) error
	// DirectWindow is how long a handler may run before the interaction
	// is deferred (Discord allows 3 s for the first response).
	DirectWindow time.Duration
	// ResponseWindow is how long after receipt Discord takes the first
	// response (3 s, the default); tests against a more patient fake
	// raise it so that a loaded machine does not change what is sent.
	ResponseWindow time.Duration
	// BeforeHandle, when set, runs before the core handles each
	// interaction (not autocomplete): tests hold it to make a handler
	// slower than the direct window.
	BeforeHandle func(ctx context.Context, interactionID string)
	// RESTBaseURL, when set, replaces https://discord.com/api/v9/ for
	// every REST call (a shared rate-limiting proxy, or a test's fake):
	// "http://proxy:8080" or "http://proxy:8080/api/v9".
	RESTBaseURL string
	// ShardID and ShardCount split the servers between gateway processes
	// (Discord sends a server's events to shard (guild_id >> 22) %
	// ShardCount). ShardCount 0 means one unsharded connection, -1 the
	// count Discord recommends (GET /gateway/bot). Only shard 0 registers
	// the commands.
	ShardID, ShardCount int
	// Now is the adapter's clock for what it stores (when an interaction's
	// token was issued); default time.Now. Tests share theirs with the bot.
	Now func() time.Time
}

// Adapter connects the core to Discord.
type Adapter struct {
	opts Options
	s    *discordgo.Session
	st   Store
	log  *slog.Logger

	mu       sync.Mutex
	core     Core
	closing  bool
	inflight sync.WaitGroup
	remove   func()
	opened   bool            // the gateway connection was opened (Start)
	ctx      context.Context // interactions' context, ended by Close
	// onDone, set by tests, hears that an interaction was fully answered.
	onDone func(id string)
	cancel context.CancelFunc
	// reconnecting is set while one goroutine reopens a dropped gateway.
	reconnecting atomic.Bool
	// globalUntil is when the last global rate limit Discord announced
	// ends (Unix nanoseconds; globalWatch).
	globalUntil atomic.Int64
}

// globalLimited says whether Discord's global rate limit holds now.
func (a *Adapter) globalLimited() bool { return time.Now().UnixNano() < a.globalUntil.Load() }

// New prepares a session without connecting: the adapter is the core's
// Notifier, so it exists before the core.
func New(opts Options, st Store) (*Adapter, error) {
	if opts.Token == "" {
		return nil, errors.New("no bot token")
	}
	if opts.AppID == "" {
		return nil, errors.New("no application id")
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Sleep == nil {
		opts.Sleep = sleepCtx
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.DirectWindow <= 0 {
		opts.DirectWindow = 2 * time.Second
	}
	if opts.ResponseWindow <= 0 {
		opts.ResponseWindow = firstWindow
	}
	s, err := discordgo.New("Bot " + opts.Token)
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	// Guilds (not privileged) keeps channels and threads in the state, so
	// an interaction in a thread is known as one.
	s.Identify.Intents = discordgo.IntentsGuilds
	s.StateEnabled = true
	s.LogLevel = discordgo.LogWarning
	// discordgo would wait out every 429 and retry it without end; the
	// adapter's retry bounds both the tries and the wait (and never
	// answers an interaction after its window).
	s.ShouldRetryOnRateLimit = false
	s.MaxRestRetries = 1
	if opts.Client != nil {
		s.Client = opts.Client
	}
	if opts.RESTBaseURL != "" {
		c, err := restClient(s.Client, opts.RESTBaseURL)
		if err != nil {
			return nil, err
		}
		s.Client = c
	}
	if opts.ShardCount > 0 && (opts.ShardID < 0 || opts.ShardID >= opts.ShardCount) {
		return nil, fmt.Errorf("shard id %d: must be from 0 to %d", opts.ShardID, opts.ShardCount-1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &Adapter{opts: opts, s: s, st: st, log: opts.Log, ctx: ctx, cancel: cancel}
	s.Client = watchGlobal(s.Client, &a.globalUntil)
	return a, nil
}

// RouteLibraryLogs sends discordgo's own log lines (which may quote URLs
// with interaction tokens) to l, which should be redacting. discordgo's
// logger is a package variable: call this once per process.
func RouteLibraryLogs(l *slog.Logger) {
	discordgo.Logger = func(msgL, caller int, format string, a ...interface{}) {
		level := slog.LevelInfo
		switch msgL {
		case discordgo.LogError:
			level = slog.LevelError
		case discordgo.LogWarning:
			level = slog.LevelWarn
		case discordgo.LogDebug:
			level = slog.LevelDebug
		}
		l.Log(context.Background(), level, fmt.Sprintf(format, a...), "source", "discordgo")
	}
	// Anything discordgo prints with the standard logger goes the same way.
	log.SetOutput(slogWriter{l})
}

type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Info(string(p), "source", "log")
	return len(p), nil
}

// Start registers the commands when they changed, connects to the gateway
// and starts routing interactions to core.
func (a *Adapter) Start(ctx context.Context, core Core) error {
	if err := a.shards(); err != nil {
		return err
	}
	a.mu.Lock()
	a.core = core
	a.mu.Unlock()
	if a.opts.ShardID == 0 {
		if _, err := a.registerCommands(ctx, core.Commands()); err != nil {
			return err
		}
	}
	a.remove = a.s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
		a.interaction(ic.Interaction)
	})
	a.s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		a.log.Info("connected to Discord", "user", r.User.Username, "guilds", len(r.Guilds))
		// The bot's own user is the computer opponent (challenging it
		// starts a game against the AI).
		if s, ok := core.(interface{ SetSelfID(string) }); ok && r.User != nil {
			s.SetSelfID(r.User.ID)
		}
	})
	// The adapter reopens a dropped gateway itself rather than letting
	// discordgo do it: discordgo's reconnect reads ShouldReconnectOnError
	// without a lock, so turning it off at Close would race with a
	// heartbeat failing at that moment (and could reconnect after Close).
	a.s.ShouldReconnectOnError = false
	a.s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) { go a.reconnect() })
	if err := a.s.Open(); err != nil {
		return fmt.Errorf("connect to Discord gateway: %w", err)
	}
	a.opened = true
	return nil
}

// reconnect reopens the gateway after a drop, waiting longer after each
// failure (up to 10 minutes), until it is open again or the adapter closes.
// One goroutine at a time does it.
func (a *Adapter) reconnect() {
	if !a.reconnecting.CompareAndSwap(false, true) {
		return
	}
	defer a.reconnecting.Store(false)
	for wait := time.Second; ; wait = min(2*wait, 10*time.Minute) {
		a.mu.Lock()
		closing := a.closing
		a.mu.Unlock()
		if closing {
			return
		}
		err := a.s.Open()
		if err == nil || errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			a.log.Info("reconnected to the Discord gateway")
			return
		}
		a.log.Warn("reconnect to the Discord gateway failed", "err", err, "retry_in", wait)
		// A real wait (not opts.Sleep, which tests make instant): nothing
		// waits on a reconnect, and Close ends it through ctx.
		if sleepCtx(a.ctx, wait) != nil {
			return // closing
		}
	}
}

// shards sets the session's shard, asking Discord for the count when told
// to (ShardCount -1).
func (a *Adapter) shards() error {
	n := a.opts.ShardCount
	if n < 0 {
		gb, err := a.s.GatewayBot()
		if err != nil {
			return fmt.Errorf("recommended shard count: %w", err)
		}
		n = max(gb.Shards, 1)
		if a.opts.ShardID >= n {
			return fmt.Errorf("shard id %d: Discord recommends %d shards (ids 0 to %d)", a.opts.ShardID, n, n-1)
		}
		a.opts.ShardCount = n
	}
	if n > 0 {
		a.s.ShardID, a.s.ShardCount = a.opts.ShardID, n
		a.log.Info("gateway shard", "shard", a.opts.ShardID, "of", n)
	}
	return nil
}

// StartHTTP readies the adapter for the HTTP interactions endpoint
// (Handler) without a gateway connection: it registers the commands when
// they changed and routes interactions to core.
func (a *Adapter) StartHTTP(ctx context.Context, core Core) error {
	a.mu.Lock()
	a.core = core
	a.mu.Unlock()
	_, err := a.registerCommands(ctx, core.Commands())
	return err
}

// Close stops taking interactions, waits (until ctx ends) for those in
// flight to be answered and disconnects.
func (a *Adapter) Close(ctx context.Context) error {
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
	if a.remove != nil {
		a.remove()
	}
	done := make(chan struct{})
	go func() { a.inflight.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("interactions still in flight: %w", ctx.Err())
	}
	a.cancel()
	// closing (set above) keeps reconnect from reopening what we close.
	if !a.opened {
		return err
	}
	if cerr := a.s.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close gateway: %w", cerr)
	}
	return err
}

func (a *Adapter) now() time.Time { return a.opts.Now() }

// begin admits one interaction unless the adapter is closing.
func (a *Adapter) begin() (Core, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closing || a.core == nil {
		return nil, false
	}
	a.inflight.Add(1)
	return a.core, true
}

// record tells a Tracked reply's recorder (bot.Reply.Sent) the message it
// became: a game's board, a challenge. The change itself is saved either
// way; only the link to the message (for editing it later) is lost on
// failure, which the recorder logs.
func (a *Adapter) record(ctx context.Context, r bot.Reply, channelID, messageID string) {
	a.recordVia(ctx, r, channelID, messageID, bot.Hook{})
}

// recordPending tells r's recorder that r is about to be shown by hook's
// @original, before the answer is sent: a process killed between Discord
// taking the answer and recording its id leaves a board the sweep can
// still strip through the hook.
func (a *Adapter) recordPending(ctx context.Context, r bot.Reply, hook bot.Hook) {
	r.RecordPending(ctx, hook)
}

// recordVia is record for a message that interaction webhook hook made (or
// answered with): a board keeps it, to be stripped through it later.
func (a *Adapter) recordVia(ctx context.Context, r bot.Reply, channelID, messageID string, hook bot.Hook) {
	if messageID == "" {
		return
	}
	r.RecordSent(ctx, channelID, messageID, hook)
}
