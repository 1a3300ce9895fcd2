package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/metrics"
	"github.com/tankbot/tankbot/store"
)

// readiness is one condition /readyz checks; nil means satisfied.
type readiness func(ctx context.Context) error

// healthRoutes adds /healthz (the process answers), /readyz (every check
// passes; otherwise 503 with the reasons) and /metrics (Prometheus) to mux.
func healthRoutes(mux *http.ServeMux, checks ...readiness) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
		defer cancel()
		var reasons []string
		for _, c := range checks {
			if err := c(ctx); err != nil {
				reasons = append(reasons, err.Error())
			}
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if len(reasons) > 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, "not ready: "+strings.Join(reasons, "; ")+"\n")
			return
		}
		_, _ = io.WriteString(w, "ready\n")
	})
	mux.Handle("GET /metrics", metrics.Handler())
}

// storeReady is the database check of /readyz; it also feeds the database
// gauges of /metrics from the same store.
func storeReady(db *store.Store) readiness {
	metrics.SetStoreStats(func(ctx context.Context) (metrics.StoreStats, error) {
		st, err := db.Stats(ctx)
		return metrics.StoreStats(st), err
	})
	return db.Ready
}

// gatewayReady is /readyz's check of `run`: the gateway connection is up;
// /metrics shows the same as tankbot_gateway_connected.
func gatewayReady(connected func() bool) readiness {
	metrics.SetGateway(connected)
	return func(context.Context) error {
		if !connected() {
			return errors.New("not connected to the Discord gateway")
		}
		return nil
	}
}

// serveHealth serves /healthz, /readyz and /metrics on addr (the
// metrics_listen setting of `run`) until ctx ends. "" serves nothing.
func serveHealth(ctx context.Context, addr string, log *slog.Logger, checks ...readiness) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics listen: %w", err)
	}
	mux := http.NewServeMux()
	healthRoutes(mux, checks...)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() { _ = srv.Serve(ln) }()
	log.Info("health and metrics", "listen", ln.Addr().String())
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}, nil
}

// runHealthcheck is the image's HEALTHCHECK (it has no curl or wget): GET
// the URL, succeed on a 2xx.
func runHealthcheck(args []string, stdout, _ io.Writer) error {
	fs := newFlags("healthcheck")
	url := fs.String("url", "http://127.0.0.1:9090/readyz", "`URL` to GET (e.g. http://127.0.0.1:8080/readyz for serve)")
	timeout := fs.Duration("timeout", 5*time.Second, "give up after `DURATION`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c := &http.Client{Timeout: *timeout}
	resp, err := c.Get(*url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s: %s", *url, resp.Status, strings.TrimSpace(string(body)))
	}
	_, err = stdout.Write(body)
	return err
}
