package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape GETs url and parses it with Prometheus' text parser.
func scrape(t testing.TB, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s", url, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse %s: %v", url, err)
	}
	return fams
}

// sample sums the counter, gauge or histogram count of fam over the series
// whose labels include want.
func sample(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	fam, ok := fams[name]
	if !ok {
		return 0, false
	}
	sum, found := 0.0, false
next:
	for _, m := range fam.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if labels[k] != v {
				continue next
			}
		}
		found = true
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum, found
}

// TestMetricsAfterGame plays a challenge and four moves through the real
// binary (`tankbot serve`, the fake Discord, a SQLite file), then scrapes
// /metrics and checks that the counters and histograms moved by what the
// game did.
func TestMetricsAfterGame(t *testing.T) {
	w := newBBWorld(t, filepath.Join(t.TempDir(), "metrics.db"))
	p := w.start()
	before := scrape(t, p.ops+"/metrics")
	if n, _ := sample(before, "tankbot_moves_total", nil); n != 0 {
		t.Fatalf("moves before the game: %v", n)
	}
	// Known series exist at zero on a fresh instance.
	for _, c := range []struct {
		name   string
		labels map[string]string
	}{
		{"tankbot_moves_total", map[string]string{"game": "tank"}},
		{"tankbot_moves_total", map[string]string{"game": "gungi"}},
		{"tankbot_interactions_total", map[string]string{"command": "challenge", "outcome": "answered"}},
		{"tankbot_interactions_total", map[string]string{"command": "move", "outcome": "failed"}},
	} {
		if v, ok := sample(before, c.name, c.labels); !ok || v != 0 {
			t.Errorf("fresh instance: %s%v = %v (listed %v), want listed at 0", c.name, c.labels, v, ok)
		}
	}
	// Health and metrics are on the operations listener only.
	for _, path := range []string{"/metrics", "/readyz", "/healthz"} {
		resp, err := http.Get(p.base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("public listener %s: %s, want 404", path, resp.Status)
		}
	}
	alice, bob := bbUser{"710000000000000011", "alice"}, bbUser{"710000000000000012", "bob"}
	const channel = "720000000000000011"
	chFrom, chEv := w.f.Count(), w.slash(alice, channel, "challenge", "opponent", bob, "game", "gungi", "color", "white", "thread", false)
	code, resp, err := w.post(p, chEv)
	if err != nil || !answered(code) {
		t.Fatalf("challenge: %d %v\n%s", code, err, p.logs.String())
	}
	w.accept(t, p, channel, w.answerOf(t, chFrom, chEv, resp), bob)
	// Black places first in Gungi; "ready" ends each side's draft.
	for i, mv := range []struct {
		who bbUser
		mv  string
	}{{bob, "M*a9"}, {alice, "M*e1"}, {bob, "ready"}, {alice, "ready"}} {
		from := w.f.Count()
		ev := w.slash(mv.who, channel, "move", "move", mv.mv)
		code, resp, err := w.post(p, ev)
		if err != nil || !answered(code) {
			t.Fatalf("move %d: %d %v", i+1, code, err)
		}
		if d, _ := resp["data"].(map[string]any); !deferred(resp) && d != nil && int(num(d["flags"]))&64 != 0 {
			t.Fatalf("move %d %q refused: %v", i+1, mv.mv, resp)
		}
		if _, ok := w.board(from, ev["token"].(string), channel, eventWait); !ok {
			t.Fatalf("move %d: no board\n%s", i+1, p.logs.String())
		}
	}
	// The last reply's metrics are recorded just after it is sent.
	var after map[string]*dto.MetricFamily
	for deadline := time.Now().Add(eventWait); ; time.Sleep(20 * time.Millisecond) {
		after = scrape(t, p.ops+"/metrics")
		if n, _ := sample(after, "tankbot_interactions_total", map[string]string{"command": "move"}); n == 4 || time.Now().After(deadline) {
			break
		}
	}
	check := func(name string, labels map[string]string, ok func(float64) bool, want string) {
		t.Helper()
		v, found := sample(after, name, labels)
		if !found || !ok(v) {
			t.Errorf("%s%v = %v (found %v), want %s", name, labels, v, found, want)
		}
	}
	eq := func(n float64) func(float64) bool { return func(v float64) bool { return v == n } }
	atLeast := func(n float64) func(float64) bool { return func(v float64) bool { return v >= n } }
	check("tankbot_moves_total", map[string]string{"game": "gungi"}, eq(4), "4")
	check("tankbot_interactions_total", map[string]string{"command": "move"}, eq(4), "4")
	check("tankbot_interactions_total", map[string]string{"command": "challenge"}, eq(1), "1")
	check("tankbot_interactions_total", map[string]string{"command": "component:c:accept"}, eq(1), "1")
	check("tankbot_interaction_first_answer_seconds", map[string]string{"command": "move"}, eq(4), "4 observations")
	check("tankbot_interaction_duration_seconds", map[string]string{"command": "move"}, eq(4), "4 observations")
	check("tankbot_renders_total", map[string]string{"game": "gungi"}, atLeast(5), "a board per move and the first")
	check("tankbot_render_seconds", map[string]string{"game": "gungi"}, atLeast(5), "5+ observations")
	check("tankbot_active_games", nil, eq(1), "1")
	check("tankbot_outbox_depth", nil, atLeast(0), "present")
	check("tankbot_store_stats_up", nil, eq(1), "1")
	check("tankbot_discord_requests_total", map[string]string{"method": "PUT", "route": "/applications/:id/commands", "status": "200"}, eq(1), "the registration")
	check("tankbot_discord_requests_total", map[string]string{"route": "/webhooks/:id/:token/messages/@original"}, atLeast(1), "edits of the original answers")
	check("tankbot_discord_request_duration_seconds", nil, atLeast(2), "observations")
	check("go_goroutines", nil, atLeast(1), "the Go runtime")
	// Histograms are histograms, with Discord's 3 s mark among the buckets.
	h := after["tankbot_interaction_first_answer_seconds"]
	if h == nil || h.GetType() != dto.MetricType_HISTOGRAM {
		t.Fatalf("first answer is %v", h)
	}
	has3 := false
	for _, b := range h.GetMetric()[0].GetHistogram().GetBucket() {
		has3 = has3 || b.GetUpperBound() == 3
	}
	if !has3 {
		t.Error("no 3-second bucket in the first-answer histogram")
	}
	// No token in any label.
	for name, fam := range after {
		for _, m := range fam.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), "bbtok") || strings.Contains(l.GetValue(), "SECRET") {
					t.Errorf("%s has a token in %s=%q", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
}
