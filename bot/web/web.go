// Package web is the bot's game viewer: a server-rendered page per game at
// /g/{token} (the token a random capability, never the game's number) with
// the board of any ply, the move list, players, clocks and result, live
// updates over Server-Sent Events and downloads of the record, the final
// board and the animated replay. Everything it serves is embedded in the
// binary. See docs/web.md.
package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
)

// Options configure a Server.
type Options struct {
	// BaseURL is the viewer's public address ("https://tankbot.example"),
	// used in OpenGraph tags and in the links the bot posts; "" leaves the
	// page's own links relative and the bot without link buttons.
	BaseURL string
	Log     *slog.Logger
	Now     func() time.Time // the clock (tests inject one)
	// Poll is how often the revisions of watched games are read (shared by
	// every viewer on this instance); default 300 ms.
	Poll time.Duration
	// CacheBytes bounds the memory of rendered board images; default 32 MiB.
	CacheBytes int
	// Renders draws the images within the instance's bound and keeps a
	// finished game's in the store; the bot's own (Bot.Renders), so that
	// the bound is shared. nil: one of the viewer's own, one draw per core.
	Renders *renders.Renders
	// Live streams (/g/{token}/events) have limits of their own, apart
	// from pages and images: MaxStreams open at once in all (default
	// 1000), MaxStreamsPerClient from one client address (default 8; 0 is
	// the default, a negative value no per-client limit), and each ends
	// after StreamIdle without an update (default 30 min; the page
	// reconnects when it is still open). Beyond a limit the answer is at
	// once: 503 (all taken) or 429 (this address's taken).
	MaxStreams, MaxStreamsPerClient int
	StreamIdle                      time.Duration
}

// defaultPoll keeps a move's update under 1 s with room for the page's
// own round trip, at one small query per instance every poll.
const defaultPoll = 300 * time.Millisecond

// Server serves the viewer.
type Server struct {
	st    *store.Store
	opt   Options
	log   *slog.Logger
	cache *renders.LRU
	rd    *renders.Renders
	hub   *hub
	live  streamSlots
}

// New makes a viewer over st. Close stops its live updates.
func New(st *store.Store, opt Options) *Server {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Poll <= 0 {
		opt.Poll = defaultPoll
	}
	if opt.CacheBytes <= 0 {
		opt.CacheBytes = 32 << 20
	}
	if opt.MaxStreams <= 0 {
		opt.MaxStreams = 1000
	}
	if opt.MaxStreamsPerClient == 0 {
		opt.MaxStreamsPerClient = 8
	}
	if opt.StreamIdle <= 0 {
		opt.StreamIdle = 30 * time.Minute
	}
	opt.BaseURL = strings.TrimRight(opt.BaseURL, "/")
	if opt.Renders == nil {
		opt.Renders = renders.New(st, 0, opt.Log)
	}
	s := &Server{st: st, opt: opt, log: opt.Log, cache: renders.NewLRU(opt.CacheBytes), rd: opt.Renders}
	s.hub = newHub(s)
	s.live = streamSlots{max: opt.MaxStreams, perClient: opt.MaxStreamsPerClient, by: map[string]int{}}
	return s
}

// Close ends the live streams (so that an HTTP server's Shutdown does not
// wait on them) and the poller.
func (s *Server) Close() { s.hub.close() }

// Mount registers the viewer's routes on mux.
func (s *Server) Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET /g/{token}", s.page)
	mux.HandleFunc("GET /g/{token}/ply/{file}", s.plyImage)
	mux.HandleFunc("GET /g/{token}/final.png", s.finalImage)
	mux.HandleFunc("GET /g/{token}/replay.gif", s.replay)
	mux.HandleFunc("GET /g/{token}/record.txt", s.record)
	mux.HandleFunc("GET /g/{token}/events", s.events)
	// Anything else under /g/ gets the same 404 as an unknown token.
	mux.HandleFunc("/g/", func(w http.ResponseWriter, _ *http.Request) { notFound(w) })
}

// Handler is a mux holding only the viewer.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.Mount(mux)
	return mux
}

// URL is the page of game id for a link in guild: "" when no base URL is
// configured or the server turned links off.
func (s *Server) URL(ctx context.Context, gameID int64, guild string) (string, error) {
	return GameURL(ctx, s.st, s.opt.BaseURL, gameID, guild)
}

