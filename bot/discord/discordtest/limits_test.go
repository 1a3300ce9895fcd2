package discordtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestGlobalLimit: beyond 50 requests in a second a bot token gets 429s
// saying global, with Retry-After; interaction routes and other tokens are
// not held; the next second lets requests through again.
func TestGlobalLimit(t *testing.T) {
	f := New(t, "app")
	f.SetGlobalLimit(DiscordGlobalLimit)
	now := time.Unix(1000, 0)
	f.Now = func() time.Time { return now }
	do := func(method, path, token string) (*http.Response, map[string]any) {
		req, err := http.NewRequest(method, f.URL()+path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp, body
	}
	bot := "Bot one"
	for i := range DiscordGlobalLimit {
		if resp, _ := do("GET", "/api/v9/gateway/bot", bot); resp.StatusCode != 200 {
			t.Fatalf("request %d: %d within the limit", i+1, resp.StatusCode)
		}
	}
	now = now.Add(400 * time.Millisecond)
	resp, body := do("GET", "/api/v9/gateway/bot", bot)
	if resp.StatusCode != 429 || body["global"] != true || resp.Header.Get("X-RateLimit-Global") != "true" ||
		resp.Header.Get("X-RateLimit-Scope") != "global" || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("51st request: %d %v %v", resp.StatusCode, resp.Header, body)
	}
	if ra, _ := body["retry_after"].(float64); ra < 0.599 || ra > 0.601 {
		t.Fatalf("retry_after %v, want 0.6 (the rest of the second)", body["retry_after"])
	}
	// Interaction routes are not bound to the global limit.
	if resp, _ := do("POST", "/api/v9/interactions/1/tok/callback", bot); resp.StatusCode == 429 {
		t.Fatal("an interaction callback was held by the global limit")
	}
	if resp, _ := do("PATCH", "/api/v9/webhooks/app/tok/messages/@original", bot); resp.StatusCode == 429 {
		t.Fatal("an interaction webhook edit was held by the global limit")
	}
	// Another token has its own budget.
	if resp, _ := do("GET", "/api/v9/gateway/bot", "Bot two"); resp.StatusCode != 200 {
		t.Fatalf("another token: %d", resp.StatusCode)
	}
	if n := f.GlobalRefused(); n != 1 {
		t.Fatalf("%d refused, want 1", n)
	}
	now = now.Add(600 * time.Millisecond)
	if resp, _ := do("GET", "/api/v9/gateway/bot", bot); resp.StatusCode != 200 {
		t.Fatalf("the next second: %d", resp.StatusCode)
	}
	var statuses []int
	for _, c := range f.CallsFrom(0) {
		statuses = append(statuses, c.Status)
	}
	if statuses[DiscordGlobalLimit] != 429 {
		t.Fatalf("the refused call is recorded with status %d", statuses[DiscordGlobalLimit])
	}
	f.SetGlobalLimit(0)
	for range 2 * DiscordGlobalLimit {
		if resp, _ := do("GET", "/api/v9/gateway/bot", bot); resp.StatusCode != 200 {
			t.Fatal("limit still enforced after SetGlobalLimit(0)")
		}
	}
}
