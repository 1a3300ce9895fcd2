package discordtest

import (
	"fmt"
	"net/http"
	"strconv"
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
		return request(t, f, method, path, token, "{}")
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

// TestRouteLimits: every answer of a limited route carries its bucket's
// X-RateLimit headers; the sixth message post in 5 s to one channel gets a
// 429 (scope user, not global) with retry_after, another channel (another
// major parameter) has its own bucket with the same bucket hash, an
// interaction's webhook has a bucket per token, and the window's end lets
// requests through again.
func TestRouteLimits(t *testing.T) {
	f := New(t, "app")
	f.SetRouteLimits(DiscordRouteLimits)
	now := time.Unix(2000, 0)
	f.Now = func() time.Time { return now }
	post := func(path string) (*http.Response, map[string]any) {
		return request(t, f, "POST", "/api/v9"+path, "Bot one", `{"content":"x"}`)
	}
	var bucket string
	for i := range 5 {
		resp, _ := post("/channels/10/messages")
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("X-RateLimit-Limit") != "5" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(4-i) ||
			h.Get("X-RateLimit-Reset-After") != "5.000" || h.Get("X-RateLimit-Reset") != "2005.000" || h.Get("X-RateLimit-Bucket") == "" {
			t.Fatalf("post %d: %d %v", i+1, resp.StatusCode, h)
		}
		bucket = h.Get("X-RateLimit-Bucket")
	}
	now = now.Add(1500 * time.Millisecond)
	resp, body := post("/channels/10/messages")
	h := resp.Header
	if resp.StatusCode != 429 || body["global"] != false || h.Get("X-RateLimit-Scope") != "user" || h.Get("X-RateLimit-Global") != "" ||
		h.Get("X-RateLimit-Remaining") != "0" || h.Get("X-RateLimit-Reset-After") != "3.500" || h.Get("Retry-After") != "4" {
		t.Fatalf("sixth post: %d %v %v", resp.StatusCode, h, body)
	}
	if ra, _ := body["retry_after"].(float64); ra != 3.5 {
		t.Fatalf("retry_after %v, want 3.5", body["retry_after"])
	}
	// Another channel: its own bucket, the same route (bucket hash).
	resp, _ = post("/channels/11/messages")
	if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Remaining") != "4" || resp.Header.Get("X-RateLimit-Bucket") != bucket {
		t.Fatalf("another channel: %d %v", resp.StatusCode, resp.Header)
	}
	// Edits are another route, with another bucket.
	req, _ := http.NewRequest("PATCH", f.URL()+"/api/v9/channels/10/messages/77", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	er, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	er.Body.Close()
	if er.Header.Get("X-RateLimit-Remaining") != "4" || er.Header.Get("X-RateLimit-Bucket") == bucket {
		t.Fatalf("an edit shares the posts' bucket: %v", er.Header)
	}
	// Each interaction token has its own webhook bucket: refused (404,
	// no such token) but still counted and answered with headers.
	for _, tok := range []string{"tokA", "tokB"} {
		resp, _ := post("/webhooks/app/" + tok)
		if resp.Header.Get("X-RateLimit-Remaining") != "4" || resp.Header.Get("X-RateLimit-Limit") != "5" {
			t.Fatalf("webhook %s: %v", tok, resp.Header)
		}
	}
	if n := f.RouteRefused(); n != 1 {
		t.Fatalf("%d refused, want 1", n)
	}
	now = now.Add(3500 * time.Millisecond)
	if resp, _ := post("/channels/10/messages"); resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Remaining") != "4" {
		t.Fatalf("after the window: %d %v", resp.StatusCode, resp.Header)
	}
	f.SetRouteLimits(nil)
	for range 10 {
		if resp, _ := post("/channels/10/messages"); resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Limit") != "" {
			t.Fatal("route limits still enforced after SetRouteLimits(nil)")
		}
	}
}

// TestRouteOf: buckets follow Discord's major parameters.
func TestRouteOf(t *testing.T) {
	for _, c := range []struct{ path, route, major string }{
		{"/api/v9/channels/12/messages", "channels/{channel}/messages", "channel:12"},
		{"/api/v9/channels/12/messages/34", "channels/{channel}/messages/{message}", "channel:12"},
		{"/api/v9/webhooks/5/tok/messages/@original", "webhooks/{webhook}/{token}/messages/{message}", "webhook:5/tok"},
		{"/api/v9/interactions/9/tok/callback", "interactions/{interaction}/{token}/callback", "interaction:9/tok"},
		{"/api/v9/guilds/3/members/4", "guilds/{guild}/members/{id}", "guild:3"},
		{"/api/v9/gateway/bot", "gateway/bot", ""},
	} {
		if r, m := routeOf(c.path); r != c.route || m != c.major {
			t.Errorf("%s: %q %q, want %q %q", c.path, r, m, c.route, c.major)
		}
	}
}

// TestInjectFaults: about rate of the matching requests fail, half as
// server errors, half as dropped connections, the same ones for the same
// seed; others are untouched.
func TestInjectFaults(t *testing.T) {
	run := func(seed uint64) (statuses []int, server, drops int) {
		f := New(t, "app")
		f.InjectFaults(0.2, seed, func(_, path string) bool { return strings.Contains(path, "/channels/") })
		for range 400 {
			resp, err := http.Post(f.URL()+"/api/v9/channels/5/messages", "application/json", strings.NewReader(`{"content":"x"}`))
			if err != nil {
				statuses = append(statuses, -1)
				continue
			}
			resp.Body.Close()
			statuses = append(statuses, resp.StatusCode)
		}
		for range 50 {
			resp, err := http.Get(f.URL() + "/api/v9/gateway/bot")
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("a request the faults do not match failed: %v", err)
			}
			resp.Body.Close()
		}
		server, drops = f.Injected()
		return statuses, server, drops
	}
	a, server, drops := run(1)
	var five, cut int
	for _, s := range a {
		switch {
		case s == -1:
			cut++
		case s >= 500:
			five++
		}
	}
	if five != server || cut != drops || server+drops < 50 || server+drops > 110 || server < 20 || drops < 20 {
		t.Fatalf("400 requests: %d server errors, %d drops seen; %d, %d counted", five, cut, server, drops)
	}
	b, _, _ := run(1)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("the same seed failed other requests")
	}
}
