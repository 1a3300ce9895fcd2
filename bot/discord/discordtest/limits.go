package discordtest

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Discord's global rate limit (docs: Rate Limits, "Global Rate Limit"): a
// bot may make at most 50 requests per second over every route; beyond it
// Discord answers 429 with X-RateLimit-Global: true, X-RateLimit-Scope:
// global, Retry-After, and a body {"message", "retry_after" (seconds),
// "global": true}. Interaction endpoints (the callback, and the
// interaction's webhook: its follow-ups and @original) are not bound to it.

// DiscordGlobalLimit is Discord's documented global limit per bot token.
const DiscordGlobalLimit = 50

// globalLimit counts each bot token's requests in the current second.
type globalLimit struct {
	perSecond int
	windows   map[string]*window // Authorization header → its second
	refused   int
}

type window struct {
	start time.Time
	n     int
}

// SetGlobalLimit makes the fake enforce a global limit of perSecond
// requests per second per bot token (DiscordGlobalLimit as Discord does; 0
// turns it off), in fixed one-second windows of the fake's clock (Now).
func (f *Fake) SetGlobalLimit(perSecond int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if perSecond <= 0 {
		f.global = nil
		return
	}
	f.global = &globalLimit{perSecond: perSecond, windows: map[string]*window{}}
}

// GlobalRefused is how many requests the global limit answered 429.
func (f *Fake) GlobalRefused() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.global == nil {
		return 0
	}
	return f.global.refused
}

// exemptFromGlobal tells the interaction routes Discord leaves out of the
// global limit.
func exemptFromGlobal(path string) bool {
	p := strings.TrimPrefix(path, "/api/v9/")
	return strings.HasPrefix(p, "interactions/") || strings.HasPrefix(p, "webhooks/")
}

// refuseGlobal answers 429 (global) when r is over its token's limit and
// says so; it records c's status. Called with f.mu held.
func (f *Fake) refuseGlobal(w http.ResponseWriter, r *http.Request, c *Call) bool {
	g := f.global
	if g == nil || exemptFromGlobal(r.URL.Path) {
		return false
	}
	now := f.Now()
	key := r.Header.Get("Authorization")
	win := g.windows[key]
	if win == nil || now.Sub(win.start) >= time.Second {
		win = &window{start: now}
		g.windows[key] = win
	}
	win.n++
	if win.n <= g.perSecond {
		return false
	}
	g.refused++
	left := time.Second - now.Sub(win.start)
	secs := math.Ceil(left.Seconds()*1000) / 1000
	c.Status = http.StatusTooManyRequests
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(left.Seconds()))))
	w.Header().Set("X-RateLimit-Global", "true")
	w.Header().Set("X-RateLimit-Scope", "global")
	writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": true})
	return true
}
