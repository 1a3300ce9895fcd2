package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/store"
)

const loadtestSummary = "play N games at once from M real `serve` instances against a fake Discord that enforces its limits, and measure"

// loadOptions are loadtest's flags.
type loadOptions struct {
	games, instances, moves int
	db                      string
	globalLimit             bool
	restDelay               time.Duration
	faults                  float64 // percent of REST calls failed
	seed                    uint64
	boardWait, drain        time.Duration
	json                    bool
}

func runLoadtest(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("loadtest")
	var o loadOptions
	fs.IntVar(&o.games, "games", 100, "`N` games played at once")
	fs.IntVar(&o.instances, "instances", 3, "`M` serve instances (child processes of this binary), each interaction sent to a random one")
	fs.IntVar(&o.moves, "moves", 10, "`PLIES` played in each game")
	fs.StringVar(&o.db, "db", "", "an empty PostgreSQL database's postgres:// `URL` (default: a new SQLite file in a temporary directory)")
	limit := fs.String("global-limit", "on", "`on`: the fake answers 429 beyond Discord's 50 requests/s per bot token; off: no limit")
	fs.DurationVar(&o.restDelay, "rest-delay", 0, "delay every REST call that is not an interaction route (callback, webhook) by `DURATION`, e.g. 2s")
	fs.Float64Var(&o.faults, "faults", 0, "fail `PCT` percent of the REST calls while the moves are played: a 5xx answer, a connection dropped before Discord got the request, or one dropped after it did")
	fs.Uint64Var(&o.seed, "seed", 1, "`SEED` of the moves and of the faults")
	fs.DurationVar(&o.boardWait, "board-wait", 30*time.Second, "wait at most `DURATION` for the board of a move before moving on")
	fs.DurationVar(&o.drain, "drain", 30*time.Second, "after the last move, wait at most `DURATION` for late boards, pings and the outbox")
	fs.BoolVar(&o.json, "json", false, "print the figures as one JSON object")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch *limit {
	case "on":
		o.globalLimit = true
	case "off":
	default:
		return usageErrorf(fs, "--global-limit %q: want on or off", *limit)
	}
	switch {
	case o.games < 1:
		return usageErrorf(fs, "--games %d: want at least 1", o.games)
	case o.instances < 1 || o.instances > 64:
		return usageErrorf(fs, "--instances %d: want 1 to 64", o.instances)
	case o.moves < 1:
		return usageErrorf(fs, "--moves %d: want at least 1", o.moves)
	case o.faults < 0 || o.faults > 100:
		return usageErrorf(fs, "--faults %g: want a percentage from 0 to 100", o.faults)
	case o.restDelay < 0 || o.boardWait <= 0 || o.drain < 0:
		return usageErrorf(fs, "--rest-delay, --board-wait and --drain must not be negative (--board-wait above 0)")
	case o.db != "" && !store.IsPostgres(o.db):
		return usageErrorf(fs, "--db %q: want a postgres:// URL (the default is a new SQLite file)", store.RedactDSN(o.db))
	}
	rep, err := loadtest(o, stderr)
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.print(stdout)
	return nil
}

