package web

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

// Live updates: one poller per instance reads, every Poll, the revision of
// every game someone watches here (one query for all of them), so a move
// made by any instance sharing the database reaches every viewer within
// about one poll. A changed game is read once and its update built once
// per language, then handed to its viewers' streams.

// snapshot is a game's update as pushed to its pages, per language.
type snapshot struct {
	rev  int64
	over bool
	gone bool              // the page closed (links turned off): streams end
	data map[string][]byte // language → JSON
}

type watched struct {
	token string
	rev   int64
	snap  *snapshot
	subs  map[chan struct{}]struct{}
}

type hub struct {
	s     *Server
	mu    sync.Mutex
	games map[int64]*watched
	done  chan struct{}
	once  sync.Once
	start sync.Once
}

func newHub(s *Server) *hub {
	return &hub{s: s, games: map[int64]*watched{}, done: make(chan struct{})}
}

func (h *hub) close() { h.once.Do(func() { close(h.done) }) }

// viewers counts the open live streams.
func (h *hub) viewers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, w := range h.games {
		n += len(w.subs)
	}
	return n
}

// subscribe adds a stream to game g's viewers; the channel is signalled
// (never blocking, coalescing) when the game's snapshot changes.
func (h *hub) subscribe(g *game, snap *snapshot) (chan struct{}, func()) {
	h.start.Do(func() { go h.poll() })
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	w := h.games[g.ID]
	if w == nil {
		w = &watched{token: g.token, rev: snap.rev, snap: snap, subs: map[chan struct{}]struct{}{}}
		h.games[g.ID] = w
	}
	w.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(w.subs, ch)
		if len(w.subs) == 0 && h.games[g.ID] == w {
			delete(h.games, g.ID)
		}
		h.mu.Unlock()
	}
}

func (h *hub) current(id int64) *snapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	if w := h.games[id]; w != nil {
		return w.snap
	}
	return nil
}

// poll runs until close.
func (h *hub) poll() {
	t := time.NewTicker(h.s.opt.Poll)
	defer t.Stop()
	for {
		select {
		case <-h.done:
			return
		case <-t.C:
		}
		h.tick()
	}
}

