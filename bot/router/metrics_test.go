package router

import (
	"context"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/metrics"
	"github.com/tankbot/tankbot/bot/view"
)

// stepClock moves on by step at every reading, so a request's time is
// the number of readings it spans, whatever the machine's speed.
type stepClock struct {
	t    time.Time
	step time.Duration
}

func (c *stepClock) Now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

// The metrics middleware counts every request by route and result and
// times it; the figures read back from the collectors.
func TestMetricsMiddleware(t *testing.T) {
	clk := &stepClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), step: 1500 * time.Millisecond}
	run := func(err error, boom bool) func(*app.Bot, context.Context, *app.Req) ([]view.Reply, error) {
		return func(*app.Bot, context.Context, *app.Req) ([]view.Reply, error) {
			if boom {
				panic("boom")
			}
			if err != nil {
				return nil, err
			}
			return []view.Reply{{Content: "done"}}, nil
		}
	}
	rt := newRouter(app.New(app.Config{}, nil, clk, nil, nil), []app.CommandDef{
		{Name: "mtest-ok", Run: run(nil, false)},
		{Name: "mtest-no", Run: run(app.Refuse("refuse.unknown"), false)},
		{Name: "mtest-boom", Run: run(nil, true)},
	})
	before := func(route, result string) float64 { return counted(t, route, result) }
	okBefore, noBefore, boomBefore := before("mtest-ok", "ok"), before("mtest-no", "refused"), before("mtest-boom", "failed")
	for _, name := range []string{"mtest-ok", "mtest-ok", "mtest-no", "mtest-boom"} {
		if rs := rt.Handle(t.Context(), app.Command{Kind: app.KindSlash, Name: name}); len(rs) != 1 {
			t.Fatalf("%s: %d replies", name, len(rs))
		}
	}
	for _, c := range []struct {
		route, result string
		from, want    float64
	}{
		{"mtest-ok", "ok", okBefore, 2},
		{"mtest-no", "refused", noBefore, 1},
		{"mtest-boom", "failed", boomBefore, 1},
		{"mtest-ok", "failed", 0, 0},
	} {
		if got := before(c.route, c.result) - c.from; got != c.want {
			t.Errorf("%s %s: %v requests counted, want %v", c.route, c.result, got, c.want)
		}
	}
	fams, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range fams {
		if f.GetName() != "tankbot_route_duration_seconds" {
			continue
		}
		for _, m := range f.GetMetric() {
			if len(m.GetLabel()) != 1 || m.GetLabel()[0].GetValue() != "mtest-ok" {
				continue
			}
			found = true
			// Two requests, each one clock step from start to end.
			if h := m.GetHistogram(); h.GetSampleCount() != 2 || h.GetSampleSum() != 3 {
				t.Errorf("mtest-ok timed %d times, %v s in all; want 2 and 3 s", h.GetSampleCount(), h.GetSampleSum())
			}
		}
	}
	if !found {
		t.Error("no tankbot_route_duration_seconds series for mtest-ok")
	}
}

// counted reads tankbot_route_requests_total{route, result} back from the
// registry (0: no such series).
func counted(t *testing.T, route, result string) float64 {
	t.Helper()
	fams, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "tankbot_route_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["route"] == route && labels["result"] == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
