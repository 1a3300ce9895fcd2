package web

import (
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

//go:embed assets/page.html
var pageHTML string

//go:embed assets/viewer.css
var viewerCSS string

//go:embed assets/viewer.js
var viewerJS string

var pageTmpl = template.Must(template.New("page").Parse(pageHTML))

// matcher picks the page's language from Accept-Language.
var matcher = language.NewMatcher([]language.Tag{language.English, language.Thai, language.BrazilianPortuguese})

// lang is the request's language: ?lang= when it names a catalog
// language, else the best match of Accept-Language, else English.
func (s *Server) lang(r *http.Request) string {
	if l := i18n.Normalize(r.URL.Query().Get("lang")); l != "" && l != i18n.Pseudo {
		return l
	}
	tags, _, _ := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if len(tags) == 0 {
		return i18n.English
	}
	_, idx, conf := matcher.Match(tags...)
	if conf == language.No {
		return i18n.English
	}
	return i18n.Locales[idx]
}

// moveItem is one entry of the move list (ply 0: the start).
type moveItem struct {
	K       int
	Href    string
	Label   string
	Hash    string
	Current bool
}

type clockItem struct {
	Name    string
	Left    string
	EndUnix int64 // running clock's deadline in Unix ms, 0 when stopped
}

type langLink struct {
	Code, Name, Href string
	Current          bool
}

type pageData struct {
	Lang, Nonce                        string
	Title, Description, Status         string
	Base, Query, PlyQuery              string
	Image, OGImage, OGURL              string
	Ply, Plies, Rev                    int64
	Live                               bool
	White, Black, WhiteName, BlackName string
	Clocks                             []clockItem
	Moves                              []moveItem
	First, Prev, Next, Last, FlipHref  string
	Langs                              []langLink
	Finished                           bool
	// Alt is the board image's text (the alt text Discord gets), Pieces
	// the board in words, one line per rank (bot/describe): the board's
	// text alternative, for the ply shown.
	Alt      string
	Pieces   []string
	LastMove string // the move that led to the ply shown, in words
	CSS      template.CSS
	JS       template.JS
	T        map[string]string
}

// words are the page's catalog keys (bot/i18n, "web." block).
var words = []string{"web.moves", "web.flip", "web.first", "web.prev", "web.next", "web.last", "web.download",
	"web.record", "web.finalpng", "web.gif", "web.live", "web.language", "web.board", "web.players", "web.pieces"}

// boardText is the alt text and the text board of ply k in loc; a
// position the describer cannot word leaves the image's plain label.
func boardText(loc string, g *game, k int) (alt, last string, pieces []string) {
	b := describe.Board{Game: g.Kind, Number: int64(g.Number), Variant: g.Variant, Pos: g.positions[k]}
	if k > 0 {
		b.Prev, b.Last = g.positions[k-1], g.last[k]
	}
	if k == g.plies() {
		b.Outcome = g.outcome
	}
	alt, err := describe.Alt(loc, b)
	if err != nil {
		return i18n.T(loc, "web.board"), "", nil
	}
	last, _ = describe.LastMove(loc, b)
	tb, err := describe.TextBoard(loc, g.positions[k])
	if err != nil {
		return alt, last, nil
	}
	return alt, last, strings.Split(tb, "\n")
}

// statusText is the turn or the result line, in loc.
func statusText(loc string, g *game) string {
	switch g.Status {
	case store.StatusActive:
		turn := int(g.positions[g.plies()].Turn())
		return i18n.T(loc, "game.turn", g.names[turn], i18n.T(loc, "game."+engine.Side(turn).String()))
	}
	reason := g.Reason
	if i18n.Has("reason." + g.Reason) {
		reason = i18n.T(loc, "reason."+g.Reason)
	}
	var w string
	switch g.Result {
	case engine.WhiteWins.String():
		w = i18n.T(loc, "end.win", i18n.T(loc, "game.white"), g.names[0], reason)
	case engine.BlackWins.String():
		w = i18n.T(loc, "end.win", i18n.T(loc, "game.black"), g.names[1], reason)
	case engine.Draw.String():
		w = i18n.T(loc, "end.draw", reason)
	default:
		w = i18n.T(loc, "end.aborted")
	}
	return i18n.T(loc, "game.over", w)
}

// clocks are the players' clocks at now, or nil for an untimed game.
func clocks(loc string, g *game, now time.Time) []clockItem {
	cs, err := clock.ParseSettings(g.Clock)
	if err != nil || !cs.Timed() {
		return nil
	}
	out := make([]clockItem, 2)
	for side := range 2 {
		left := g.ClockState.Remaining(cs, side, now)
		it := clockItem{Name: i18n.T(loc, "game.sideplayer", i18n.T(loc, "game."+engine.Side(side).String()), g.names[side]), Left: fmtClock(left)}
		if g.Status == store.StatusActive && g.ClockState.ToMove == side && !g.ClockState.TurnStart.IsZero() {
			it.EndUnix = now.Add(left).UnixMilli()
		}
		out[side] = it
	}
	return out
}

// fmtClock writes a remaining time as m:ss or h:mm:ss.
func fmtClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d / time.Second)
	h, m, sec := s/3600, s/60%60, s%60
	two := func(n int) string { return strconv.Itoa(n/10) + strconv.Itoa(n%10) }
	if h > 0 {
		return strconv.Itoa(h) + ":" + two(m) + ":" + two(sec)
	}
	return strconv.Itoa(m) + ":" + two(sec)
}

