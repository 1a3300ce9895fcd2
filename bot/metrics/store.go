package metrics

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// StoreStats are the gauges read from the database at scrape time.
type StoreStats struct {
	ActiveGames   int
	OutboxPending int
	OutboxOldest  time.Time // created time of the oldest pending entry; zero when none
}

// StatsFunc reads StoreStats (the store's Stats).
type StatsFunc func(ctx context.Context) (StoreStats, error)

var statsFn atomic.Pointer[StatsFunc]

// SetStoreStats makes scrapes read the database gauges through fn (nil: no
// database gauges). The last call wins: one store per process.
func SetStoreStats(fn StatsFunc) {
	if fn == nil {
		statsFn.Store(nil)
		return
	}
	statsFn.Store(&fn)
}

var (
	activeGamesDesc = prometheus.NewDesc("tankbot_active_games", "Games in progress.", nil, nil)
	outboxDepthDesc = prometheus.NewDesc("tankbot_outbox_depth", "Messages waiting in the outbox to be sent to Discord.", nil, nil)
	outboxAgeDesc   = prometheus.NewDesc("tankbot_outbox_oldest_age_seconds", "Age of the oldest message waiting in the outbox (0 when empty).", nil, nil)
	statsUpDesc     = prometheus.NewDesc("tankbot_store_stats_up", "1 when the database gauges could be read at this scrape.", nil, nil)
)

// storeCollector asks the database at each scrape, bounded in time.
type storeCollector struct{ now func() time.Time }

func (storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- activeGamesDesc
	ch <- outboxDepthDesc
	ch <- outboxAgeDesc
	ch <- statsUpDesc
}

func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	fn := statsFn.Load()
	if fn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st, err := (*fn)(ctx)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(statsUpDesc, prometheus.GaugeValue, 0)
		return
	}
	age := 0.0
	if !st.OutboxOldest.IsZero() {
		age = max(0, c.now().Sub(st.OutboxOldest).Seconds())
	}
	ch <- prometheus.MustNewConstMetric(statsUpDesc, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(activeGamesDesc, prometheus.GaugeValue, float64(st.ActiveGames))
	ch <- prometheus.MustNewConstMetric(outboxDepthDesc, prometheus.GaugeValue, float64(st.OutboxPending))
	ch <- prometheus.MustNewConstMetric(outboxAgeDesc, prometheus.GaugeValue, age)
}

func init() { Registry.MustRegister(storeCollector{now: time.Now}) }

var gatewayFn atomic.Pointer[func() bool]

// SetGateway makes scrapes report tankbot_gateway_connected from fn (the
// adapter's Connected; nil: not reported, as for `serve`).
func SetGateway(fn func() bool) {
	if fn == nil {
		gatewayFn.Store(nil)
		return
	}
	gatewayFn.Store(&fn)
}

var gatewayDesc = prometheus.NewDesc("tankbot_gateway_connected", "1 while the Discord gateway connection is up (run only).", nil, nil)

type gatewayCollector struct{}

func (gatewayCollector) Describe(ch chan<- *prometheus.Desc) { ch <- gatewayDesc }

func (gatewayCollector) Collect(ch chan<- prometheus.Metric) {
	fn := gatewayFn.Load()
	if fn == nil {
		return
	}
	v := 0.0
	if (*fn)() {
		v = 1
	}
	ch <- prometheus.MustNewConstMetric(gatewayDesc, prometheus.GaugeValue, v)
}

func init() { Registry.MustRegister(gatewayCollector{}) }
