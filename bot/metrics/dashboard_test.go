package metrics

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDashboardNames: every metric the shipped Grafana dashboard queries is
// one this process exports (a renamed metric would leave a panel empty).
func TestDashboardNames(t *testing.T) {
	body, err := os.ReadFile("../../deploy/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(body, &dash); err != nil {
		t.Fatalf("dashboard JSON: %v", err)
	}
	// Every collector with a series, so Gather lists every family.
	SetStoreStats(func(context.Context) (StoreStats, error) { return StoreStats{OutboxOldest: time.Now()}, nil })
	defer SetStoreStats(nil)
	SetGateway(func() bool { return true })
	defer SetGateway(nil)
	Interaction("x", "", time.Now(), time.Now(), false, false)
	Moves.WithLabelValues("x")
	Routed("x", "ok", 0)
	DiscordRequests.WithLabelValues("GET", "/x", "200")
	DiscordLatency.WithLabelValues("GET", "/x")
	Renders.WithLabelValues("x")
	RenderTime.WithLabelValues("x")
	AIThink.WithLabelValues("x")
	AIMove.WithLabelValues("x")
	DBErrors.WithLabelValues("x")
	DBRetries.WithLabelValues("x")
	fams, err := Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range fams {
		have[f.GetName()] = true
	}
	name := regexp.MustCompile(`\b(?:tankbot|go|process)_[a-z0-9_]+\b`)
	seen := 0
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			for _, n := range name.FindAllString(tg.Expr, -1) {
				seen++
				base := n
				for _, suf := range []string{"_bucket", "_sum", "_count"} {
					if b, ok := strings.CutSuffix(n, suf); ok && have[b] {
						base = b
					}
				}
				if !have[base] {
					t.Errorf("panel %q queries %s, which tankbot does not export", p.Title, n)
				}
			}
		}
	}
	if seen < 20 {
		t.Fatalf("only %d metric names found in the dashboard", seen)
	}
}

func TestRoute(t *testing.T) {
	for in, want := range map[string]string{
		"/api/v9/applications/123/commands":                        "/applications/:id/commands",
		"/api/v9/interactions/8000000000001/tok-SECRET.x/callback": "/interactions/:id/:token/callback",
		"/api/v9/webhooks/700/aW50ZXJhY3Rpb24=/messages/@original": "/webhooks/:id/:token/messages/@original",
		"/api/v9/channels/720000000000000001/messages/9/reactions": "/channels/:id/messages/:id/reactions",
		"/proxy/api/v10/channels/1/threads":                        "/channels/:id/threads",
	} {
		if got := Route(in); got != want {
			t.Errorf("Route(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"challenge": "challenge", "": "unknown"} {
		if got := CommandLabel(in, ""); got != want {
			t.Errorf("CommandLabel(%q) = %q", in, got)
		}
	}
	for id, want := range map[string]string{"g:42:17:resign": "component:g:resign", "c:7:accept": "component:c:accept", "g:42:17": "component:g", "Zz:<@1>": "component:other"} {
		if got := CommandLabel("", id); got != want {
			t.Errorf("CommandLabel(custom id %q) = %q, want %q", id, got, want)
		}
	}
}
