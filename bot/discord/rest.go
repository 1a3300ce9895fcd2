package discord

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// restClient wraps base (nil: http.DefaultClient's settings) so that every
// request discordgo makes to its REST API goes to baseURL instead. The
// rewrite happens per request rather than by changing discordgo's endpoint
// variables: those are package globals computed at init (and copied into
// one another), so changing them consistently is fragile and would affect
// every session in the process.
func restClient(base *http.Client, baseURL string) (*http.Client, error) {
	to, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (to.Scheme != "http" && to.Scheme != "https") || to.Host == "" {
		return nil, fmt.Errorf("discord REST URL %q: want http(s)://host[:port][/path]", baseURL)
	}
	from, err := url.Parse(discordgo.EndpointAPI)
	if err != nil {
		return nil, fmt.Errorf("discordgo endpoint: %w", err)
	}
	// A base without the API path gets discordgo's ("/api/v9/").
	path := strings.TrimSuffix(to.Path, "/")
	if path == "" {
		path = strings.TrimSuffix(from.Path, "/")
	}
	c := &http.Client{Timeout: 20 * time.Second}
	if base != nil {
		cc := *base
		c = &cc
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = rewriteREST{from: from, scheme: to.Scheme, host: to.Host, path: path, next: next}
	return c, nil
}

type rewriteREST struct {
	from               *url.URL
	scheme, host, path string
	next               http.RoundTripper
}

func (r rewriteREST) RoundTrip(req *http.Request) (*http.Response, error) {
	prefix := strings.TrimSuffix(r.from.Path, "/")
	if req.URL.Host != r.from.Host || !strings.HasPrefix(req.URL.Path, prefix+"/") {
		return r.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.URL.Scheme = r.scheme
	req.URL.Host = r.host
	req.URL.Path = r.path + strings.TrimPrefix(req.URL.Path, prefix)
	req.URL.RawPath = ""
	req.Host = r.host
	return r.next.RoundTrip(req)
}

// globalWatch notes Discord's global rate limit, which discordgo's
// RateLimitError does not report: a 429 with X-RateLimit-Global (or a body
// saying global) holds every bot-token request until Retry-After ends. The
// adapter reports it as bot.RateLimited{Global: true}, so the outbox holds
// every post, not only the refused one.
type globalWatch struct {
	next  http.RoundTripper
	until *atomic.Int64 // Unix nanoseconds; 0: none seen
}

func (g globalWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := g.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("X-RateLimit-Global") != "true" {
		return resp, err
	}
	after, perr := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64)
	if perr != nil || after <= 0 {
		after = 1
	}
	g.until.Store(time.Now().Add(time.Duration(after * float64(time.Second))).UnixNano())
	return resp, nil
}

// watchGlobal wraps c's transport with a globalWatch writing to until.
func watchGlobal(c *http.Client, until *atomic.Int64) *http.Client {
	cc := &http.Client{Timeout: 20 * time.Second}
	if c != nil {
		x := *c
		cc = &x
	}
	next := cc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cc.Transport = globalWatch{next: next, until: until}
	return cc
}
