package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/discord"
	"github.com/tankbot/tankbot/bot/discord/discordtest"
)

// serve --offline: the bot as an Interactions Endpoint with no Discord.
// The fake Discord of the tests and the load test stands in for Discord,
// in this process, on both sides of the endpoint:
//
//   - in front: signed interactions POSTed to --listen's /interactions
//     (signed with the operator's own key pair, TANKBOT_PUBLIC_KEY) are
//     checked, then delivered by the fake to the real endpoint as Discord
//     delivers them, so the fake knows each one and takes its follow-ups;
//     the POST's answer is the interaction's first response;
//   - behind: the bot's REST calls (command registration, follow-ups,
//     channel posts, threads) go to the fake, and every message it gets is
//     logged, with its Watch / Replay link.
//
// Everything else on --listen (the viewer, /healthz, /metrics) is the real
// endpoint's. Nothing leaves the machine. docs/deployment.md, "Try serve
// on one machine", walks through a session.

// offlineAppID is the application id of serve --offline when none is set.
const offlineAppID = "100000000000000001"

// offlineDefaults fills what serve --offline does not need from Discord:
// a token and an application id (nothing reaches Discord), and the
// viewer's links point at --listen. The public key stays required: the
// requests must still be signed.
func offlineDefaults(cfg *config) {
	if cfg.Token == "" {
		cfg.Token = "tankbot-offline-no-discord-token"
	}
	if cfg.AppID == "" {
		cfg.AppID = offlineAppID
	}
	if cfg.WebBaseURL == "" {
		host, port, err := net.SplitHostPort(cfg.Listen)
		if err == nil {
			if host == "" || host == "0.0.0.0" || host == "::" {
				host = "127.0.0.1"
			}
			cfg.WebBaseURL = "http://" + net.JoinHostPort(host, port)
		}
	}
}

// serveOffline runs serve --offline on front until ctx ends.
func serveOffline(ctx context.Context, cfg config, log *slog.Logger, front net.Listener) error {
	userKey, err := discord.ParsePublicKey(cfg.PublicKey)
	if err != nil {
		front.Close()
		return err
	}
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		front.Close()
		return fmt.Errorf("listen: %w", err)
	}
	tb := &harnessTB{}
	f := discordtest.New(tb, cfg.AppID)
	defer tb.cleanup()
	// The fake signs what it delivers with a key of its own.
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		front.Close()
		inner.Close()
		return err
	}
	cfg.PublicKey, cfg.RESTURL = hex.EncodeToString(pub), f.URL()
	innerURL := "http://" + inner.Addr().String()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- serveHTTP(ctx, cfg, log, inner, nil) }()
	go logOfflineMessages(ctx, f, log)

	target, _ := url.Parse(innerURL)
	mux := http.NewServeMux()
	mux.Handle("/", httputil.NewSingleHostReverseProxy(target))
	deliver := offlineDeliver(f, userKey, priv, innerURL+"/interactions")
	mux.Handle("POST /interactions", deliver)
	mux.Handle("POST /{$}", deliver)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout, WriteTimeout: writeTimeout, IdleTimeout: idleTimeout}
	go func() { _ = srv.Serve(front) }()
	log.Info("serve --offline: no Discord; POST signed interactions to /interactions, the viewer is at the links logged",
		"listen", front.Addr().String(), "viewer", cfg.WebBaseURL)

	select {
	case <-ctx.Done():
	case err = <-served:
	}
	closeCtx, stop := context.WithTimeout(context.Background(), shutdownTimeout)
	defer stop()
	_ = srv.Shutdown(closeCtx)
	cancel()
	if err == nil {
		err = <-served
	}
	for _, e := range tb.errors() {
		log.Warn("offline fake Discord", "problem", e)
	}
	return err
}

// offlineDeliver checks an interaction's signature against the operator's
// key, as Discord's own endpoint check would refuse a forged one, and has
// the fake deliver it to the endpoint; the answer is its first response.
func offlineDeliver(f *discordtest.Fake, userKey ed25519.PublicKey, priv ed25519.PrivateKey, endpoint string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "read: "+err.Error(), http.StatusBadRequest)
			return
		}
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		stamp := r.Header.Get("X-Signature-Timestamp")
		if err != nil || !ed25519.Verify(userKey, append([]byte(stamp), body...), sig) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var ev map[string]any
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, "not JSON: "+err.Error(), http.StatusBadRequest)
			return
		}
		if t, _ := ev["type"].(float64); t == 1 { // PING: the endpoint check
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":1}`))
			return
		}
		c, err := f.Interact(endpoint, priv, ev)
		if err == nil && c == nil {
			err = errors.New("the endpoint answered nothing")
		}
		if err != nil {
			http.Error(w, "delivery failed: "+err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(c.Payload)
	})
}

// logOfflineMessages logs each message the bot sends to the fake Discord:
// where, its text, its files and its links (Watch / Replay).
func logOfflineMessages(ctx context.Context, f *discordtest.Fake, log *slog.Logger) {
	n := 0
	for ctx.Err() == nil {
		if f.Await(n, time.Second, func(*discordtest.Call) bool { return true }) == nil {
			continue
		}
		cs := f.CallsFrom(n)
		n += len(cs)
		for _, c := range cs {
			if c.Method == "GET" || c.Status >= 300 || (!c.Created && c.Edited == "") {
				continue
			}
			p := c.Payload
			if d, ok := p["data"].(map[string]any); ok { // a callback's message
				p = d
			}
			text, links := messageText(p)
			var files []string
			for _, u := range c.Files {
				files = append(files, u.Name)
			}
			log.Info("offline: message", "path", redactToken(c.Path), "edit", c.Edited != "", "text", text,
				"files", strings.Join(files, ","), "links", strings.Join(links, " "))
		}
	}
}

// messageText is a message's content and embed texts, and its link
// buttons' URLs.
func messageText(p map[string]any) (string, []string) {
	parts := []string{}
	if s, _ := p["content"].(string); s != "" {
		parts = append(parts, s)
	}
	embeds, _ := p["embeds"].([]any)
	for _, e := range embeds {
		em, _ := e.(map[string]any)
		for _, k := range []string{"title", "description", "url"} {
			if s, _ := em[k].(string); s != "" {
				parts = append(parts, s)
			}
		}
	}
	var links []string
	rows, _ := p["components"].([]any)
	for _, row := range rows {
		rm, _ := row.(map[string]any)
		cs, _ := rm["components"].([]any)
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if u, _ := cm["url"].(string); u != "" {
				links = append(links, u)
			}
		}
	}
	return strings.Join(parts, " | "), links
}

// redactToken shortens an interaction token in a webhook path.
func redactToken(path string) string {
	seg := strings.Split(path, "/")
	for i := range seg {
		if i > 0 && seg[i-1] != "" && len(seg[i]) > 20 {
			if _, err := strconv.ParseUint(seg[i], 10, 64); err != nil {
				seg[i] = "…"
			}
		}
	}
	return strings.Join(seg, "/")
}
