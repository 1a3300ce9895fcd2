package imaging

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/tankbot/tankbot/engine"
)

// ReplayOptions say how to animate a game.
type ReplayOptions struct {
	Flip  bool          // draw from Black's side
	Delay time.Duration // time each ply stays on screen; 0 means 800 ms
	Hold  time.Duration // time the final position stays; 0 means 4 s
	// MaxBytes, when > 0, bounds the GIF: a longer game's replay is
	// sampled to fit (Discord's upload limit).
	MaxBytes int
}

// RenderReplay draws a whole game as an animated GIF: the start and one
// frame per move (len(positions) frames), each the same picture Render
// draws with the move as Last, the final frame held longer. moves[i] leads
// from positions[i] to positions[i+1].
//
// The frames come from the same drawers as the stills, in the renderer's
// fixed palette, which is also the GIF's one global colour table. After
// the first, each frame holds only the bounding box of the pixels that
// changed, with the unchanged pixels inside it transparent (disposal
// "none": the previous frame stays beneath), so a move costs a few small
// rectangles instead of a whole board.
//
// With opt.MaxBytes set, a replay that would weigh more is sampled (see
// SampleFrames) until it fits: fewer frames, each staying on screen for
// the plies it stands for.
func RenderReplay(positions []engine.Position, moves []engine.Move, opt ReplayOptions) ([]byte, error) {
	if len(positions) == 0 {
		return nil, fmt.Errorf("imaging: replay of no positions")
	}
	if len(moves) != len(positions)-1 {
		return nil, fmt.Errorf("imaging: replay of %d positions needs %d moves, got %d", len(positions), len(positions)-1, len(moves))
	}
	if opt.Delay <= 0 {
		opt.Delay = 800 * time.Millisecond
	}
	if opt.Hold <= 0 {
		opt.Hold = 4 * time.Second
	}
	keep := make([]int, len(positions))
	for i := range keep {
		keep[i] = i
	}
	if opt.MaxBytes > 0 && len(keep) > 2*replayProbe {
		// A long game: its first plies tell what a move's frame weighs
		// beside the first (a whole board), so a replay far over its
		// budget is sampled at once instead of drawn whole first.
		first, err := encodeReplay(positions, moves, keep[:1], opt)
		if err != nil {
			return nil, err
		}
		head, err := encodeReplay(positions, moves, keep[:replayProbe], opt)
		if err != nil {
			return nil, err
		}
		per := float64(len(head)-len(first)) / float64(replayProbe-1)
		if est := float64(len(first)) + per*float64(len(keep)-1); est > 1.25*float64(opt.MaxBytes) {
			keep = SampleFrames(positions, 1+int(0.9*float64(opt.MaxBytes-len(first))/per))
		}
	}
	data, err := encodeReplay(positions, moves, keep, opt)
	if err != nil || opt.MaxBytes <= 0 || len(data) <= opt.MaxBytes {
		return data, err
	}
	// Sampled frames change more between them than consecutive plies do,
	// so the first guess (proportional, with a margin) may still be too
	// heavy: shrink until it fits.
	for range 8 {
		n := int(float64(len(keep)) * float64(opt.MaxBytes) / float64(len(data)) * 0.9)
		if n < 2 {
			n = 2
		}
		keep = SampleFrames(positions, n)
		if data, err = encodeReplay(positions, moves, keep, opt); err != nil || len(data) <= opt.MaxBytes {
			return data, err
		}
		if n == 2 {
			break
		}
	}
	return nil, fmt.Errorf("imaging: replay of %d plies does not fit in %d bytes", len(moves), opt.MaxBytes)
}

// replayProbe is how many first plies a long replay with a byte budget
// is weighed by before it is drawn (tests lower it).
var replayProbe = 100

// SampleFrames picks at most n of the plies 0..len(positions)-1 for a
// sampled replay, in order: the start, the end, every capture (a move that
// leaves fewer pieces on the board) and, for the rest, plies spread evenly.
// When the captures alone are too many, they too are taken evenly.
func SampleFrames(positions []engine.Position, n int) []int {
	last := len(positions) - 1
	if n >= len(positions) {
		out := make([]int, len(positions))
		for i := range out {
			out[i] = i
		}
		return out
	}
	n = max(n, min(2, len(positions)))
	var captures []int
	prev := pieces(positions[0])
	for i := 1; i < last; i++ {
		c := pieces(positions[i])
		if c < prev {
			captures = append(captures, i)
		}
		prev = c
	}
	keep := map[int]bool{0: true, last: true}
	if len(captures) > n-2 {
		for _, k := range spread(len(captures), n-2) {
			keep[captures[k]] = true
		}
	} else {
		for _, c := range captures {
			keep[c] = true
		}
		// The rest spread evenly over the plies not yet kept.
		others := make([]int, 0, last+1-len(keep))
		for i := 0; i <= last; i++ {
			if !keep[i] {
				others = append(others, i)
			}
		}
		if k := n - len(keep); k == 1 {
			keep[others[len(others)/2]] = true
		} else {
			for _, j := range spread(len(others), k) {
				keep[others[j]] = true
			}
		}
	}
	out := make([]int, 0, len(keep))
	for i := 0; i <= last; i++ {
		if keep[i] {
			out = append(out, i)
		}
	}
	return out
}

// spread is k indices of 0..n-1 spread evenly, the first and the last
// included when k >= 2.
func spread(n, k int) []int {
	if k <= 0 || n <= 0 {
		return nil
	}
	if k == 1 {
		return []int{0}
	}
	out := make([]int, 0, k)
	for j := range k {
		out = append(out, int(math.Round(float64(j)*float64(n-1)/float64(k-1))))
	}
	return out
}

