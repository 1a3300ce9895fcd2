package imaging

import (
	"image"
	"strconv"
	"sync"

	"github.com/fogleman/gg"
)

// A board is the geometry and the static layer of a rectangular grid of
// squares seen from one side: the frame, the header strip, the field, the
// grid lines and the coordinates on all four sides. Games with square
// boards share it; their drawers put tiles and overlays on top.

const (
	targetBoardPx = 820 // the grid is about this wide; the image ~870 px
	minCell       = 24
	maxCell       = 100
	headerPx      = 40
)

type grid struct {
	files, ranks int
	flip         bool
}

type board struct {
	grid
	cell   int // square pitch, grid line included
	in     int // square interior (cell - 1): the size of square tiles
	margin int // coordinate band on each side of the grid
	w, h   int // image size
	bx, by int // top-left grid line
	base   *image.Paletted
	frames sync.Pool
}

var boards cache[grid, *board]

func boardFor(g grid) *board { return boards.get(g, func() *board { return newBoard(g) }) }

func newBoard(g grid) *board {
	cell := targetBoardPx / max(g.files, g.ranks)
	cell = min(max(cell, minCell), maxCell)
	b := &board{grid: g, cell: cell, in: cell - 1}
	b.margin = 14 + cell/5
	b.w = 2*b.margin + g.files*cell + 1
	b.h = headerPx + 2*b.margin + g.ranks*cell + 1
	b.bx, b.by = b.margin, headerPx+b.margin
	img := image.NewPaletted(image.Rect(0, 0, b.w, b.h), palette)
	fill(img, image.Rect(0, 0, b.w, b.h), cFrame)
	fill(img, image.Rect(0, 0, b.w, headerPx), cHeader)
	fill(img, image.Rect(b.bx, b.by, b.bx+g.files*cell+1, b.by+g.ranks*cell+1), cGrid)
	for f := 0; f < g.files; f++ {
		for r := 0; r < g.ranks; r++ {
			x, y := b.origin(f, r)
			fill(img, image.Rect(x, y, x+b.in, y+b.in), cField)
		}
	}
	b.drawCoords(img)
	b.base = img
	return b
}

// col and row are the on-screen column and row of a square (0 = left/top).
func (b *board) col(file int) int {
	if b.flip {
		return b.files - 1 - file
	}
	return file
}

func (b *board) row(rank int) int {
	if b.flip {
		return rank
	}
	return b.ranks - 1 - rank
}

// origin is the top-left pixel of a square's interior. Off-board squares
// (escape routes) get the position they would have.
func (b *board) origin(file, rank int) (x, y int) {
	return b.bx + b.col(file)*b.cell + 1, b.by + b.row(rank)*b.cell + 1
}

// center is the centre of a square in pixel coordinates.
func (b *board) center(file, rank int) pt {
	x, y := b.origin(file, rank)
	h := float64(b.in) / 2
	return pt{float64(x) + h, float64(y) + h}
}

// newFrame returns a copy of the static layer and a func that gives it back.
func (b *board) newFrame() (*image.Paletted, func()) {
	img, _ := b.frames.Get().(*image.Paletted)
	if img == nil {
		img = image.NewPaletted(b.base.Rect, palette)
	}
	copy(img.Pix, b.base.Pix)
	return img, func() { b.frames.Put(img) }
}

func (b *board) drawCoords(img *image.Paletted) {
	size := float64(b.margin) * 0.62
	fileName := func(f int) string { return string(rune('a' + f)) }
	for f := 0; f < b.files; f++ {
		t := textTile(fileName(f), size, cCoord, cFrame, b.in, b.margin)
		x, _ := b.origin(f, 0)
		blit(img, t, x, b.by-b.margin)
		blit(img, t, x, b.by+b.ranks*b.cell+1)
	}
	for r := 0; r < b.ranks; r++ {
		t := textTile(strconv.Itoa(r+1), size, cCoord, cFrame, b.margin, b.in)
		_, y := b.origin(0, r)
		blit(img, t, 0, y)
		blit(img, t, b.bx+b.files*b.cell+1, y)
	}
}

// textTile is s centred in a w×h tile of colour bg.
func textTile(s string, size float64, fg, bg uint8, w, h int) *tile {
	return paint(w, h, bg, func(dc *gg.Context) {
		dc.SetColor(rgba(fg))
		drawText(dc, s, size, float64(w)/2, float64(h)/2, 0.5, 0.38)
	})
}

func fill(img *image.Paletted, r image.Rectangle, c uint8) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[y*img.Stride+r.Min.X : y*img.Stride+r.Max.X]
		for i := range row {
			row[i] = c
		}
	}
}