func (h *hub) tick() {
	h.mu.Lock()
	ids := make([]int64, 0, len(h.games))
	for id := range h.games {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	revs, err := h.s.st.GameRevs(ctx, ids)
	if err != nil {
		h.s.log.Warn("web viewer: poll revisions", "err", err)
		return
	}
	for _, id := range ids {
		h.mu.Lock()
		w := h.games[id]
		var token string
		changed := w != nil && revs[id] != w.rev
		if w != nil {
			token = w.token
		}
		h.mu.Unlock()
		if !changed {
			continue
		}
		// Through the token, so that a page closed meanwhile (links
		// turned off) ends its streams.
		var snap *snapshot
		g, err := h.s.load(ctx, token)
		switch {
		case errors.Is(err, errNotFound):
			snap = &snapshot{rev: revs[id], gone: true}
		case err != nil:
			h.s.log.Warn("web viewer: load changed game", "game", id, "err", err)
			continue
		default:
			snap = h.s.snapshot(g)
		}
		h.mu.Lock()
		if w := h.games[id]; w != nil {
			w.rev, w.snap = snap.rev, snap
			for ch := range w.subs {
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
		h.mu.Unlock()
	}
}

type liveMove struct {
	L string `json:"l"`
	H string `json:"h"`
}

type liveClock struct {
	Left string `json:"left"`
	End  int64  `json:"end,omitempty"`
}

type liveUpdate struct {
	Rev    int64       `json:"rev"`
	Over   bool        `json:"over"`
	Status string      `json:"status"`
	Moves  []liveMove  `json:"moves"`
	Clocks []liveClock `json:"clocks,omitempty"`
}

// snapshot builds g's update in every language.
func (s *Server) snapshot(g *game) *snapshot {
	snap := &snapshot{rev: g.Rev, over: g.Status != store.StatusActive, data: map[string][]byte{}}
	now := s.opt.Now()
	for _, loc := range i18n.Locales {
		u := liveUpdate{Rev: g.Rev, Over: snap.over, Status: statusText(loc, g)}
		for i, l := range moveLabels(loc, g) {
			u.Moves = append(u.Moves, liveMove{L: l, H: g.hashes[i]})
		}
		for _, c := range clocks(loc, g, now) {
			u.Clocks = append(u.Clocks, liveClock{Left: c.Left, End: c.EndUnix})
		}
		b, _ := json.Marshal(u)
		snap.data[loc] = b
	}
	return snap
}

// heartbeat keeps idle streams open through proxies.
const heartbeat = 25 * time.Second

// events serves /g/{token}/events: a Server-Sent Events stream of the
// game's updates, the current one first.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	// A slot first: a refused stream costs no database read.
	release, code := s.live.take(clientAddr(r))
	if code != 0 {
		setCommon(w)
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Retry-After", "30")
		http.Error(w, http.StatusText(code), code)
		return
	}
	defer release()
	g, err := s.load(r.Context(), r.PathValue("token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	loc := s.lang(r)
	snap := s.hub.current(g.ID)
	if snap == nil || snap.rev != g.Rev {
		snap = s.snapshot(g)
	}
	ch, unsub := s.hub.subscribe(g, snap)
	defer unsub()
	rc := http.NewResponseController(w)
	// The server's read and write timeouts are for ordinary answers; a
	// stream lives on.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	setCommon(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	send := func(b []byte) bool {
		if _, err := w.Write([]byte("data: ")); err != nil {
			return false
		}
		if _, err := w.Write(b); err != nil {
			return false
		}
		if _, err := w.Write([]byte("\n\n")); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if _, err := w.Write([]byte("retry: 2000\n\n")); err != nil {
		return
	}
	if !send(snap.data[loc]) || snap.over {
		return
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	// A stream nothing happens on ends (the page reconnects if it is
	// still open), so a forgotten tab holds no slot for ever.
	idle := time.NewTimer(s.opt.StreamIdle)
	defer idle.Stop()
	last := snap.rev
	for {
		select {
		case <-r.Context().Done():
			return
		case <-idle.C:
			return
		case <-s.hub.done:
			return
		case <-beat.C:
			if _, err := w.Write([]byte(": ping\n\n")); err != nil || rc.Flush() != nil {
				return
			}
		case <-ch:
			cur := s.hub.current(g.ID)
			if cur != nil && cur.gone {
				return
			}
			if cur == nil || cur.rev == last {
				continue
			}
			last = cur.rev
			if !send(cur.data[loc]) || cur.over {
				return
			}
			idle.Reset(s.opt.StreamIdle)
		}
	}
}

// streamSlots counts the open live streams, in all and per client address.
type streamSlots struct {
	mu             sync.Mutex
	max, perClient int
	n              int
	by             map[string]int
}

// take reserves a slot for addr; code is 503 when all are taken, 429 when
// addr's are, 0 with release on success.
func (l *streamSlots) take(addr string) (release func(), code int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.n >= l.max:
		return nil, http.StatusServiceUnavailable
	case l.perClient > 0 && l.by[addr] >= l.perClient:
		return nil, http.StatusTooManyRequests
	}
	l.n++
	l.by[addr]++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.n--
			if l.by[addr]--; l.by[addr] <= 0 {
				delete(l.by, addr)
			}
		})
	}, 0
}

// clientAddr is the request's peer address without its port.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Streams is how many live streams are open.
func (s *Server) Streams() int {
	s.live.mu.Lock()
	defer s.live.mu.Unlock()
	return s.live.n
}

// StreamHandler serves only the live streams, which have their own
// limits (Options): a server mounts it apart from any cap on pages, so
// watchers never crowd out pages and pages never crowd out watchers.
func (s *Server) StreamHandler() http.Handler { return http.HandlerFunc(s.events) }