// pieces counts the letters of a position's board field (the first field
// of its TFEN, CFEN or GFEN): a capture lowers it, whatever the game.
func pieces(pos engine.Position) int {
	enc := pos.Encode()
	if i := strings.IndexByte(enc, ' '); i >= 0 {
		enc = enc[:i]
	}
	n := 0
	for _, c := range enc {
		if unicode.IsLetter(c) {
			n++
		}
	}
	return n
}

// encodeReplay draws and encodes the plies keep (ascending, starting at
// 0). A kept ply stays on screen for the plies it stands for, up to twice
// opt.Delay, so a sampled replay moves on at a watchable pace; the last
// one is held.
func encodeReplay(positions []engine.Position, moves []engine.Move, keep []int, opt ReplayOptions) ([]byte, error) {
	name := ""
	if positions[0] != nil && positions[0].Rules() != nil {
		name = positions[0].Rules().Name()
	}
	d, ok := drawers[name]
	if !ok {
		return nil, fmt.Errorf("imaging: no drawer for game %q", name)
	}
	pal, transparent := gifPalette()
	anim := &gif.GIF{}
	var prev []byte // the previous frame's pixels, stride = width
	var bounds image.Rectangle
	for j, i := range keep {
		pos := positions[i]
		o := Options{Flip: opt.Flip}
		if i > 0 {
			o.Last = moves[i-1]
		}
		if pos == nil || pos.Rules() == nil || pos.Rules().Name() != name {
			return nil, fmt.Errorf("imaging: replay position %d is not a %s position", i, name)
		}
		f, err := d.draw(pos, o)
		if err != nil {
			return nil, fmt.Errorf("imaging: replay ply %d: %w", i, err)
		}
		var frame *image.Paletted
		if j == 0 {
			bounds = f.img.Rect
			prev = make([]byte, bounds.Dx()*bounds.Dy())
			frame = image.NewPaletted(bounds, pal)
			copyPix(prev, f.img)
			copy(frame.Pix, prev)
		} else {
			if f.img.Rect != bounds {
				f.release()
				return nil, fmt.Errorf("imaging: replay ply %d is %v, the start %v", i, f.img.Rect, bounds)
			}
			frame = delta(prev, f.img, pal, transparent)
		}
		f.release()
		anim.Image = append(anim.Image, frame)
		delay := opt.Hold
		if j < len(keep)-1 {
			delay = min(opt.Delay*time.Duration(keep[j+1]-i), 2*opt.Delay)
		}
		anim.Delay = append(anim.Delay, int(delay/(10*time.Millisecond)))
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	anim.Config = image.Config{ColorModel: pal, Width: bounds.Dx(), Height: bounds.Dy()}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, fmt.Errorf("imaging: encode replay: %w", err)
	}
	return buf.Bytes(), nil
}

// gifPalette is the renderer's palette plus one transparent entry.
func gifPalette() (color.Palette, uint8) {
	if len(palette) >= 256 {
		// No room: frames then carry every pixel of their box (delta
		// falls back to opaque frames).
		return palette, 0
	}
	p := make(color.Palette, len(palette), len(palette)+1)
	copy(p, palette)
	return append(p, color.RGBA{}), uint8(len(palette))
}

func copyPix(dst []byte, img *image.Paletted) {
	w := img.Rect.Dx()
	for y := 0; y < img.Rect.Dy(); y++ {
		copy(dst[y*w:(y+1)*w], img.Pix[y*img.Stride:y*img.Stride+w])
	}
}

// delta returns the part of cur that differs from prev (bounding box, with
// unchanged pixels transparent) and updates prev to cur. Nothing changed
// gives a single transparent pixel, so every ply still has its frame.
func delta(prev []byte, cur *image.Paletted, pal color.Palette, transparent uint8) *image.Paletted {
	w, h := cur.Rect.Dx(), cur.Rect.Dy()
	x0, y0, x1, y1 := w, h, -1, -1
	for y := 0; y < h; y++ {
		row := cur.Pix[y*cur.Stride : y*cur.Stride+w]
		old := prev[y*w : (y+1)*w]
		if bytes.Equal(row, old) {
			continue
		}
		l, r := 0, w-1
		for row[l] == old[l] {
			l++
		}
		for row[r] == old[r] {
			r--
		}
		x0, x1 = min(x0, l), max(x1, r)
		y0 = min(y0, y)
		y1 = y
	}
	off := cur.Rect.Min
	opaque := len(pal) == len(palette) // no transparent entry
	if x1 < 0 {
		out := image.NewPaletted(image.Rect(0, 0, 1, 1).Add(off), pal)
		out.Pix[0] = transparent
		if opaque {
			out.Pix[0] = prev[0]
		}
		return out
	}
	out := image.NewPaletted(image.Rect(x0, y0, x1+1, y1+1).Add(off), pal)
	for y := y0; y <= y1; y++ {
		row := cur.Pix[y*cur.Stride+x0 : y*cur.Stride+x1+1]
		old := prev[y*w+x0 : y*w+x1+1]
		dst := out.Pix[(y-y0)*out.Stride : (y-y0)*out.Stride+len(row)]
		for x, c := range row {
			if c == old[x] && !opaque {
				dst[x] = transparent
			} else {
				dst[x] = c
			}
		}
		copy(old, row)
	}
	return out
}
