// Package metrics holds tankbot's Prometheus collectors (names in
// docs/operations.md, used by deploy/grafana-dashboard.json) and the small
// helpers the call sites use to feed them: one line at each site. The
// collectors are process-wide, like the process they describe; Registry
// holds them with the Go runtime and process collectors, and Handler serves
// it as /metrics.
package metrics

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tankbot/tankbot/store"
)

// Registry holds every tankbot collector.
var Registry = prometheus.NewRegistry()

// latencyBuckets span Discord's 3-second first-answer window and the
// 15-minute interaction token, in seconds.
var latencyBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 1.5, 2, 2.5, 3, 5, 10, 30, 60}

var (
	Interactions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tankbot_interactions_total",
		Help: "Interactions handled, by command (slash command, or component:<prefix>:<action>) and outcome (answered, deferred, failed).",
	}, []string{"command", "outcome"})
	FirstAnswer = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tankbot_interaction_first_answer_seconds",
		Help:    "Time from receiving an interaction to Discord accepting its first response (answer or defer); Discord allows 3 s.",
		Buckets: latencyBuckets,
	}, []string{"command"})
	Handling = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tankbot_interaction_duration_seconds",
		Help:    "Time from receiving an interaction to its last reply sent (full handling).",
		Buckets: latencyBuckets,
	}, []string{"command"})
	Routes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tankbot_route_requests_total",
		Help: "Requests the router handled, by route (slash command, or component:<prefix>:<action>) and result (ok, refused, failed).",
	}, []string{"route", "result"})
	RouteTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tankbot_route_duration_seconds",
		Help:    "Time the router took for a request, middleware and handler (the transport's sending not included), by route.",
		Buckets: latencyBuckets,
	}, []string{"route"})
	Moves = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tankbot_moves_total",
		Help: "Moves committed, by game (tank, camelot, gungi).",
	}, []string{"game"})
	DiscordRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tankbot_discord_requests_total",
		Help: "Discord REST calls, by route (ids replaced by :id, tokens by :token) and HTTP status (or \"error\" when no response came).",
	}, []string{"method", "route", "status"})
	DiscordLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tankbot_discord_request_duration_seconds",
		Help:    "Discord REST call time, by method and route.",
		Buckets: latencyBuckets,
	}, []string{"method", "route"})
	SchedulerLag = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "tankbot_scheduler_lag_seconds",
		Help:    "How late scheduled events (clock flags, reminders, expiries) fire after their due time.",
		Buckets: []float64{.1, .25, .5, 1, 2, 5, 10, 30, 60, 300, 900},
	})
	Renders = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tankbot_renders_total",
		Help: "Board images drawn, by game.",
	}, []string{"game"})
	RenderTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tankbot_render_seconds",
		Help:    "Time to draw one board image, by game.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"game"})
	AIThink = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tankbot_ai_think_seconds",
		Help:    "Computer opponent's search time per move, by game.",
		Buckets: []float64{.01, .05, .1, .25, .5, 1, 2, 5, 10, 30},
	}, []string{"game"})
	// AIMove is what the level's time cap promises (docs/ai.md): the whole
	// computer move, search, notation and the stored move included.
	AIMove = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tankbot_ai_move_seconds",
		Help:    "Computer opponent's whole move, from its turn (after waiting for a search slot) to the move stored, by game.",
		Buckets: []float64{.05, .1, .25, .5, 1, 1.2, 1.5, 2, 5, 10},
	}, []string{"game"})
	DBErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tankbot_db_errors_total",
		Help: "Database operations that failed (not counting not-found and stale-ply answers), by operation.",
	}, []string{"op"})
	DBRetries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tankbot_db_retries_total",
		Help: "Writes retried after a concurrent change (stale ply or revision), by operation.",
	}, []string{"op"})
)