// loadReport is what a load run measured.
type loadReport struct {
	Games       int     `json:"games"`
	Instances   int     `json:"instances"`
	Plies       int     `json:"plies_per_game"`
	Database    string  `json:"database"`
	GlobalLimit bool    `json:"global_limit"`
	RESTDelayMs float64 `json:"rest_delay_ms"`
	FaultsPct   float64 `json:"faults_pct"`
	Seed        uint64  `json:"seed"`
	CPUs        int     `json:"cpus"`
	LoadBefore  string  `json:"loadavg_before"` // /proc/loadavg when it started
	LoadAfter   string  `json:"loadavg_after"`

	Moves          int     `json:"moves"` // played: committed, answered or not
	Seconds        float64 `json:"seconds"`
	MovesPerSecond float64 `json:"moves_per_second"`
	// Latency in ms from the signed POST sent: to its answer received (the
	// body of the POST, or the callback), and to the board visible.
	AnswerP50 float64 `json:"answer_p50_ms"`
	AnswerP99 float64 `json:"answer_p99_ms"`
	Deferred  int     `json:"deferred_answers"` // answers that were "thinking…" (type 5)
	BoardP50  float64 `json:"board_p50_ms"`
	BoardP99  float64 `json:"board_p99_ms"`

	// REST calls the instances made from the first move on: with the bot
	// token on routes under the global limit, and on the interaction
	// routes (callback, webhook) that Discord leaves out of it.
	BotTokenRequests    int64   `json:"bot_token_requests"`
	InteractionRequests int64   `json:"interaction_requests"`
	BotTokenPerMove     float64 `json:"bot_token_requests_per_move"`
	// BotTokenRoutes counts those by method and route ("PATCH
	// /channels/{id}/messages/{id}").
	BotTokenRoutes map[string]int64 `json:"bot_token_routes"`
	Received429    int64            `json:"429_received"`
	GlobalRefused  int              `json:"global_429"` // of those, the global limit's
	FaultsInjected int64            `json:"faults_injected"`

	// What players saw go wrong: interactions that failed (no answer in
	// 3 s, an error status), moves that never went through.
	InteractionFailures int `json:"interaction_failures"`
	UnansweredMoves     int `json:"unanswered_moves"` // moves played whose every interaction failed
	GameErrors          int `json:"game_errors"`
	LateBoards          int `json:"late_boards"` // not visible within --board-wait
	Lost                struct {
		Boards int `json:"boards"` // moves played whose board never arrived
		Pings  int `json:"pings"`  // … whose ping of the next player never arrived
		Store  int `json:"store"`  // moves played missing from the store
		Total  int `json:"total"`
	} `json:"lost"`
	Doubled struct {
		Boards int `json:"boards"` // moves with more than one board message
		Store  int `json:"store"`  // moves the store has that no one acknowledged or played
	} `json:"doubled"`
	// Outbox posts (button strips, fallback pings) still pending when the
	// drain ended, and given up.
	Outbox struct {
		Pending int `json:"pending"`
		GivenUp int `json:"given_up"`
	} `json:"outbox"`
	ErrorsLogged int      `json:"errors_logged"` // level=ERROR lines of the instances
	ErrorSamples []string `json:"error_samples"` // one line per distinct message, first ones
	Errors       []string `json:"errors"`        // games not created or stopped, first ones
	FakeErrors   []string `json:"fake_errors"`   // protocol mistakes the fake Discord saw
}

func (r *loadReport) print(w io.Writer) {
	onOff := map[bool]string{true: "on", false: "off"}
	fmt.Fprintf(w, "tankbot loadtest: %d games × %d plies, %d instances, %s, global limit %s, REST delay %v, faults %g%%, seed %d\n",
		r.Games, r.Plies, r.Instances, r.Database, onOff[r.GlobalLimit], time.Duration(r.RESTDelayMs*float64(time.Millisecond)), r.FaultsPct, r.Seed)
	fmt.Fprintf(w, "  machine             %d CPUs, load average before %s, after %s\n", r.CPUs, r.LoadBefore, r.LoadAfter)
	fmt.Fprintf(w, "  moves               %d in %.1f s = %.1f moves/s\n", r.Moves, r.Seconds, r.MovesPerSecond)
	fmt.Fprintf(w, "  answer latency      p50 %.0f ms, p99 %.0f ms (POST sent → answer received; %d of the answers were \"thinking…\")\n", r.AnswerP50, r.AnswerP99, r.Deferred)
	fmt.Fprintf(w, "  board latency       p50 %.0f ms, p99 %.0f ms (POST sent → board visible)\n", r.BoardP50, r.BoardP99)
	fmt.Fprintf(w, "  bot-token requests  %d = %.3f per move (interaction routes: %d)\n", r.BotTokenRequests, r.BotTokenPerMove, r.InteractionRequests)
	routes := make([]string, 0, len(r.BotTokenRoutes))
	for k := range r.BotTokenRoutes {
		routes = append(routes, k)
	}
	sort.Strings(routes)
	for _, k := range routes {
		fmt.Fprintf(w, "    %6d %s\n", r.BotTokenRoutes[k], k)
	}
	fmt.Fprintf(w, "  429 received        %d (global: %d)\n", r.Received429, r.GlobalRefused)
	fmt.Fprintf(w, "  faults injected     %d\n", r.FaultsInjected)
	fmt.Fprintf(w, "  player-visible      %d failed interactions (%d of their moves stood), %d games stopped by an error, %d boards later than the wait\n", r.InteractionFailures, r.UnansweredMoves, r.GameErrors, r.LateBoards)
	fmt.Fprintf(w, "  lost                %d (boards %d, pings %d, moves missing from the store %d)\n", r.Lost.Total, r.Lost.Boards, r.Lost.Pings, r.Lost.Store)
	fmt.Fprintf(w, "  doubled             boards %d, store %d\n", r.Doubled.Boards, r.Doubled.Store)
	fmt.Fprintf(w, "  outbox at the end   %d pending, %d given up\n", r.Outbox.Pending, r.Outbox.GivenUp)
	fmt.Fprintf(w, "  errors logged       %d by the instances; %d protocol errors seen by the fake Discord\n", r.ErrorsLogged, len(r.FakeErrors))
	for _, e := range r.ErrorSamples {
		fmt.Fprintf(w, "    logged: %s\n", e)
	}
	for _, e := range r.FakeErrors {
		fmt.Fprintf(w, "    fake Discord: %s\n", e)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "    %s\n", e)
	}
}

