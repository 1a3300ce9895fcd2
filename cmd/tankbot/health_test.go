package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tankbot/tankbot/store"
)

// TestReadyz: /readyz is ready with the database there and the gateway up,
// turns not-ready with the reason when the database file goes away or the
// gateway drops, and ready again when they are back; /healthz stays ok.
func TestReadyz(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "tankbot.db")
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var up atomic.Bool
	up.Store(true)
	mux := http.NewServeMux()
	healthRoutes(mux, storeReady(db), gatewayReady(up.Load))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	want := func(path string, code int, text string) {
		t.Helper()
		if c, body := get(path); c != code || !strings.Contains(body, text) {
			t.Fatalf("%s: %d %q, want %d with %q", path, c, body, code, text)
		}
	}
	want("/readyz", 200, "ready")
	moved := dbPath + ".away"
	if err := os.Rename(dbPath, moved); err != nil {
		t.Fatal(err)
	}
	want("/readyz", 503, "database file")
	want("/healthz", 200, "ok")
	if err := os.Rename(moved, dbPath); err != nil {
		t.Fatal(err)
	}
	want("/readyz", 200, "ready")
	up.Store(false)
	want("/readyz", 503, "not connected to the Discord gateway")
	if v, ok := sample(scrape(t, srv.URL+"/metrics"), "tankbot_gateway_connected", nil); !ok || v != 0 {
		t.Fatalf("tankbot_gateway_connected %v %v while down", v, ok)
	}
	up.Store(true)
	want("/readyz", 200, "ready")
	if v, ok := sample(scrape(t, srv.URL+"/metrics"), "tankbot_gateway_connected", nil); !ok || v != 1 {
		t.Fatalf("tankbot_gateway_connected %v %v while up", v, ok)
	}
	db.Close()
	want("/readyz", 503, "database unreachable")
	// /metrics answers in the Prometheus text format.
	if c, body := get("/metrics"); c != 200 || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("/metrics: %d %.200q", c, body)
	}
}

// TestHealthcheckCommand: exit 0 on a 2xx, 1 with the reason otherwise.
func TestHealthcheckCommand(t *testing.T) {
	var ready atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if !ready.Load() {
			http.Error(w, "not ready: database unreachable", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ready\n")
	}))
	defer srv.Close()
	var out, errb bytes.Buffer
	if code := runMain([]string{"healthcheck", "--url", srv.URL}, &out, &errb); code != exitFail || !strings.Contains(errb.String(), "database unreachable") {
		t.Fatalf("not ready: %d %q", code, errb.String())
	}
	ready.Store(true)
	out.Reset()
	if code := runMain([]string{"healthcheck", "--url", srv.URL}, &out, &errb); code != exitOK || out.String() != "ready\n" {
		t.Fatalf("ready: %d %q", code, out.String())
	}
}
