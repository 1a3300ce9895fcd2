package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RoundTripper counts and times every request that goes through next
// (Discord's REST API): DiscordRequests by method, route and status,
// DiscordLatency by method and route. 429s and 5xx show in the status.
type RoundTripper struct{ Next http.RoundTripper }

func (t RoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.Next
	if next == nil {
		next = http.DefaultTransport
	}
	route := Route(req.URL.Path)
	start := time.Now()
	resp, err := next.RoundTrip(req)
	DiscordLatency.WithLabelValues(req.Method, route).Observe(time.Since(start).Seconds())
	status := "error"
	if err == nil {
		status = strconv.Itoa(resp.StatusCode)
	}
	DiscordRequests.WithLabelValues(req.Method, route, status).Inc()
	return resp, err
}

// InstrumentClient is c (nil: a client with discordgo's 20-second timeout)
// with its transport counted by RoundTripper.
func InstrumentClient(c *http.Client) *http.Client {
	out := &http.Client{Timeout: 20 * time.Second}
	if c != nil {
		cc := *c
		out = &cc
	}
	out.Transport = RoundTripper{Next: out.Transport}
	return out
}

// Route is a REST path with what varies per call replaced, so the label
// has few values: the API prefix goes, numeric ids become :id and the
// interaction or webhook token after an application or interaction id
// becomes :token ("/api/v9/interactions/123/abc/callback" is
// "/interactions/:id/:token/callback").
func Route(path string) string {
	if i := strings.Index(path, "/api/"); i >= 0 {
		path = path[i+len("/api/"):]
		if j := strings.IndexByte(path, '/'); j >= 0 && strings.HasPrefix(path, "v") {
			path = path[j:] // drop "v9"
		}
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i, p := range parts {
		switch {
		case p == "":
		case isDigits(p):
			parts[i] = ":id"
		case i >= 2 && (parts[i-2] == "interactions" || parts[i-2] == "webhooks"):
			parts[i] = ":token"
		case len(p) > 32:
			parts[i] = ":other" // never a long opaque value in a label
		}
	}
	return "/" + strings.Join(parts, "/")
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
