package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/tankbot/tankbot/bot/discord"
	"github.com/tankbot/tankbot/store"
)

// HTTP server limits: Discord's POSTs are small and it waits 3 s for an
// answer, so slow or endless clients are cut off early. Variables only so
// that a test can shorten them (TestServeHoldsUnderAbuse).
var (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 15 * time.Second
	idleTimeout       = 60 * time.Second
)

const shutdownTimeout = 10 * time.Second

func runServe(args []string, _, stderr io.Writer) error {
	fs := newFlags("serve")
	offline := fs.Bool("offline", false, "no Discord: a local fake answers the bot's REST calls (try serve on one machine: docs/deployment.md)")
	check := func(cfg *config) error {
		if *offline {
			offlineDefaults(cfg)
			if cfg.PublicKey == "" {
				return errors.New(`serve --offline: set TANKBOT_PUBLIC_KEY to the public half of an Ed25519 key pair of your own, whose private half signs your requests (docs/deployment.md, "Try serve on one machine")`)
			}
		}
		if cfg.PublicKey == "" {
			return errors.New(`no public key: set TANKBOT_PUBLIC_KEY (or "public_key" in config.yaml) to the application's Public Key (General Information)`)
		}
		return nil
	}
	return runWithDiscord(fs, args, stderr, []string{"db", "log-level", "listen", "metrics-listen"}, check, func(ctx context.Context, cfg config, log *slog.Logger) error {
		ln, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			return fmt.Errorf("listen: %w", err)
		}
		if *offline {
			return serveOffline(ctx, cfg, log, ln)
		}
		return serveHTTP(ctx, cfg, log, ln, nil)
	})
}

// serveHTTP answers interactions on ln until ctx ends, then shuts down in
// order: no new requests, in-flight interactions finished, scheduler
// stopped, store closed. client, when set, replaces the HTTP client.
func serveHTTP(ctx context.Context, cfg config, log *slog.Logger, ln net.Listener, client *http.Client) error {
	key, err := discord.ParsePublicKey(cfg.PublicKey)
	if err != nil {
		ln.Close()
		return err
	}
	in, err := newInstance(ctx, cfg, log, client)
	if err != nil {
		ln.Close()
		return err
	}
	defer in.closeStore()
	if err := in.a.StartHTTP(ctx, in.b); err != nil {
		ln.Close()
		return err
	}
	mux := http.NewServeMux()
	// One cap for both interaction routes; health and metrics stay
	// uncapped so a flood is seen, and the viewer's streams have their own
	// so that watchers never starve the players.
	interactions := discord.LimitConcurrent(in.a.Handler(key, nil), cfg.MaxRequests)
	mux.Handle("POST /interactions", interactions)
	mux.Handle("POST /{$}", interactions)
	// Health and metrics only on the operations listener (metrics_listen):
	// the public one answers Discord and the viewer, nothing that tells an
	// outsider about the instance.
	stopHealth, err := serveHealth(ctx, cfg.MetricsListen, log, storeReady(in.db))
	if err != nil {
		ln.Close()
		return err
	}
	defer stopHealth()
	viewer, err := newViewer(in.db, cfg, log, in.b.Renders())
	if err != nil {
		ln.Close()
		return err
	}
	viewerRoutes(mux, viewer, cfg)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(viewer.Close) // live streams end so Shutdown need not wait
	stopSched := in.scheduler(time.Duration(cfg.SchedulerInterval))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("tankbot serving interactions", "listen", ln.Addr().String(), "database", store.RedactDSN(cfg.Database))

	select {
	case <-ctx.Done():
		err = nil
	case err = <-served:
		err = fmt.Errorf("http server: %w", err)
	}
	log.Info("shutting down")
	closeCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if serr := srv.Shutdown(closeCtx); serr != nil && err == nil {
		err = fmt.Errorf("http shutdown: %w", serr)
	}
	if cerr := in.a.Close(closeCtx); cerr != nil && err == nil {
		err = cerr
	}
	stopSched()
	return err
}
