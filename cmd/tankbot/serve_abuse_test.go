package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeHoldsUnderAbuse: `serve` with max_requests 2 answers a third
// concurrent interaction 503 at once while health stays up; a client that
// never finishes its headers, or its body, is cut off by the read
// timeouts and frees its slot; an oversized body is refused 413.
// Not parallel: it shortens the server's timeouts.
func TestServeHoldsUnderAbuse(t *testing.T) {
	defer func(h, r time.Duration) { readHeaderTimeout, readTimeout = h, r }(readHeaderTimeout, readTimeout)
	// The read timeout must outlast the slow clients' way to the handler
	// and the posts that find the cap full, on a busy machine too.
	readHeaderTimeout, readTimeout = 500*time.Millisecond, 5*time.Second

	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[]`))
	}))
	defer rest.Close()
	pub, priv, _ := ed25519.GenerateKey(nil)
	cfg := defaultConfig()
	cfg.Token, cfg.AppID = "secret-token-xyz", "123"
	cfg.PublicKey = hex.EncodeToString(pub)
	cfg.RESTURL = rest.URL
	cfg.Database = filepath.Join(t.TempDir(), "t.db")
	cfg.MaxRequests = 2
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, cfg, newLogger(cfg, &logs), ln, nil) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	addr := ln.Addr().String()
	base := "http://" + addr
	for k := 0; ; k++ {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if k == 6000 { // two minutes: a hang guard, not a budget
			t.Fatalf("healthz: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ping := []byte(`{"id":"1","application_id":"123","type":1,"token":"t","version":1}`)
	post := func(body []byte) int {
		t.Helper()
		stamp := strconv.FormatInt(time.Now().Unix(), 10)
		req, _ := http.NewRequest("POST", base+"/interactions", bytes.NewReader(body))
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(stamp), body...))))
		req.Header.Set("X-Signature-Timestamp", stamp)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode == 503 && resp.Header.Get("Retry-After") == "" {
			t.Error("503 without Retry-After")
		}
		return resp.StatusCode
	}
	dial := func(send string) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, send); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// cutOff waits for the server to end c's request: a 408 or 400
	// answer, or the connection closed. Without the server's timeouts the
	// connection would stay open for good; two minutes is a hang guard.
	cutOff := func(c net.Conn, what string) time.Duration {
		t.Helper()
		start := time.Now()
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Minute))
		line, err := bufio.NewReader(c).ReadString('\n')
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("%s: still open after two minutes", what)
		}
		if line != "" && !strings.Contains(line, " 408 ") && !strings.Contains(line, " 400 ") {
			t.Errorf("%s: answered %q", what, line)
		}
		return time.Since(start)
	}

	// Two clients that send headers and then dribble nothing of their
	// body hold both slots.
	head := "POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
	slow := []net.Conn{dial(head), dial(head)}
	// The third is refused at once (once both slow ones reached the
	// handler), health is not capped.
	refused := false
	for k := 0; k < 6000 && !refused; k++ { // a hang guard: two minutes
		refused = post(ping) == 503
		if !refused {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !refused {
		t.Fatal("a third interaction beyond max_requests 2 was not refused 503")
	}
	if resp, err := http.Get(base + "/healthz"); err != nil || resp.StatusCode != 404 {
		t.Errorf("healthz on the public listener: %v %v (want 404: it lives on metrics_listen)", err, resp)
	} else {
		resp.Body.Close()
	}
	// The viewer is served (its own cap, so the full interaction cap does
	// not refuse it): an unknown game is its 404, with its headers.
	if resp, err := http.Get(base + "/g/nope"); err != nil || resp.StatusCode != 404 || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("viewer under a full interaction cap: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	// The read timeout ends the slow bodies; their slots free.
	for _, c := range slow {
		t.Logf("a body never sent: cut off after %v", cutOff(c, "a body never sent").Round(time.Millisecond))
	}
	if code := post(ping); code != 200 {
		t.Errorf("PING after the slow clients were cut off: %d", code)
	}
	// Headers never finished: cut by the header timeout.
	d := cutOff(dial("POST /interactions HTTP/1.1\r\nHost: x\r\n"), "headers never finished")
	t.Logf("headers never finished: cut off after %v", d.Round(time.Millisecond))
	// More than the body limit: 413.
	if code := post(bytes.Repeat([]byte("x"), 2<<20)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2 MiB body: %d, want 413", code)
	}
}