// loadtest runs one load run; progress goes to logw.
func loadtest(o loadOptions, logw io.Writer) (*loadReport, error) {
	rep := &loadReport{Games: o.games, Instances: o.instances, Plies: o.moves, GlobalLimit: o.globalLimit,
		RESTDelayMs: float64(o.restDelay) / float64(time.Millisecond), FaultsPct: o.faults, Seed: o.seed,
		CPUs: runtime.NumCPU(), LoadBefore: loadAverage(), FakeErrors: []string{}, Errors: []string{}, ErrorSamples: []string{}}
	var errMu sync.Mutex
	runError := func(format string, args ...any) {
		errMu.Lock()
		defer errMu.Unlock()
		if len(rep.Errors) < 20 {
			rep.Errors = append(rep.Errors, fmt.Sprintf(format, args...))
		}
	}
	bin, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this binary: %w", err)
	}
	db := o.db
	rep.Database = "postgres"
	if db == "" {
		dir, err := os.MkdirTemp("", "tankbot-loadtest-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		db = filepath.Join(dir, "load.db")
		rep.Database = "sqlite"
	}
	tb := &harnessTB{}
	defer tb.cleanup()
	f := discordtest.New(tb, bbApp)
	f.DiscardFiles = true // thousands of boards: keep their sizes only
	if o.globalLimit {
		f.SetGlobalLimit(discordtest.DiscordGlobalLimit)
	}
	link, err := newDiscordLink(f.URL(), o)
	if err != nil {
		return nil, err
	}
	defer link.close()
	w, err := newFleet(bin, db, f)
	if err != nil {
		return nil, err
	}
	w.restURL = link.url
	// Fresh ids every run, so that a reused PostgreSQL database holds no
	// game in the run's channels and no interaction id seen before.
	base := time.Now().Unix() % 1_000_000 * 1_000_000
	w.n.Store(base)

	// The instances: the first alone (it migrates the database), then the
	// others at once.
	logf := func(format string, args ...any) { fmt.Fprintf(logw, "loadtest: "+format+"\n", args...) }
	logf("starting %d serve instances on %s", o.instances, rep.Database)
	procs := make([]*serveProc, o.instances)
	defer func() {
		var wg sync.WaitGroup
		for _, p := range procs {
			if p != nil {
				wg.Add(1)
				go func() { defer wg.Done(); p.stop() }()
			}
		}
		wg.Wait()
	}()
	if procs[0], err = w.startServe(); err != nil {
		return nil, err
	}
	var startErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for k := 1; k < len(procs); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := w.startServe()
			mu.Lock()
			defer mu.Unlock()
			procs[k] = p
			if err != nil && startErr == nil {
				startErr = err
			}
		}()
	}
	wg.Wait()
	if startErr != nil {
		return nil, startErr
	}

	d, err := newFleetDriver(w, procs, db, o.games, runError)
	if err != nil {
		return nil, err
	}
	defer d.st.Close()
	d.tolerant, d.boardWait = true, o.boardWait
	d.next.Store(base)

	// The games: challenged and accepted before the clock of the run
	// starts, without delays or faults.
	logf("creating %d games", o.games)
	all := make([]*mgame, o.games)
	var created []*mgame
	for i := range all {
		all[i] = &mgame{rng: rand.New(rand.NewPCG(o.seed, uint64(i)))}
		wg.Add(1)
		go func(g *mgame) {
			defer wg.Done()
			if err := d.create(g, "tank", "30m"); err != nil {
				runError("creating a game: %v", err)
				return
			}
			mu.Lock()
			created = append(created, g)
			mu.Unlock()
		}(all[i])
	}
	wg.Wait()
	if len(created) == 0 {
		return nil, fmt.Errorf("no game could be created: %v", rep.Errors)
	}

	// The moves: every game at once, each as fast as its players get
	// their boards.
	logf("playing %d plies in each of %d games", o.moves, len(created))
	from := f.Count()
	link.active.Store(true)
	start := time.Now()
	var gameErrors atomic.Int32
	for _, g := range created {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < o.moves; k++ {
				if err := d.move(g); err != nil {
					gameErrors.Add(1)
					runError("%v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	// Late boards and pings (the outbox's retries) may still come; then
	// the REST calls settle.
	logf("moves done in %v; waiting up to %v for late messages", elapsed.Round(time.Millisecond), o.drain)
	deadline := time.Now().Add(o.drain)
	var lost lostMessages
	for {
		lost = checkDelivery(f, d.moves, from)
		if lost.boards+lost.pings == 0 && outboxPending(d.st) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	for link.lastRequestAgo() < time.Second && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	link.active.Store(false)
	if entries, err := d.st.Outbox(context.Background()); err == nil {
		for _, e := range entries {
			switch e.State {
			case store.OutboxPending:
				rep.Outbox.Pending++
			case store.OutboxFailed:
				rep.Outbox.GivenUp++
			}
		}
	}

	rep.Moves = len(d.moves)
	rep.Seconds = elapsed.Seconds()
	rep.MovesPerSecond = float64(rep.Moves) / elapsed.Seconds()
	ms := func(d time.Duration) float64 { return float64(d.Round(time.Millisecond)) / float64(time.Millisecond) }
	answers := sortedDurations(d.answers)
	boards := sortedDurations(d.latencies)
	rep.AnswerP50, rep.AnswerP99 = ms(percentile(answers, 0.5)), ms(percentile(answers, 0.99))
	rep.BoardP50, rep.BoardP99 = ms(percentile(boards, 0.5)), ms(percentile(boards, 0.99))
	rep.BotTokenRequests, rep.InteractionRequests = link.botToken.Load(), link.interaction.Load()
	rep.BotTokenRoutes = link.routes()
	if rep.Moves > 0 {
		rep.BotTokenPerMove = float64(rep.BotTokenRequests) / float64(rep.Moves)
	}
	rep.Received429 = link.limited.Load()
	rep.GlobalRefused = f.GlobalRefused()
	rep.FaultsInjected = link.faults.Load()
	rep.InteractionFailures, rep.Deferred = d.failures, d.deferrals
	for _, m := range d.moves {
		if m.answered < 0 {
			rep.UnansweredMoves++
		}
	}
	rep.GameErrors = int(gameErrors.Load())
	rep.LateBoards = d.late
	rep.Lost.Boards, rep.Lost.Pings = lost.boards, lost.pings
	rep.Doubled.Boards = lost.doubled

	// Stop the instances, then read the store: every move played at its
	// ply, nothing more.
	seen := map[string]bool{}
	for _, p := range procs {
		p.stop()
		for _, line := range strings.Split(p.logs.String(), "\n") {
			if !strings.Contains(line, "level=ERROR") {
				continue
			}
			rep.ErrorsLogged++
			m := logMsgRx.FindString(line)
			if !seen[m] && len(rep.ErrorSamples) < 5 {
				seen[m] = true
				rep.ErrorSamples = append(rep.ErrorSamples, line[:min(len(line), 400)])
			}
		}
	}
	ctx := context.Background()
	for _, g := range created {
		moves, err := d.st.Moves(ctx, g.id)
		if err != nil {
			return nil, fmt.Errorf("reading game %d: %w", g.id, err)
		}
		for k, mv := range g.played {
			if k >= len(moves) || moves[k].Notation != mv {
				rep.Lost.Store++
			}
		}
		rep.Doubled.Store += max(0, len(moves)-len(g.played))
	}
	rep.Lost.Total = rep.Lost.Boards + rep.Lost.Pings + rep.Lost.Store
	rep.FakeErrors = append(rep.FakeErrors, tb.errors()...)
	rep.LoadAfter = loadAverage()
	return rep, nil
}

// outboxPending counts the outbox posts not yet done (-1: unknown).
func outboxPending(st *store.Store) int {
	entries, err := st.Outbox(context.Background())
	if err != nil {
		return -1
	}
	n := 0
	for _, e := range entries {
		if e.State == store.OutboxPending {
			n++
		}
	}
	return n
}

func sortedDurations(in []time.Duration) []time.Duration {
	out := append([]time.Duration(nil), in...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// loadAverage is /proc/loadavg's three figures ("" where there is none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// lostMessages counts acknowledged moves whose board or ping is missing,
// and moves with more than one board.
type lostMessages struct{ boards, pings, doubled int }

// checkDelivery looks through the fake's calls from index from on for each
// move's board (a new public message with files, by its interaction or in
// its channel) and for a new public message that pings the next player.
// A channel post counts for a move when it came before the game's next
// move was sent or names the move.
func checkDelivery(f *discordtest.Fake, moves []moveRecord, from int) lostMessages {
	calls := f.CallsFrom(from)
	type posted struct {
		idx int
		c   *discordtest.Call
	}
	byToken := map[string][]posted{}
	byChannel := map[string][]posted{}
	for k, c := range calls {
		if c.Status >= 300 || c.Deduped || !c.Created || c.Ephemeral {
			continue
		}
		p := strings.Split(strings.TrimPrefix(c.Path, "/api/v9/"), "/")
		switch {
		case len(p) == 4 && p[0] == "interactions":
			byToken[p[2]] = append(byToken[p[2]], posted{from + k, c})
		case len(p) == 3 && p[0] == "webhooks":
			byToken[p[2]] = append(byToken[p[2]], posted{from + k, c})
		case len(p) == 3 && p[0] == "channels" && p[2] == "messages":
			byChannel[p[1]] = append(byChannel[p[1]], posted{from + k, c})
		}
	}
	// The next move of the same game bounds which channel posts are a
	// move's.
	nextFrom := make([]int, len(moves))
	last := map[*mgame]int{}
	order := make([]int, len(moves))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return moves[order[a]].from > moves[order[b]].from })
	for _, i := range order {
		m := moves[i]
		if n, ok := last[m.g]; ok {
			nextFrom[i] = n
		} else {
			nextFrom[i] = int(^uint(0) >> 1)
		}
		last[m.g] = m.from
	}
	var out lostMessages
	for i, m := range moves {
		var cands []posted
		for _, t := range m.tokens {
			cands = append(cands, byToken[t]...)
		}
		for _, p := range byChannel[m.g.ch] {
			content, _ := p.c.Payload["content"].(string)
			if p.idx >= m.from && (p.idx < nextFrom[i] || strings.Contains(content, m.mv)) {
				cands = append(cands, p)
			}
		}
		// A mover who moves again is not pinged.
		nBoards, pinged := 0, m.next == m.mover
		for _, p := range cands {
			if len(p.c.Files) > 0 {
				nBoards++
			}
			for _, u := range p.c.Notified {
				pinged = pinged || u == m.next.id
			}
		}
		switch {
		case nBoards == 0:
			out.boards++
		case nBoards > 1:
			out.doubled++
		}
		if !pinged {
			out.pings++
		}
	}
	return out
}

// discordLink is the network between the instances and the fake Discord:
// it forwards every REST call, counts them by route while active, and
// then delays the non-interaction ones and fails some (--rest-delay,
// --faults).
type discordLink struct {
	url    string
	target string
	srv    *http.Server
	client *http.Client
	delay  time.Duration
	pct    float64
	active atomic.Bool

	mu      sync.Mutex
	rng     *rand.Rand
	last    time.Time
	byRoute map[string]int64 // bot-token calls by method and route

	botToken, interaction, limited, faults atomic.Int64
}

func newDiscordLink(target string, o loadOptions) (*discordLink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &discordLink{url: "http://" + ln.Addr().String(), target: target, delay: o.restDelay, pct: o.faults,
		rng: rand.New(rand.NewPCG(o.seed, 24)), byRoute: map[string]int64{},
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: time.Minute}}
	l.srv = &http.Server{Handler: l, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

func (l *discordLink) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = l.srv.Shutdown(ctx)
}

// lastRequestAgo is the time since the last REST call.
func (l *discordLink) lastRequestAgo() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return time.Since(l.last)
}

// routes is a copy of the bot-token calls by route.
func (l *discordLink) routes() map[string]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]int64, len(l.byRoute))
	for k, v := range l.byRoute {
		out[k] = v
	}
	return out
}

