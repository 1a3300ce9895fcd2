// Package renders draws the bot's heavy pictures at most K at a time and
// keeps a finished game's pictures in the store (docs/web.md): the
// animated replay, the final board and the web viewer's ply images are
// drawn once, then read by every instance, after restarts too. The bot
// (/history, final boards) and the web viewer share one Renders, so K is
// the bound of the whole instance.
package renders

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"sync/atomic"

	"golang.org/x/sync/singleflight"

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

// MaxGIFBytes bounds an attached replay: Discord's default upload limit
// is 10 MiB per message on servers without boosts, and a final board
// also carries its PNG (~40 kB) and the record file (a few kB), so the
// replay gets 8 MiB and the whole stays well inside. A longer game's
// replay is sampled to fit (imaging.SampleFrames).
const MaxGIFBytes = 8 << 20

// Renders draws pictures through Slots and stores a finished game's.
type Renders struct {
	st    *store.Store // nil: nothing is stored
	log   *slog.Logger
	slots *Slots
	group singleflight.Group
	drawn atomic.Int64
}

// New makes a Renders over st (nil for none) allowing max draws at once
// (<= 0: one per core).
func New(st *store.Store, max int, log *slog.Logger) *Renders {
	if log == nil {
		log = slog.Default()
	}
	return &Renders{st: st, log: log, slots: NewSlots(max)}
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
	data, err := r.st.GameRender(ctx, game, name)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	v, err, _ := r.group.Do(strconv.FormatInt(game, 10)+"/"+name, func() (any, error) {
		data, err := r.draw(ctx, draw)
		if err != nil {
			return nil, err
		}
		// The request's end must not undo the store of a finished draw.
		// A picture drawn but not stored is still shown; the next caller
		// draws it again.
		if err := r.st.SaveGameRender(context.WithoutCancel(ctx), game, name, data); err != nil {
			r.log.Warn("store render", "game", game, "name", name, "err", err)
		}
		return data, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
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
