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
	"github.com/tankbot/tankbot/store"
)

func init() {
	register("run", "connect to Discord and serve the slash commands", runDiscord)
}

// errNoToken points a first-time user to the setup steps.
var errNoToken = errors.New(`no bot token: set TANKBOT_TOKEN (or "token" in config.yaml); ` +
	`see the README section "Set up on Discord"`)

func runDiscord(args []string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "config.yaml", "configuration file (see config.example.yaml); settings can also come from TANKBOT_* variables")
	if err := fs.Parse(args); err != nil {
		return err
	}
	explicit := false
	fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "config" })
	cfg, err := loadConfig(*path, explicit, os.LookupEnv)
	if err != nil {
		return err
	}
	if cfg.Token == "" {
		return errNoToken
	}
	if cfg.AppID == "" {
		return errors.New(`no application id: set TANKBOT_APP_ID (or "application_id" in config.yaml); see the README section "Set up on Discord"`)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := newLogger(cfg, stderr)
	discord.RouteLibraryLogs(log)
	return serve(ctx, cfg, log, nil)
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

// serve runs the bot until ctx ends, then shuts down in order: no new
// interactions, in-flight ones finished, scheduler stopped, store closed.
// client, when set, replaces the HTTP client (tests).
func serve(ctx context.Context, cfg config, log *slog.Logger, client *http.Client) error {
	db, err := store.Open(ctx, cfg.Database)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	st := bot.NewStorage(db)
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	a, err := discord.New(discord.Options{
		Token: cfg.Token, AppID: cfg.AppID, GuildID: cfg.GuildID, Log: log, Client: client,
	}, discord.FromStore(db))
	if err != nil {
		return err
	}
	b := bot.New(bot.Config{
		ChallengeExpiry: time.Duration(cfg.ChallengeExpiry),
		DefaultLocale:   cfg.Language,
		DefaultClocks:   cfg.DefaultClocks,
		ThreadPerGame:   cfg.ThreadPerGame,
		WhiteAtBottom:   cfg.WhiteAtBottom,
	}, st, systemClock{}, a, log)
	if err := a.Start(ctx, b); err != nil {
		_ = a.Close(context.Background())
		return err
	}
	log.Info("tankbot running", "database", cfg.Database, "guild", cfg.GuildID)

	schedCtx, stopSched := context.WithCancel(context.Background())
	schedDone := make(chan struct{})
	go func() {
		defer close(schedDone)
		_ = b.RunScheduler(schedCtx, time.Duration(cfg.SchedulerInterval))
	}()

	<-ctx.Done()
	log.Info("shutting down")
	closeCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = a.Close(closeCtx)
	stopSched()
	<-schedDone
	return err
}
