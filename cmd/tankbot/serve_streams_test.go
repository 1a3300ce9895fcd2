package main

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store"
)

// TestServeStreamsApartFromPages: with max_streams streams held open on
// one running game (1,000 in the long tier), a page of another game still
// answers 200, and one stream more gets 503 at once instead of waiting.
// On the old single cap of max_requests, the streams took every slot and
// the page answered 503.
func TestServeStreamsApartFromPages(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 40 // the long tier holds 1,000
	}
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[]`))
	}))
	defer rest.Close()
	pub, _, _ := ed25519.GenerateKey(nil)
	cfg := defaultConfig()
	cfg.Token, cfg.AppID = "secret-token-xyz", "123"
	cfg.PublicKey = hex.EncodeToString(pub)
	cfg.RESTURL = rest.URL
	cfg.Database = filepath.Join(t.TempDir(), "t.db")
	cfg.MaxRequests = 16 // far fewer than the streams
	cfg.MaxStreams, cfg.MaxStreamsPerClient = n, n

	ctx := context.Background()
	st, err := store.Open(ctx, cfg.Database)
	if err != nil {
		t.Fatal(err)
	}
	tok := func(ch string, finish bool) string {
		g, err := st.CreateGame(ctx, store.Game{Kind: "tank", Variant: "basic16", Guild: "g", Channel: ch,
			Players: [2]string{"1", "2"}, Names: [2]string{"Ann", "Ben"}, Start: "basic16", Clock: "none"})
		if err != nil {
			t.Fatal(err)
		}
		if finish {
			if err := st.FinishGame(ctx, g.ID, 0, store.Outcome{Result: "1-0", Reason: "resignation"}); err != nil {
				t.Fatal(err)
			}
		}
		tk, err := st.WebToken(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	running, other := tok("c1", false), tok("c2", true)
	st.Close()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- serveHTTP(sctx, cfg, newLogger(cfg, &strings.Builder{}), ln, nil) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	base := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: 4}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()

	type held struct{ body interface{ Close() error } }
	var streams []held
	defer func() {
		for _, s := range streams {
			s.body.Close()
		}
	}()
	for i := range n {
		res, err := client.Get(base + "/g/" + running + "/events")
		if err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
		if res.StatusCode != 200 {
			res.Body.Close()
			t.Fatalf("stream %d of %d: %s", i, n, res.Status)
		}
		br := bufio.NewReader(res.Body)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("stream %d ended early: %v", i, err)
			}
			if strings.HasPrefix(line, "data: ") {
				break
			}
		}
		streams = append(streams, held{res.Body})
	}
	start := time.Now()
	res, err := client.Get(base + "/g/" + other)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	took := time.Since(start)
	if res.StatusCode != 200 {
		t.Fatalf("page with %d streams open: %s, want 200", n, res.Status)
	}
	t.Logf("page of another game with %d streams open: 200 in %v", n, took.Round(time.Microsecond))
	start = time.Now()
	res, err = client.Get(base + "/g/" + running + "/events")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("stream %d beyond max_streams %d: %s, want 503", n+1, n, res.Status)
	}
	t.Logf("stream beyond the cap: %s in %v", res.Status, time.Since(start).Round(time.Microsecond))
}

// TestRunViewerStreamLimits: run's separate web listener (web_listen) has
// the stream limits of serve (it had none): beyond max_streams_per_client a
// stream gets 429 at once, and its pages still answer.
func TestRunViewerStreamLimits(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "t.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.CreateGame(ctx, store.Game{Kind: "tank", Variant: "basic16", Guild: "g", Channel: "c1",
		Players: [2]string{"1", "2"}, Names: [2]string{"Ann", "Ben"}, Start: "basic16", Clock: "none"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := st.WebToken(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	cfg.WebListen = "127.0.0.1:0"
	cfg.MaxStreams, cfg.MaxStreamsPerClient = 2, 1
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	addr, stop, err := startViewer(sctx, st, cfg, newLogger(cfg, &strings.Builder{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	base := "http://" + addr
	open := func() (int, func()) {
		res, err := http.Get(base + "/g/" + tok + "/events")
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode == 200 {
			line, err := bufio.NewReader(res.Body).ReadString('\n')
			if err != nil || !strings.HasPrefix(line, "retry:") {
				t.Fatalf("stream starts %q %v", line, err)
			}
		}
		return res.StatusCode, func() { res.Body.Close() }
	}
	code, closeFirst := open()
	if code != 200 {
		t.Fatalf("first stream: %d", code)
	}
	defer closeFirst()
	if code, c := open(); code != http.StatusTooManyRequests {
		c()
		t.Fatalf("second stream from one address: %d, want 429", code)
	}
	if res, err := http.Get(base + "/g/" + tok); err != nil || res.StatusCode != 200 {
		t.Fatalf("page beside a held stream: %v %v", err, res)
	} else {
		res.Body.Close()
	}
}
