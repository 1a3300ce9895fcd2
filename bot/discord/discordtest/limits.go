package discordtest

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
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

// Per-route rate limits (docs: Rate Limits, "Header Format", "Exceeding A
// Rate Limit"). Every answer of a limited route carries its bucket's
// X-RateLimit-Limit, -Remaining, -Reset (epoch seconds), -Reset-After
// (seconds) and -Bucket (a hash naming the route, shared by every value of
// its major parameter). Buckets are per route and per value of the route's
// major parameter (channel_id, guild_id, webhook_id with the webhook or
// interaction token), so two channels never share one. Beyond the limit
// Discord answers 429 with X-RateLimit-Scope: user, Retry-After, and the
// body {"message", "retry_after", "global": false}.

// RouteLimit is the limit of one route: at most Limit requests per Window
// per value of its major parameter. Method "" matches every method.
type RouteLimit struct {
	Method string
	// Route is the path after /api/v9/ with its ids as {channel},
	// {guild}, {webhook}, {token}, {interaction}, {message}, {id}, e.g.
	// "channels/{channel}/messages".
	Route  string
	Limit  int
	Window time.Duration
}

// DiscordRouteLimits are the limits Discord answers tankbot's routes with
// (as observed: Discord documents that the limits exist and are read from
// the headers, not their values). Message posts and edits: 5 per 5 s per
// channel; an interaction's webhook: 5 per 2 s per token; anything else:
// the last rule, 50 per second per major parameter.
var DiscordRouteLimits = []RouteLimit{
	{Method: "POST", Route: "channels/{channel}/messages", Limit: 5, Window: 5 * time.Second},
	{Method: "PATCH", Route: "channels/{channel}/messages/{message}", Limit: 5, Window: 5 * time.Second},
	{Method: "DELETE", Route: "channels/{channel}/messages/{message}", Limit: 5, Window: time.Second},
	{Route: "webhooks/{webhook}/{token}", Limit: 5, Window: 2 * time.Second},
	{Route: "webhooks/{webhook}/{token}/messages/{message}", Limit: 5, Window: 2 * time.Second},
	{Route: "", Limit: 50, Window: time.Second},
}

// routeLimits is the state of SetRouteLimits.
type routeLimits struct {
	rules   []RouteLimit
	buckets map[string]*window // route and major parameter → its window
	refused int
}

// SetRouteLimits makes the fake enforce per-route limits (rules in order,
// the first whose method and route match; a rule with Route "" matches any
// route), counted on the fake's clock (Now), and send the X-RateLimit
// headers with every answer. nil turns them off (the default: tests that
// stop the fake's clock would otherwise see a bucket that never resets).
func (f *Fake) SetRouteLimits(rules []RouteLimit) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if rules == nil {
		f.routes = nil
		return
	}
	f.routes = &routeLimits{rules: append([]RouteLimit(nil), rules...), buckets: map[string]*window{}}
}

// RouteRefused is how many requests a route limit answered 429.
func (f *Fake) RouteRefused() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.routes == nil {
		return 0
	}
	return f.routes.refused
}

// routeOf names the route of an API path (after /api/v9/) with its ids
// replaced, and the value of its major parameter ("" for none).
func routeOf(path string) (route, major string) {
	p := strings.Split(strings.Trim(strings.TrimPrefix(path, "/api/v9/"), "/"), "/")
	out := make([]string, len(p))
	copy(out, p)
	switch {
	case len(p) >= 2 && p[0] == "channels":
		out[1], major = "{channel}", "channel:"+p[1]
	case len(p) >= 2 && p[0] == "guilds":
		out[1], major = "{guild}", "guild:"+p[1]
	case len(p) >= 3 && p[0] == "webhooks":
		out[1], out[2], major = "{webhook}", "{token}", "webhook:"+p[1]+"/"+p[2]
	case len(p) >= 3 && p[0] == "interactions":
		out[1], out[2], major = "{interaction}", "{token}", "interaction:"+p[1]+"/"+p[2]
	}
	for k := range out {
		if k > 0 && out[k-1] == "messages" {
			out[k] = "{message}"
		} else if isID(out[k]) {
			out[k] = "{id}"
		}
	}
	return strings.Join(out, "/"), major
}

func isID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// limitRoute counts request r against its route's bucket, sets the bucket's
// headers on w and, when the bucket is spent, answers 429 and says so. It
// records c's status. Called with f.mu held.
func (f *Fake) limitRoute(w http.ResponseWriter, r *http.Request, c *Call) bool {
	rl := f.routes
	if rl == nil {
		return false
	}
	route, major := routeOf(r.URL.Path)
	var rule *RouteLimit
	for k := range rl.rules {
		x := &rl.rules[k]
		if (x.Method == "" || x.Method == r.Method) && (x.Route == "" || x.Route == route) {
			rule = x
			break
		}
	}
	if rule == nil || rule.Limit <= 0 {
		return false
	}
	now := f.Now()
	key := r.Method + " " + route + " " + major
	win := rl.buckets[key]
	if win == nil || now.Sub(win.start) >= rule.Window {
		win = &window{start: now}
		rl.buckets[key] = win
	}
	win.n++
	reset := win.start.Add(rule.Window)
	after := reset.Sub(now)
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(rule.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(rule.Limit-win.n, 0)))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(reset.UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(after.Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", bucketHash(r.Method+" "+route))
	if win.n <= rule.Limit {
		return false
	}
	rl.refused++
	c.Status = http.StatusTooManyRequests
	secs := math.Ceil(after.Seconds()*1000) / 1000
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(after.Seconds()))))
	h.Set("X-RateLimit-Scope", "user")
	writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": false})
	return true
}

// bucketHash is the X-RateLimit-Bucket of a route: opaque, the same for
// every value of its major parameter, as Discord's.
func bucketHash(route string) string {
	h := fnv.New64a()
	h.Write([]byte(route))
	return fmt.Sprintf("%016x", h.Sum64())
}

// faults is the state of InjectFaults.
type faults struct {
	rate        float64
	rng         *rand.Rand
	match       func(method, path string) bool
	server, cut int
}

// InjectFaults makes each REST request that match accepts (nil: every
// one) fail with probability rate, drawn from seed: half of the failures
// are a server error (500, 502 or 503, before Discord did anything), half
// a dropped connection (no answer at all). rate 0 turns it off.
func (f *Fake) InjectFaults(rate float64, seed uint64, match func(method, path string) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if rate <= 0 {
		f.faults = nil
		return
	}
	if match == nil {
		match = func(string, string) bool { return true }
	}
	f.faults = &faults{rate: rate, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), match: match}
}

// Injected counts the faults InjectFaults caused: server errors and
// dropped connections.
func (f *Fake) Injected() (serverErrors, drops int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.faults == nil {
		return 0, 0
	}
	return f.faults.server, f.faults.cut
}

// injectFault fails r as InjectFaults asked, and says so. Called with
// f.mu held.
func (f *Fake) injectFault(w http.ResponseWriter, r *http.Request, c *Call) bool {
	fl := f.faults
	if fl == nil || !fl.match(r.Method, r.URL.Path) || fl.rng.Float64() >= fl.rate {
		return false
	}
	if fl.rng.IntN(2) == 0 {
		fl.cut++
		c.Status = -1
		dropConnection(w)
		return true
	}
	fl.server++
	c.Status = []int{500, 502, 503}[fl.rng.IntN(3)]
	writeJSON(w, c.Status, map[string]any{"message": "injected server error", "code": 0})
	return true
}

// dropConnection closes the client's connection without an answer: the
// client sees a transport error, whose text quotes the URL (and so any
// token in it).
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
		}
	}
}
