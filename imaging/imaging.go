// Package imaging draws engine positions as PNG images for the bot: the
// board with coordinates, the pieces, the last move, announcements and the
// result. Everything that does not change from frame to frame (the board,
// coordinates, piece sprites, text pills) is drawn once with gg, quantised to
// one fixed palette and cached; a frame copies those tiles into a paletted
// image, rasterises the few overlays and encodes it. See docs/imaging.md.
package imaging

import (
	"fmt"
	"image"
	"sort"
	"strings"
	"sync"

	"github.com/tankbot/tankbot/engine"
)

// Options say how to draw a position.
type Options struct {
	Last engine.Move // the move that led to this position, or nil
	Flip bool        // draw from Black's side (Black at the bottom)
	// Text words the image: the bot's message catalog for the language of
	// the message the image goes with (keys in Words, plus "reason.<Reason>").
	// nil, or a key it does not know, gives English.
	Text func(key string, args ...string) string
	// Outcome, when set and over, is how the game ended; it overrides the
	// position's own status, which knows nothing of resignations, time
	// or agreements.
	Outcome *engine.Outcome
}

// drawer draws one game's positions. Each game has its own file
// (tank.go, camelot.go, gungi.go) registering one in drawers.
type drawer interface {
	// draw renders pos into a new frame.
	draw(pos engine.Position, opt Options) (frame, error)
}

// frame is a drawn image, the horizontal pitch at which it repeats (the
// square size, a hint for the encoder) and a func returning its buffer.
type frame struct {
	img     *image.Paletted
	pitch   int
	release func()
}

// drawers maps engine.Rules.Name() to the game's drawer.
var drawers = map[string]drawer{}

// Render draws pos as a PNG. Safe for concurrent use.
func Render(pos engine.Position, opt Options) ([]byte, error) {
	if pos == nil || pos.Rules() == nil {
		return nil, fmt.Errorf("imaging: no position")
	}
	name := pos.Rules().Name()
	d, ok := drawers[name]
	if !ok {
		return nil, fmt.Errorf("imaging: no drawer for game %q (have %s)", name, strings.Join(gameNames(), ", "))
	}
	f, err := d.draw(pos, opt)
	if err != nil {
		return nil, err
	}
	defer f.release()
	return encodePNG(f.img, f.pitch), nil
}

func gameNames() []string {
	out := make([]string, 0, len(drawers))
	for n := range drawers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// cache is a concurrency-safe build-once map: the first caller of a key
// builds the value, concurrent callers of the same key wait for it, callers
// of other keys are not blocked.
type cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*cacheEntry[V]
}

type cacheEntry[V any] struct {
	once sync.Once
	v    V
}

func (c *cache[K, V]) get(k K, build func() V) V {
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[K]*cacheEntry[V])
	}
	e, ok := c.m[k]
	if !ok {
		e = new(cacheEntry[V])
		c.m[k] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v = build() })
	return e.v
}