// GameURL is the page of game id under base for a link in guild: "" when
// base is empty or the server turned links off. The token is made on
// first use.
// LinkStore is what GameURL reads (*store.Store has it).
type LinkStore interface {
	WebLinks(ctx context.Context, guild string) (bool, error)
	WebToken(ctx context.Context, gameID int64) (string, error)
}

func GameURL(ctx context.Context, st LinkStore, base string, gameID int64, guild string) (string, error) {
	if base == "" || st == nil {
		return "", nil
	}
	if on, err := st.WebLinks(ctx, guild); err != nil || !on {
		return "", err
	}
	tok, err := st.WebToken(ctx, gameID)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(base, "/") + "/g/" + tok, nil
}

// game is one game as the viewer shows it, read at one revision.
type game struct {
	*store.Game
	token     string
	moves     []store.MoveRecord
	names     [2]string
	positions []engine.Position // len(moves)+1
	last      []engine.Move     // last[k] led to positions[k]; last[0] nil
	hashes    []string          // per ply: what its image shows
	outcome   *engine.Outcome   // set when finished
}

// errNotFound answers 404, whatever the reason.
var errNotFound = errors.New("not found")

// load reads the game token opens, with its moves and positions.
func (s *Server) load(ctx context.Context, token string) (*game, error) {
	g, err := s.st.GameByWebToken(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	return s.loadGame(ctx, g.ID, token)
}

func (s *Server) loadGame(ctx context.Context, id int64, token string) (*game, error) {
	sg, ms, err := s.st.LoadGame(ctx, id)
	if err != nil {
		return nil, err
	}
	g := &game{Game: sg, token: token, moves: ms}
	// The names the game stored when it began (store.DeletedPlayer after
	// an erasure); a game from before names were stored shows its ids.
	for i, p := range sg.Players {
		g.names[i] = sg.Names[i]
		if g.names[i] == "" {
			g.names[i] = p
		}
	}
	rules, err := games.Lookup(sg.Kind)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", id, err)
	}
	pos, err := rules.Decode(sg.Start)
	if err != nil {
		if pos, err = rules.Start(sg.Start); err != nil {
			return nil, fmt.Errorf("game %d start: %w", id, err)
		}
	}
	g.positions = append(make([]engine.Position, 0, len(ms)+1), pos)
	g.last = append(make([]engine.Move, 0, len(ms)+1), nil)
	for _, m := range ms {
		mv, err := pos.ParseMove(m.Notation)
		if err == nil {
			pos, err = pos.Play(mv)
		}
		if err != nil {
			return nil, fmt.Errorf("game %d move %d %q: %w", id, m.Ply, m.Notation, err)
		}
		g.positions, g.last = append(g.positions, pos), append(g.last, mv)
	}
	if sg.Status == store.StatusFinished {
		for _, r := range []engine.Result{engine.WhiteWins, engine.BlackWins, engine.Draw} {
			if sg.Result == r.String() {
				g.outcome = &engine.Outcome{Result: r, Reason: engine.Reason(sg.Reason)}
			}
		}
	}
	g.hashes = plyHashes(sg, ms)
	return g, nil
}

// plies is the number of moves played.
func (g *game) plies() int { return len(g.moves) }

// setCommon sets the headers every answer carries.
func setCommon(w http.ResponseWriter) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	// The page sets its own (with its nonce); nothing else runs anything.
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
}

// notFound is the one answer to every token that opens nothing.
func notFound(w http.ResponseWriter) {
	setCommon(w)
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "404 page not found", http.StatusNotFound)
}

// fail answers an error: 404 for a token that opens nothing, 500 otherwise.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errNotFound) {
		notFound(w)
		return
	}
	if r.Context().Err() == nil {
		s.log.Warn("web viewer", "path", redactPath(r.URL.Path), "err", err)
	}
	setCommon(w)
	http.Error(w, "500 internal error", http.StatusInternalServerError)
}

// redactPath hides the token of a logged path (tokens are never logged).
func redactPath(p string) string {
	parts := strings.SplitN(p, "/", 4)
	if len(parts) >= 3 && parts[1] == "g" {
		parts[2] = "…"
	}
	return strings.Join(parts, "/")
}
