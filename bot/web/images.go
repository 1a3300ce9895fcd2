package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/renders"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/imaging"
	"github.com/tankbot/tankbot/store"
)

// plyHashes names what each ply's image shows: the moves up to it (a
// takeback replaces them) and, for the last ply of a finished game, the
// result. The name goes into the image's URL, so an image URL never
// changes content and the browser may keep it for good.
func plyHashes(g *store.Game, ms []store.MoveRecord) []string {
	out := make([]string, len(ms)+1)
	h := sha256.New()
	h.Write([]byte(g.Kind + "\x00" + g.Start + "\x00"))
	for k := 0; ; k++ {
		sum := h.Sum(nil)
		if k == len(ms) && g.Status == store.StatusFinished {
			f := sha256.Sum256(append(sum, []byte("\x00"+g.Result+"\x00"+g.Reason)...))
			sum = f[:]
		}
		out[k] = hex.EncodeToString(sum[:6])
		if k == len(ms) {
			return out
		}
		h.Write([]byte(ms[k].Notation + "\x00"))
	}
}

// render draws ply k of g (flipped, worded in loc), through the memory
// cache and, for a finished game, the stored renders: its images are
// drawn once, even across restarts and instances.
func (s *Server) render(ctx context.Context, g *game, k int, flip bool, loc string) ([]byte, error) {
	key := strconv.FormatInt(g.ID, 10) + "/" + strconv.Itoa(k) + "/" + g.hashes[k] + "/" + strconv.FormatBool(flip) + "/" + loc
	if b, ok := s.cache.Get(key); ok {
		return b, nil
	}
	finished := g.Status == store.StatusFinished
	b, err := s.rd.Picture(ctx, g.ID, finished, renders.Board(k, g.plies(), loc, flip), func() ([]byte, error) {
		opt := imaging.Options{Last: g.last[k], Flip: flip, Text: i18n.Text(loc)}
		if k == g.plies() {
			opt.Outcome = g.outcome
		}
		return imaging.Render(g.positions[k], opt)
	})
	if err != nil {
		return nil, err
	}
	s.cache.Put(key, b)
	return b, nil
}

// servePNG answers an image. An image whose URL names its content (hash
// matches) is immutable; any other is revalidated (the ETag still saves
// the transfer).
func serveBytes(w http.ResponseWriter, r *http.Request, ctype, etag string, immutable bool, data []byte) {
	setCommon(w)
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("ETag", etag)
	if immutable {
		h.Set("Cache-Control", "private, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "private, no-cache")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

// plyImage serves /g/{token}/ply/{K}-{hash}.png (or {K}.png, the current
// content of ply K, revalidated).
func (s *Server) plyImage(w http.ResponseWriter, r *http.Request) {
	file, ok := strings.CutSuffix(r.PathValue("file"), ".png")
	num, hash, _ := strings.Cut(file, "-")
	k, err := strconv.Atoi(num)
	if !ok || err != nil || k < 0 {
		notFound(w)
		return
	}
	g, err := s.load(r.Context(), r.PathValue("token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if k > g.plies() {
		notFound(w)
		return
	}
	flip := r.URL.Query().Get("flip") == "1"
	loc := s.lang(r)
	data, err := s.render(r.Context(), g, k, flip, loc)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	etag := `"` + g.hashes[k] + "-" + strconv.FormatBool(flip) + "-" + loc + `"`
	serveBytes(w, r, "image/png", etag, hash == g.hashes[k], data)
}

// finalImage serves the current (for a finished game, the final) board.
func (s *Server) finalImage(w http.ResponseWriter, r *http.Request) {
	g, err := s.load(r.Context(), r.PathValue("token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	flip := r.URL.Query().Get("flip") == "1"
	loc := s.lang(r)
	k := g.plies()
	data, err := s.render(r.Context(), g, k, flip, loc)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if r.URL.Query().Get("dl") == "1" {
		w.Header().Set("Content-Disposition", `attachment; filename="`+fileBase(g)+`.png"`)
	}
	serveBytes(w, r, "image/png", `"`+g.hashes[k]+"-"+strconv.FormatBool(flip)+"-"+loc+`"`, false, data)
}

// fileBase names downloads: game-12 (the number players see in Discord).
func fileBase(g *game) string { return "game-" + strconv.Itoa(g.Number) }

// replay serves a finished game's animated GIF.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	g, err := s.load(r.Context(), r.PathValue("token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if g.Status != store.StatusFinished {
		notFound(w)
		return
	}
	flip := r.URL.Query().Get("flip") == "1"
	// Read from the store once drawn (not kept in memory: up to
	// renders.MaxGIFBytes each); a very long game's is sampled, the one
	// the final board in Discord carries.
	data, err := s.rd.Picture(r.Context(), g.ID, true, renders.Replay(flip), func() ([]byte, error) {
		return imaging.RenderReplay(g.positions, g.last[1:], imaging.ReplayOptions{Flip: flip, MaxBytes: renders.MaxGIFBytes})
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+fileBase(g)+`.gif"`)
	serveBytes(w, r, "image/gif", `"`+g.hashes[g.plies()]+"-"+strconv.FormatBool(flip)+`"`, false, data)
}

// record serves the game's record file (docs/records.md).
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	g, err := s.load(r.Context(), r.PathValue("token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rec := &recfile.Record{Game: g.Kind, Variant: g.Variant, Start: g.Start, White: g.names[0], Black: g.names[1],
		Clock: g.Clock, Date: g.Created, Number: g.Number, Rated: !g.Casual}
	for _, m := range g.moves {
		rec.Moves = append(rec.Moves, m.Notation)
	}
	if g.outcome != nil {
		rec.Outcome = *g.outcome
	}
	text, err := s.rd.Record(rec)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+fileBase(g)+`.txt"`)
	serveBytes(w, r, "text/plain; charset=utf-8", `"`+g.hashes[g.plies()]+`-rec"`, false, []byte(text))
}
