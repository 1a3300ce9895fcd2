package main

import (
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
	"sync"
	"testing"
	"time"
)

// TestServeHTTP starts `serve` against a fake REST server reached through
// discord_rest_url, answers a signed PING, refuses a bad signature,
// reports health and shuts down on cancel.
func TestServeHTTP(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, cfg, newLogger(cfg, &logs), ln, nil) }()
	base := "http://" + ln.Addr().String()

	var resp *http.Response
	for k := 0; k < 6000; k++ { // two minutes: a hang guard, not a budget
		if resp, err = http.Get(base + "/healthz"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil || resp.StatusCode != 404 {
		t.Fatalf("healthz on the public listener: %v %v (want 404: health lives on metrics_listen)", err, resp)
	}
	ping := []byte(`{"id":"1","application_id":"123","type":1,"token":"t","version":1}`)
	post := func(key ed25519.PrivateKey) (int, string) {
		stamp := strconv.FormatInt(time.Now().Unix(), 10)
		req, _ := http.NewRequest("POST", base+"/interactions", bytes.NewReader(ping))
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(stamp), ping...))))
		req.Header.Set("X-Signature-Timestamp", stamp)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(priv); code != 200 || !strings.Contains(body, `"type":1`) {
		t.Errorf("PING: %d %s", code, body)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	if code, _ := post(other); code != 401 {
		t.Errorf("bad signature: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(eventWait):
		t.Fatal("serve did not shut down")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "PUT /api/v9/applications/123/commands" {
		t.Errorf("REST calls %v: want the registration through discord_rest_url", paths)
	}
	if strings.Contains(logs.String(), "secret-token-xyz") {
		t.Error("token in the logs")
	}
}

func TestServeNeedsPublicKey(t *testing.T) {
	t.Setenv("TANKBOT_TOKEN", "x")
	t.Setenv("TANKBOT_APP_ID", "123")
	t.Setenv("TANKBOT_PUBLIC_KEY", "")
	var out, errOut bytes.Buffer
	if code := runMain([]string{"serve"}, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "TANKBOT_PUBLIC_KEY") {
		t.Errorf("code %d, stderr %s", code, errOut.String())
	}
}

func TestShardConfig(t *testing.T) {
	env := map[string]string{"TANKBOT_SHARD_COUNT": "auto", "TANKBOT_SHARD_ID": "3"}
	c, err := loadConfig("absent.yaml", false, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil || c.ShardCount != -1 || c.ShardID != 3 {
		t.Errorf("%v %+v", err, c)
	}
	for _, y := range []string{"shard_count: 2\nshard_id: 2\n", "shard_id: 1\n", "shard_count: many\n", "discord_rest_url: ftp://x\n", "public_key: abc\n"} {
		c, err := parseConfig([]byte(y))
		if err == nil {
			err = c.validate()
		}
		if err == nil {
			t.Errorf("%q accepted", y)
		}
	}
	c, err = parseConfig([]byte("shard_count: 4\nshard_id: 3\ndiscord_rest_url: http://proxy:8080\nlisten: 127.0.0.1:9000\n"))
	if err != nil || c.validate() != nil || c.ShardCount != 4 || c.RESTURL != "http://proxy:8080" || c.Listen != "127.0.0.1:9000" {
		t.Errorf("%v %+v", err, c)
	}
}