// moveLabels are the move list's texts: the start, then "1. e2e4", "1... e7e5".
func moveLabels(loc string, g *game) []string {
	out := make([]string, 0, g.plies()+1)
	out = append(out, i18n.T(loc, "game.startpos"))
	for k, m := range g.moves {
		out = append(out, recfile.MoveLabel(k, g.positions[k].Turn())+" "+m.Notation)
	}
	return out
}

// query is the part of a page's query kept across links: flip and lang.
func query(flip bool, lang string, explicitLang bool) string {
	v := url.Values{}
	if flip {
		v.Set("flip", "1")
	}
	if explicitLang {
		v.Set("lang", lang)
	}
	return v.Encode()
}

func join(q, more string) string {
	switch {
	case q == "":
		return more
	case more == "":
		return q
	}
	return more + "&" + q
}

// page serves /g/{token}: the game at ?ply=K (default the current ply).
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	g, err := s.load(r.Context(), r.PathValue("token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	loc := s.lang(r)
	qv := r.URL.Query()
	flip := qv.Get("flip") == "1"
	n := g.plies()
	k := n
	if p := qv.Get("ply"); p != "" {
		if v, err := strconv.Atoi(p); err == nil {
			k = min(max(v, 0), n)
		}
	}
	q := query(flip, loc, i18n.Normalize(qv.Get("lang")) != "")
	base := "/g/" + g.token
	abs := s.opt.BaseURL
	if abs == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		abs = scheme + "://" + r.Host
	}
	img := func(k int) string {
		u := base + "/ply/" + strconv.Itoa(k) + "-" + g.hashes[k] + ".png"
		if q != "" {
			u += "?" + q
		}
		return u
	}
	plyHref := func(k int) string { return "?" + join(q, "ply="+strconv.Itoa(k)) }
	nonce := newNonce()
	d := pageData{
		Lang: loc, Nonce: nonce, Base: base, Query: q,
		Title:     i18n.T(loc, "game.title", strconv.Itoa(g.Number), i18n.T(loc, "gamename."+g.Kind)),
		Status:    statusText(loc, g),
		Image:     img(k),
		OGImage:   abs + img(n),
		OGURL:     abs + base,
		Ply:       int64(k),
		Plies:     int64(n),
		Rev:       g.Rev,
		Live:      g.Status == store.StatusActive,
		White:     i18n.T(loc, "game.white"),
		Black:     i18n.T(loc, "game.black"),
		WhiteName: g.names[0],
		BlackName: g.names[1],
		Clocks:    clocks(loc, g, s.opt.Now()),
		First:     plyHref(0),
		Prev:      plyHref(max(k-1, 0)),
		Next:      plyHref(min(k+1, n)),
		Last:      plyHref(n),
		Finished:  g.Status == store.StatusFinished,
		CSS:       template.CSS(viewerCSS),
		JS:        template.JS(viewerJS),
		T:         map[string]string{},
	}
	d.Description = i18n.T(loc, "web.description", g.names[0], g.names[1], d.Status)
	d.Alt, d.LastMove, d.Pieces = boardText(loc, g, k)
	fq := query(!flip, loc, i18n.Normalize(qv.Get("lang")) != "")
	d.FlipHref = "?" + join(fq, "ply="+strconv.Itoa(k))
	for i, l := range moveLabels(loc, g) {
		d.Moves = append(d.Moves, moveItem{K: i, Href: plyHref(i), Label: l, Hash: g.hashes[i], Current: i == k})
	}
	for _, l := range i18n.Locales {
		d.Langs = append(d.Langs, langLink{Code: l, Name: i18n.T(l, "language.name"), Current: l == loc,
			Href: "?" + join(query(flip, l, true), "ply="+strconv.Itoa(k))})
	}
	for _, key := range words {
		d.T[strings.TrimPrefix(key, "web.")] = i18n.T(loc, key)
	}
	setCommon(w)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+"'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	// The page changes with every move and holds a nonce: never stored.
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language")
	if err := pageTmpl.Execute(w, d); err != nil && r.Context().Err() == nil {
		s.log.Warn("web page", "err", err)
	}
}

// newNonce is a fresh CSP nonce (128 bits).
func newNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:]) // no + or /, which templates escape
}
