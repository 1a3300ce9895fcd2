package imaging

import (
	"image"
	"image/color"

	"github.com/fogleman/gg"
)

// A tile is a pre-drawn, opaque rectangle of palette indices: a piece on its
// square, an obstacle, a text pill. Frames are built by copying tiles row by
// row, which is why a frame costs microseconds rather than milliseconds.
type tile struct {
	w, h int
	pix  []uint8
}

// paint draws with gg on an RGBA canvas filled with bg and quantises the
// result into a tile. It is only used while building caches.
func paint(w, h int, bg uint8, draw func(dc *gg.Context)) *tile {
	dc := gg.NewContext(w, h)
	dc.SetColor(keyColors[bg])
	dc.Clear()
	draw(dc)
	return quantise(dc.Image().(*image.RGBA))
}

// quantise maps an opaque RGBA image to palette indices.
func quantise(img *image.RGBA) *tile {
	q := quantLUT()
	b := img.Bounds()
	t := &tile{w: b.Dx(), h: b.Dy(), pix: make([]uint8, b.Dx()*b.Dy())}
	for y := 0; y < t.h; y++ {
		src := img.Pix[y*img.Stride : y*img.Stride+4*t.w]
		dst := t.pix[y*t.w : (y+1)*t.w]
		for x := range dst {
			s := src[4*x : 4*x+3 : 4*x+3]
			dst[x] = q[int(s[0]>>3)<<10|int(s[1]>>3)<<5|int(s[2]>>3)]
		}
	}
	return t
}

// blit copies t onto dst with its top-left corner at (x, y), clipped.
func blit(dst *image.Paletted, t *tile, x, y int) {
	x0, y0 := max(x, 0), max(y, 0)
	x1, y1 := min(x+t.w, dst.Rect.Dx()), min(y+t.h, dst.Rect.Dy())
	if x0 >= x1 || y0 >= y1 {
		return
	}
	for yy := y0; yy < y1; yy++ {
		s := t.pix[(yy-y)*t.w+(x0-x) : (yy-y)*t.w+(x1-x)]
		copy(dst.Pix[yy*dst.Stride+x0:yy*dst.Stride+x1], s)
	}
}

// rgba is a shorthand for gg colours from the palette.
func rgba(k uint8) color.RGBA { return keyColors[k] }

// fillStroke fills dc's current path with colour fill and outlines it with
// line at width lw: the look of every piece body and disc.
func fillStroke(dc *gg.Context, fill, line uint8, lw float64) {
	dc.SetColor(rgba(fill))
	dc.FillPreserve()
	dc.SetColor(rgba(line))
	dc.SetLineWidth(lw)
	dc.Stroke()
}
