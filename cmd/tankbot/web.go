package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/tankbot/tankbot/bot/discord"
	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/bot/web"
	"github.com/tankbot/tankbot/store"
)

// newViewer is the web viewer (docs/web.md) over the instance's store,
// drawing through rd (the bot's, so that max_renders bounds both; nil:
// the viewer's own).
func newViewer(s *store.Store, cfg config, log *slog.Logger, rd *renders.Renders) (*web.Server, error) {
	return web.New(s, web.Options{BaseURL: cfg.WebBaseURL, Log: log, Renders: rd,
		MaxStreams: cfg.MaxStreams, MaxStreamsPerClient: cfg.MaxStreamsPerClient, StreamIdle: time.Duration(cfg.StreamIdle)}), nil
}

// viewerRoutes mounts the viewer on mux for serve and run alike: pages and
// images under max_requests, live streams apart under their own limits
// (max_streams, max_streams_per_client, stream_idle), so that streams at
// their cap never keep a page from answering.
func viewerRoutes(mux *http.ServeMux, v *web.Server, cfg config) {
	mux.Handle("/g/", discord.LimitConcurrent(v.Handler(), cfg.MaxRequests))
	mux.Handle("GET /g/{token}/events", v.StreamHandler())
}

// startViewer serves the viewer alone on cfg.WebListen (run and play)
// until ctx ends; it returns the address it listens on and a stop that
// shuts it down.
func startViewer(ctx context.Context, s *store.Store, cfg config, log *slog.Logger, rd *renders.Renders) (string, func(), error) {
	v, err := newViewer(s, cfg, log, rd)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", cfg.WebListen)
	if err != nil {
		return "", nil, fmt.Errorf("web viewer: listen: %w", err)
	}
	mux := http.NewServeMux()
	viewerRoutes(mux, v, cfg)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(v.Close)
	go func() { _ = srv.Serve(ln) }()
	stop := func() {
		c, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		_ = srv.Shutdown(c)
	}
	context.AfterFunc(ctx, stop)
	return ln.Addr().String(), stop, nil
}

// playViewer serves the viewer for `tankbot play` on addr (a loopback
// port by default; "off" or "" for none). watch prints the address of the
// page of the game at the console's table, if any.
func playViewer(ctx context.Context, s *store.Store, addr string, log *slog.Logger, out io.Writer) (watch, stop func(), err error) {
	if addr == "" || addr == "off" {
		return func() {}, func() {}, nil
	}
	cfg := defaultConfig() // the limits of serve and run
	cfg.WebListen = addr
	at, stop, err := startViewer(ctx, s, cfg, log, nil)
	if err != nil {
		return nil, nil, err
	}
	watch = func() {
		g, err := unfinished(ctx, s)
		if err != nil || g == nil {
			return
		}
		tok, err := s.WebToken(ctx, g.ID)
		if err != nil {
			log.Warn("web viewer", "err", err)
			return
		}
		fmt.Fprintf(out, "Watch it in a browser: http://%s/g/%s\n", at, tok)
	}
	return watch, stop, nil
}
