// Package renders draws the bot's heavy pictures at most K at a time and
// keeps a finished game's pictures in the store (docs/web.md): the
// animated replay, the final board and the web viewer's ply images are
// drawn once, then read by every instance, after restarts too. The bot
// (/history, final boards) and the web viewer share one Renders, so K is
// the bound of the whole instance.
package renders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/store"
)

// Slots bound the CPU-heavy jobs (renders, reviews) running at once.
// A job waits for a free slot; in Discord the adapter defers an
// interaction whose handler waits past its direct window, so waiting
// never loses the answer.
type Slots struct{ ch chan struct{} }

// NewSlots allows n jobs at once; n <= 0 means one per core.
func NewSlots(n int) *Slots {
	if n <= 0 {
		n = runtime.NumCPU()
	}
	return &Slots{ch: make(chan struct{}, n)}
}

// Cap is the number of jobs allowed at once.
func (s *Slots) Cap() int { return cap(s.ch) }

// Acquire waits for a free slot, or until ctx ends (its error).
func (s *Slots) Acquire(ctx context.Context) error {
	select {
	case s.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release frees a slot taken by Acquire.
func (s *Slots) Release() { <-s.ch }

// MaxGIFBytes bounds an attached replay. Discord's reference ("Uploading
// Files") applies its upload limit to each file, 10 MiB by default on a
// server without boosts (raised since in some versions of the page); the
// final board beside the replay carries its PNG (~40 kB) and the record
// (a few kB), so 8 MiB leaves the replay, and the whole message, inside
// the lowest documented default. A longer game's replay is sampled to
// fit (imaging.SampleFrames).
const MaxGIFBytes = 8 << 20

// Renders draws pictures through Slots and stores a finished game's.
type Renders struct {
	st    Store // nil: nothing is stored
	log   *slog.Logger
	slots *Slots
	// mem keeps the finished games' pictures and records served lately,
	// so that asking again costs no database read (an 8 MB replay takes
	// tens of milliseconds to read) nor a record's replay of every move.
	mem   *LRU
	group singleflight.Group
	drawn atomic.Int64
}

// MemBytes bounds the memory of Renders' cache.
const MemBytes = 64 << 20

// Store keeps a finished game's pictures (*store.Store has it).
type Store interface {
	GameRender(ctx context.Context, gameID int64, name string) ([]byte, error)
	SaveGameRender(ctx context.Context, gameID int64, name string, data []byte) error
}

// New makes a Renders over st (nil for none) allowing max draws at once
// (<= 0: one per core).
func New(st Store, max int, log *slog.Logger) *Renders {
	if log == nil {
		log = slog.Default()
	}
	return &Renders{st: st, log: log, slots: NewSlots(max), mem: NewLRU(MemBytes)}
}

// Slots is the bound on draws at once.
func (r *Renders) Slots() *Slots { return r.slots }

// Drawn counts the pictures drawn (not read from the store) so far.
func (r *Renders) Drawn() int64 { return r.drawn.Load() }

// Picture is game's picture name: for a finished game the stored one
// when there is one, else drawn by draw once a slot is free and stored
// (two callers asking at once share one draw). A running game's pictures
// change with its moves: they are drawn every time, within the slots.
// A failure to store costs only the next caller a draw.
func (r *Renders) Picture(ctx context.Context, game int64, finished bool, name string, draw func() ([]byte, error)) ([]byte, error) {
	if !finished || r.st == nil {
		return r.draw(ctx, draw)
	}
	key := strconv.FormatInt(game, 10) + "/" + name
	if data, ok := r.mem.Get(key); ok {
		return data, nil
	}
	data, err := r.st.GameRender(ctx, game, name)
	if err == nil {
		r.mem.Put(key, data)
		return data, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	// The shared draw outlives the request that started it (a viewer who
	// leaves, an interaction that gives up): it is stored for the next.
	ch := r.group.DoChan(key, func() (any, error) {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedWait)
		defer cancel()
		// A flight that ended just before this one began has stored it.
		if data, err := r.st.GameRender(dctx, game, name); err == nil {
			r.mem.Put(key, data)
			return data, nil
		}
		data, err := r.draw(dctx, draw)
		if err != nil {
			return nil, err
		}
		// A picture drawn but not stored is still shown; the next caller
		// draws it again.
		if err := r.st.SaveGameRender(dctx, game, name, data); err != nil {
			r.log.Warn("store render", "game", game, "name", name, "err", err)
		} else {
			r.mem.Put(key, data)
		}
		return data, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.([]byte), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for %s: %w", name, ctx.Err())
	}
}

// sharedWait bounds a shared draw's wait for a slot and its store: an
// interaction's token lives 15 minutes.
const sharedWait = 15 * time.Minute

// Record is rec written as a record file (engine/record), kept in memory
// by what it says: writing replays every move to mark checks, which for a
// game of 1,500 plies costs more than a tenth of a second. Nothing of it
// is stored, so a renamed or erased player's record is written afresh.
func (r *Renders) Record(rec *recfile.Record) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q %q %q %q %q %q %d %q %q %d %v %d",
		rec.Game, rec.Variant, rec.Start, rec.White, rec.Black, rec.WhiteRating, rec.BlackRating, rec.Clock,
		rec.Date.UnixNano(), rec.Outcome.Result.String(), rec.Outcome.Reason, rec.Number, rec.Rated, len(rec.Moves))
	for _, kv := range rec.Tags {
		fmt.Fprintf(h, " %q=%q", kv[0], kv[1])
	}
	for _, m := range rec.Moves {
		fmt.Fprintf(h, " %q", m)
	}
	for _, c := range rec.Comments {
		fmt.Fprintf(h, " ;%q", c)
	}
	key := "record/" + hex.EncodeToString(h.Sum(nil))
	if data, ok := r.mem.Get(key); ok {
		return string(data), nil
	}
	text, err := recfile.Write(rec)
	if err != nil {
		return "", err
	}
	r.mem.Put(key, []byte(text))
	return text, nil
}

// draw runs one draw in a slot.
func (r *Renders) draw(ctx context.Context, draw func() ([]byte, error)) ([]byte, error) {
	if err := r.slots.Acquire(ctx); err != nil {
		return nil, fmt.Errorf("wait for a render slot: %w", err)
	}
	defer r.slots.Release()
	data, err := draw()
	if err == nil {
		r.drawn.Add(1)
	}
	return data, err
}

// Board names a board picture: ply k of a game of plies plies, worded in
// loc, flipped or not. The final ply has a name of its own, shared by
// the final board in Discord and the viewer's final.png.
func Board(k, plies int, loc string, flip bool) string {
	name := "ply-" + strconv.Itoa(k)
	if k == plies {
		name = "final"
	}
	name += "-" + loc
	if flip {
		name += "-flip"
	}
	return name + ".png"
}

// Replay names the animated replay (within MaxGIFBytes), flipped or not.
func Replay(flip bool) string {
	if flip {
		return "replay-flip.gif"
	}
	return "replay.gif"
}