// logMsgRx finds a log line's message (slog's text format).
var logMsgRx = regexp.MustCompile(`msg=("[^"]*"|\S+)`)

var idRx = regexp.MustCompile(`^\d+$`)

// routeOf is path without its version and with {id} for each id.
func routeOf(path string) string {
	p := strings.Split(strings.TrimPrefix(path, "/api/v9"), "/")
	for k := range p {
		if idRx.MatchString(p[k]) {
			p[k] = "{id}"
		}
	}
	return strings.Join(p, "/")
}

// interactionRoute tells the routes Discord leaves out of the global
// limit: the interaction callback and the interaction's webhook.
func interactionRoute(path string) bool {
	p := strings.TrimPrefix(path, "/api/v9/")
	return strings.HasPrefix(p, "interactions/") || strings.HasPrefix(p, "webhooks/")
}

// The kinds of injected fault.
const (
	faultNone = iota
	fault5xx
	faultDropBefore
	faultDropAfter
)

func (l *discordLink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	active := l.active.Load()
	exempt := interactionRoute(r.URL.Path)
	fault := faultNone
	if active {
		switch {
		case exempt:
			l.interaction.Add(1)
		case strings.HasPrefix(r.Header.Get("Authorization"), "Bot "):
			l.botToken.Add(1)
		}
		l.mu.Lock()
		if !exempt {
			l.byRoute[r.Method+" "+routeOf(r.URL.Path)]++
		}
		l.last = time.Now()
		if l.pct > 0 && l.rng.Float64()*100 < l.pct {
			fault = fault5xx + l.rng.IntN(3)
		}
		l.mu.Unlock()
		if fault != faultNone {
			l.faults.Add(1)
		}
		if !exempt && l.delay > 0 {
			select {
			case <-time.After(l.delay):
			case <-r.Context().Done():
				return
			}
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch fault {
	case fault5xx:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(`{"message": "502: Bad Gateway", "code": 0}`))
		return
	case faultDropBefore:
		hangUp(w)
		return
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, l.target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	req.Header = r.Header.Clone()
	resp, err := l.client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	if active && resp.StatusCode == http.StatusTooManyRequests {
		l.limited.Add(1)
	}
	if fault == faultDropAfter {
		// Discord did it; the answer is lost on the way back.
		hangUp(w)
		return
	}
	for k, vs := range resp.Header {
		if k != "Content-Length" {
			w.Header()[k] = vs
		}
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(out)
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// harnessTB is the discordtest.TB of a load run, outside a test: it
// collects the fake's errors for the report and runs its cleanups at the
// end.
type harnessTB struct {
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (h *harnessTB) Helper()             {}
func (h *harnessTB) Logf(string, ...any) {}
func (h *harnessTB) Errorf(format string, args ...any) {
	h.record(fmt.Sprintf(format, args...))
}
func (h *harnessTB) Fatalf(format string, args ...any) {
	h.record(fmt.Sprintf(format, args...))
}
func (h *harnessTB) Cleanup(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cleanups = append(h.cleanups, f)
}

func (h *harnessTB) record(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.errs = append(h.errs, s)
}

func (h *harnessTB) errors() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.errs...)
}

// cleanup runs the cleanups, last registered first.
func (h *harnessTB) cleanup() {
	h.mu.Lock()
	fs := h.cleanups
	h.cleanups = nil
	h.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
