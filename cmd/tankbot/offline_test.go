package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
)

// serve --offline, for real: signed /challenge and /accept as a player's
// script sends them (docs/deployment.md), answered with the challenge and
// the first board, whose Watch / Replay page and image are served.
func TestServeOfflineSession(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	cfg.PublicKey = hex.EncodeToString(pub)
	cfg.Database = filepath.Join(t.TempDir(), "t.db")
	cfg.Listen = ln.Addr().String()
	offlineDefaults(&cfg)
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	if err := cfg.discordReady(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var logs discordtest.LogBuffer // written by serve's goroutines
	done := make(chan error, 1)
	go func() { done <- serveOffline(ctx, cfg, newLogger(cfg, &logs), ln) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve --offline: %v", err)
		}
	}()
	base := "http://" + ln.Addr().String()

	n := 0
	send := func(user, name string, opts []map[string]any, key ed25519.PrivateKey) (int, string) {
		n++
		users := map[string]any{}
		for _, o := range opts {
			if o["type"] == 6 {
				users[o["value"].(string)] = map[string]any{"id": o["value"], "username": "user" + o["value"].(string)}
			}
		}
		ev := map[string]any{"id": strconv.Itoa(900 + n), "application_id": cfg.AppID, "type": 2, "token": "tok" + strconv.Itoa(n), "version": 1,
			"guild_id": "1", "channel_id": "2", "locale": "en-US", "guild_locale": "en-US",
			"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user}},
			"data":   map[string]any{"id": "1", "name": name, "type": 1, "options": opts, "resolved": map[string]any{"users": users}}}
		body, _ := json.Marshal(ev)
		stamp := strconv.FormatInt(time.Now().Unix(), 10)
		req, _ := http.NewRequest("POST", base+"/interactions", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(stamp), body...))))
		req.Header.Set("X-Signature-Timestamp", stamp)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	// answer is an interaction's answer: the POST's body, or, when a busy
	// machine made the bot defer (a deferred answer is an answer), the
	// message that completed it, as serve --offline logs it (awaited: two
	// minutes are a hang guard, not a budget).
	answer := func(out, want string) string {
		t.Helper()
		if !strings.Contains(out, `"type":5`) {
			return out
		}
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			for _, line := range strings.Split(logs.String(), "\n") {
				if strings.Contains(line, "offline: message") && strings.Contains(line, want) {
					return line
				}
			}
		}
		return out
	}
	code, out := send("111", "challenge", []map[string]any{{"name": "opponent", "type": 6, "value": "222"}, {"name": "thread", "type": 5, "value": false}}, priv)
	if out = answer(out, "challenges"); code != 200 || !strings.Contains(out, "challenges") {
		t.Fatalf("/challenge: %d %s\n%s", code, out, logs.String())
	}
	_, forger, _ := ed25519.GenerateKey(nil)
	if code, _ := send("222", "accept", nil, forger); code != http.StatusUnauthorized {
		t.Errorf("a forged signature: %d, want 401", code)
	}
	code, out = send("222", "accept", nil, priv)
	if out = answer(out, "has started"); code != 200 || !strings.Contains(out, "has started") {
		t.Fatalf("/accept: %d %s\n%s", code, out, logs.String())
	}
	link := regexp.MustCompile(`http://[^"\s]+/g/[A-Za-z0-9_-]+`).FindString(out)
	if !strings.HasPrefix(link, base+"/g/") {
		t.Fatalf("no Watch / Replay link to %s in %s", base, out)
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	img := regexp.MustCompile(`src="(/g/[^"]+\.png)"`).FindSubmatch(page)
	if resp.StatusCode != 200 || img == nil {
		t.Fatalf("viewer page: %d\n%s", resp.StatusCode, page)
	}
	resp, err = http.Get(base + string(img[1]))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := png.Decode(resp.Body); err != nil {
		t.Errorf("the board image: %v", err)
	}
}
