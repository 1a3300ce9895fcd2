package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/discord"
	"github.com/tankbot/tankbot/bot/metrics"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
)

// errNoToken points a first-time user to the setup steps.
var errNoToken = errors.New(`no bot token: set TANKBOT_TOKEN (or "token" in config.yaml); ` +
	`see the README section "Set up on Discord"`)

func runDiscord(args []string, _, stderr io.Writer) error {
	fs := newFlags("run")
	return runWithDiscord(fs, args, stderr, []string{"db", "log-level", "shard-id", "shard-count", "metrics-listen", "web-listen"}, nil,
		func(ctx context.Context, cfg config, log *slog.Logger) error {
			return serveGateway(ctx, cfg, log, nil)
		})
}

// runWithDiscord is the frame of the commands that talk to Discord: it
// adds --config and the flags of the settings named to fs, parses args,
// loads the configuration (file, then environment, then flags), lets check
// refuse what the command cannot work without, and calls run with a
// context that ends on SIGINT or SIGTERM.
func runWithDiscord(fs *flag.FlagSet, args []string, stderr io.Writer, flags []string, check func(*config) error, run func(context.Context, config, *slog.Logger) error) error {
	path := fs.String("config", "", "configuration `FILE` (see config.example.yaml; default: the first of "+
		strings.Join(configPlaces(), ", ")+" that exists); settings also come from TANKBOT_* variables")
	over := addConfigFlags(fs, flags...)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	file, explicit := *path, *path != ""
	if !explicit {
		file = findConfig()
	}
	cfg, err := loadConfig(file, explicit, os.LookupEnv)
	if err != nil {
		return err
	}
	if err := over.set(&cfg); err != nil {
		return err
	}
	if check != nil {
		if err := check(&cfg); err != nil {
			return err
		}
	}
	if err := cfg.validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := cfg.discordReady(); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := newLogger(cfg, stderr)
	discord.RouteLibraryLogs(log)
	if file == "" {
		file = "none found (looked for " + strings.Join(configPlaces(), ", ") + ")"
	}
	log.Info("configuration", "file", file, "database", store.RedactDSN(cfg.Database))
	return run(ctx, cfg, log)
}

// discordReady checks the settings every Discord transport needs.
func (c config) discordReady() error {
	if c.Token == "" {
		return errNoToken
	}
	if c.AppID == "" {
		return errors.New(`no application id: set TANKBOT_APP_ID (or "application_id" in config.yaml); see the README section "Set up on Discord"`)
	}
	return nil
}

// newLogger writes cfg's level and format, scrubbed of tokens.
func newLogger(cfg config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(strings.ToUpper(cfg.LogLevel)))
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(discord.NewRedactingHandler(h, cfg.Token))
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// instance is the bot wired to its database and Discord adapter, before
// a transport (gateway or HTTP endpoint) starts.
type instance struct {
	st  bot.Storage
	db  *store.Store
	a   *discord.Adapter
	b   *bot.Bot
	log *slog.Logger
}

// newInstance opens the database and builds the adapter and the core.
// client, when set, replaces the HTTP client (tests).
func newInstance(ctx context.Context, cfg config, log *slog.Logger, client *http.Client) (*instance, error) {
	db, err := store.Open(ctx, cfg.Database)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	st := bot.NewStorage(db)
	client = metrics.InstrumentClient(client) // Discord REST calls by route and status
	a, err := discord.New(discord.Options{
		Token: cfg.Token, AppID: cfg.AppID, GuildID: cfg.GuildID, Log: log, Client: client,
		RESTBaseURL: cfg.RESTURL, ShardID: cfg.ShardID, ShardCount: int(cfg.ShardCount),
	}, discord.FromStore(db))
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	b := bot.New(bot.Config{
		ChallengeExpiry: time.Duration(cfg.ChallengeExpiry),
		DefaultLocale:   cfg.Language,
		DefaultClocks:   cfg.DefaultClocks,
		ThreadPerGame:   cfg.ThreadPerGame,
		WhiteAtBottom:   cfg.WhiteAtBottom,
		// A bot's application id is its user id (HTTP interactions never
		// see READY); the gateway confirms it from READY.
		SelfID:     cfg.AppID,
		AIWorkers:  cfg.AIWorkers,
		WebBaseURL: cfg.WebBaseURL,
		MaxRenders: cfg.MaxRenders,
	}, st, systemClock{}, a, log)
	var names []string
	for _, c := range b.Commands() {
		names = append(names, c.Name)
	}
	metrics.InitKnown(names, games.Names())
	return &instance{st: st, db: db, a: a, b: b, log: log}, nil
}

// scheduler runs the core's scheduler until the returned stop is called.
func (in *instance) scheduler(interval time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = in.b.RunScheduler(ctx, interval)
	}()
	return func() { cancel(); <-done }
}

func (in *instance) closeStore() {
	if err := in.st.Close(); err != nil {
		in.log.Error("close database", "err", err)
	}
}

// serveGateway runs the bot on a gateway connection until ctx ends, then
// shuts down in order: no new interactions, in-flight ones finished,
// scheduler stopped, store closed. client, when set, replaces the HTTP
// client (tests).
func serveGateway(ctx context.Context, cfg config, log *slog.Logger, client *http.Client) error {
	in, err := newInstance(ctx, cfg, log, client)
	if err != nil {
		return err
	}
	defer in.closeStore()
	if err := in.a.Start(ctx, in.b); err != nil {
		_ = in.a.Close(context.Background())
		return err
	}
	stopHealth, err := serveHealth(ctx, cfg.MetricsListen, log, storeReady(in.db), gatewayReady(in.a.Connected))
	if err != nil {
		_ = in.a.Close(context.Background())
		return err
	}
	defer stopHealth()
	log.Info("tankbot running", "database", store.RedactDSN(cfg.Database), "guild", cfg.GuildID, "shard", cfg.ShardID, "shards", int(cfg.ShardCount))
	if cfg.WebListen != "" {
		addr, stopWeb, err := startViewer(ctx, in.db, cfg, log, in.b.Renders())
		if err != nil {
			_ = in.a.Close(context.Background())
			return err
		}
		defer stopWeb()
		log.Info("web viewer", "listen", addr)
	}
	stopSched := in.scheduler(time.Duration(cfg.SchedulerInterval))

	<-ctx.Done()
	log.Info("shutting down")
	closeCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = in.a.Close(closeCtx)
	stopSched()
	return err
}