func init() {
	Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		Interactions, FirstAnswer, Handling, Routes, RouteTime, Moves, DiscordRequests, DiscordLatency,
		SchedulerLag, Renders, RenderTime, AIThink, AIMove, DBErrors, DBRetries,
	)
}

// Outcomes are the outcome label's values of tankbot_interactions_total.
var Outcomes = []string{"answered", "deferred", "failed"}

// InitKnown creates the known series of the labelled counters at zero
// (every slash command with every outcome, every game's moves), so a fresh
// instance's /metrics lists them and rates and alerts have a series to
// work on before the first event (Prometheus: initialise known series).
func InitKnown(commands, games []string) {
	for _, c := range commands {
		for _, o := range Outcomes {
			Interactions.WithLabelValues(c, o).Add(0)
		}
	}
	for _, g := range games {
		Moves.WithLabelValues(g).Add(0)
	}
}

// Handler serves the registry in the Prometheus text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(Registry, promhttp.HandlerOpts{Registry: Registry})
}

// Interaction records one handled interaction: its first answer's latency
// (firstAt zero: none reached Discord) and its full handling time.
func Interaction(name, customID string, received, firstAt time.Time, deferred, failed bool) {
	cmd := CommandLabel(name, customID)
	outcome := Outcomes[0]
	switch {
	case failed:
		outcome = Outcomes[2]
	case deferred:
		outcome = Outcomes[1]
	}
	Interactions.WithLabelValues(cmd, outcome).Inc()
	if !firstAt.IsZero() {
		FirstAnswer.WithLabelValues(cmd).Observe(firstAt.Sub(received).Seconds())
	}
	Handling.WithLabelValues(cmd).Observe(time.Since(received).Seconds())
}

// The result label's values of tankbot_route_requests_total.
const (
	RouteOK      = "ok"
	RouteRefused = "refused"
	RouteFailed  = "failed" // an error or a panic
)

// Routed records one request the router handled: its route
// (CommandLabel), result (RouteOK, RouteRefused or RouteFailed) and
// time taken.
func Routed(route, result string, took time.Duration) {
	Routes.WithLabelValues(route, result).Inc()
	RouteTime.WithLabelValues(route).Observe(took.Seconds())
}

// CommandLabel names an interaction for the labels with few values: the
// slash command, or for a component or modal "component:" with its custom
// id's first field and its last field when that is a word (the ids and
// numbers between are left out: "g:42:17:resign" is component:g:resign).
func CommandLabel(name, customID string) string {
	if name != "" {
		return name
	}
	if customID == "" {
		return "unknown"
	}
	parts := strings.Split(customID, ":")
	label := "component:" + word(parts[0])
	if last := parts[len(parts)-1]; len(parts) > 1 && word(last) == last {
		label += ":" + last
	}
	return label
}

// word keeps s when it is a short lowercase word (no ids, no user text).
func word(s string) string {
	if s == "" || len(s) > 24 {
		return "other"
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '-' && r != '_' {
			return "other"
		}
	}
	return s
}

// Since observes the seconds since start on h; for a deferred call:
// defer metrics.Since(metrics.RenderTime.WithLabelValues(game), time.Now()).
func Since(h prometheus.Observer, start time.Time) { h.Observe(time.Since(start).Seconds()) }

// Render draws through draw, timing it and counting the images made.
func Render(game string, draw func() ([]byte, error)) ([]byte, error) {
	start := time.Now()
	png, err := draw()
	if err == nil && len(png) > 0 {
		Renders.WithLabelValues(game).Inc()
		RenderTime.WithLabelValues(game).Observe(time.Since(start).Seconds())
	}
	return png, err
}

// DBError counts a failed database operation and returns err unchanged.
// Answers that are part of normal work (not found, a stale ply, a
// cancelled request) are not failures.
func DBError(op string, err error) error {
	if err != nil && !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrStalePly) && !errors.Is(err, context.Canceled) {
		DBErrors.WithLabelValues(op).Inc()
	}
	return err
}
