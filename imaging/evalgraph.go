package imaging

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"strconv"

	"github.com/fogleman/gg"
)

// EvalGraph is the evaluation graph of a reviewed game: White's win
// probability after every move, the area under the curve in White's
// colour and the rest in Black's, the big swings marked. The words come
// from the caller, already in the reader's language.
type EvalGraph struct {
	// Win is White's win probability (0..1) at each position: the start,
	// then after each move.
	Win []float64
	// Marks are moves to mark as big swings, 0-based: move i goes from
	// Win[i] to Win[i+1].
	Marks []int
	// MarkLabels, when set, has one short label per mark ("12. e5").
	MarkLabels []string
	// Title heads the image; White and Black label the legend's swatches;
	// Axis names the horizontal axis (plies).
	Title, White, Black, Axis string
}

// Evaluation graph geometry: drawn at twice Discord's preview width (about
// 400 px) so that it stays sharp on dense screens; text sizes are chosen to
// be at least 11 px at preview size.
const (
	egW, egH             = 800, 400
	egLeft, egRight      = 56, 20
	egTop, egBottom      = 72, 56
	egTitlePx, egLabelPx = 30, 24
	egDotR               = 9 // radius of a swing's dot
	egLabelPad           = 4 // margin around a label's text in its box
)

var (
	egWhite = color.RGBA{238, 238, 232, 255} // White's share
	egBlack = color.RGBA{52, 52, 58, 255}    // Black's share
	egBack  = color.RGBA{255, 255, 255, 255}
	egInk   = color.RGBA{20, 20, 24, 255}
	egLine  = color.RGBA{30, 110, 220, 255} // the curve
	egMid   = color.RGBA{150, 150, 150, 255}
	egMark  = color.RGBA{220, 40, 30, 255} // big swings
)

// RenderEvalGraph draws g as a PNG.
func RenderEvalGraph(g EvalGraph) ([]byte, error) {
	n := len(g.Win)
	if n < 2 {
		return nil, fmt.Errorf("imaging: an evaluation graph needs at least 2 positions, got %d", n)
	}
	for i, w := range g.Win {
		if math.IsNaN(w) || w < 0 || w > 1 {
			return nil, fmt.Errorf("imaging: win probability %d is %v, not in 0..1", i, w)
		}
	}
	for _, m := range g.Marks {
		if m < 0 || m >= n-1 {
			return nil, fmt.Errorf("imaging: mark %d is not a move (0 to %d)", m, n-2)
		}
	}
	if g.MarkLabels != nil && len(g.MarkLabels) != len(g.Marks) {
		return nil, fmt.Errorf("imaging: %d mark labels for %d marks", len(g.MarkLabels), len(g.Marks))
	}
	dc := gg.NewContext(egW, egH)
	dc.SetColor(egBack)
	dc.Clear()
	x0, y0 := float64(egLeft), float64(egTop)
	pw, ph := float64(egW-egLeft-egRight), float64(egH-egTop-egBottom)
	X := func(i int) float64 { return x0 + pw*float64(i)/float64(n-1) }
	Y := func(w float64) float64 { return y0 + ph*(1-w) }
	dots, boxes := g.marks()

	// Black's share is the whole plot, White's the area under the curve.
	dc.SetColor(egBlack)
	dc.DrawRectangle(x0, y0, pw, ph)
	dc.Fill()
	dc.SetColor(egWhite)
	dc.MoveTo(X(0), Y(0))
	for i, w := range g.Win {
		dc.LineTo(X(i), Y(w))
	}
	dc.LineTo(X(n-1), Y(0))
	dc.ClosePath()
	dc.Fill()

	// The even line and the plies along the axis.
	dc.SetColor(egMid)
	dc.SetLineWidth(2)
	dc.SetDash(8, 6)
	dc.DrawLine(x0, Y(0.5), x0+pw, Y(0.5))
	dc.Stroke()
	dc.SetDash()
	step := tickStep(n - 1)
	dc.SetColor(egInk)
	for p := 0; p <= n-1; p += step {
		dc.DrawLine(X(p), y0+ph, X(p), y0+ph+8)
		dc.Stroke()
		drawText(dc, strconv.Itoa(p), egLabelPx, X(p), y0+ph+10, 0.5, 0.9)
	}
	if g.Axis != "" {
		drawText(dc, g.Axis, egLabelPx, x0+pw, float64(egH)-6, 1, 0)
	}
	drawText(dc, "100", egLabelPx*0.8, x0-6, y0, 1, 0.36)
	drawText(dc, "50", egLabelPx*0.8, x0-6, Y(0.5), 1, 0.36)
	drawText(dc, "0", egLabelPx*0.8, x0-6, y0+ph, 1, 0.36)

	// The curve.
	dc.SetColor(egLine)
	dc.SetLineWidth(4)
	for i, w := range g.Win {
		if i == 0 {
			dc.MoveTo(X(i), Y(w))
		} else {
			dc.LineTo(X(i), Y(w))
		}
	}
	dc.Stroke()

	// Big swings: a red bar over the move and a dot where it landed, then
	// the labels, placed so that none covers another or a dot.
	for k, m := range g.Marks {
		dc.SetColor(egMark)
		dc.SetLineWidth(6)
		dc.DrawLine(dots[k][0], Y(g.Win[m]), dots[k][0], dots[k][1])
		dc.Stroke()
		dc.DrawCircle(dots[k][0], dots[k][1], egDotR)
		dc.Fill()
	}
	for k, label := range g.MarkLabels {
		if label == "" {
			continue
		}
		bx := boxes[k]
		if cx, cy := bx.nearest(dots[k][0], dots[k][1]); math.Hypot(cx-dots[k][0], cy-dots[k][1]) > egDotR+6 {
			// Moved away from its dot: a leader line says whose it is.
			dc.SetColor(egMark)
			dc.SetLineWidth(2)
			dc.DrawLine(dots[k][0], dots[k][1], cx, cy)
			dc.Stroke()
		}
		dc.SetRGBA255(255, 255, 255, 225)
		dc.DrawRoundedRectangle(bx.x0, bx.y0, bx.x1-bx.x0, bx.y1-bx.y0, 4)
		dc.Fill()
		dc.SetColor(egMark)
		drawText(dc, label, egLabelPx, bx.x0+egLabelPad, bx.y0+egLabelPx*0.85, 0, 0)
	}

	// Title and legend.
	dc.SetColor(egInk)
	drawText(dc, g.Title, egTitlePx, x0, 36, 0, 0)
	lx := x0
	for _, sw := range []struct {
		c    color.Color
		text string
	}{{egWhite, g.White}, {egBlack, g.Black}} {
		if sw.text == "" {
			continue
		}
		dc.SetColor(egInk)
		dc.DrawRectangle(lx, 46, 20, 20)
		dc.Fill()
		dc.SetColor(sw.c)
		dc.DrawRectangle(lx+2, 48, 16, 16)
		dc.Fill()
		dc.SetColor(egInk)
		drawText(dc, sw.text, egLabelPx, lx+26, 56, 0, 0.36)
		lx += 26 + textWidth(sw.text, egLabelPx) + 24
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, dc.Image()); err != nil {
		return nil, fmt.Errorf("imaging: encode the evaluation graph: %w", err)
	}
	return buf.Bytes(), nil
}

// marks returns where each mark's dot is (the position after the move)
// and the box of its label (zero without a label). g is valid.
func (g EvalGraph) marks() (dots [][2]float64, boxes []labelBox) {
	n := len(g.Win)
	x0, y0 := float64(egLeft), float64(egTop)
	pw, ph := float64(egW-egLeft-egRight), float64(egH-egTop-egBottom)
	dots = make([][2]float64, len(g.Marks))
	for k, m := range g.Marks {
		dots[k] = [2]float64{x0 + pw*float64(m+1)/float64(n-1), y0 + ph*(1-g.Win[m+1])}
	}
	widths := make([]float64, len(g.Marks))
	for k, label := range g.MarkLabels {
		if label != "" {
			widths[k] = textWidth(label, egLabelPx)
		}
	}
	return dots, layoutMarkLabels(dots, widths, labelBox{x0, y0, x0 + pw, y0 + ph})
}

// labelBox is a rectangle of the graph, x0 < x1 and y0 < y1 (y grows
// downwards).
type labelBox struct{ x0, y0, x1, y1 float64 }

func (a labelBox) overlaps(b labelBox) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

func (a labelBox) inside(b labelBox) bool {
	return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1
}

// nearest is the point of the box closest to (x, y).
func (a labelBox) nearest(x, y float64) (float64, float64) {
	return max(a.x0, min(a.x1, x)), max(a.y0, min(a.y1, y))
}

// layoutMarkLabels places the label of each dot (widths[k] its text's
// width, 0: no label) in the plot: beside its dot, above or below it,
// right or left, and when those places are taken, one or more label rows
// further away, at the first place that covers no other label and no dot.
// Turning points one ply apart have dots a few pixels apart, so labels
// placed naively would cover each other.
func layoutMarkLabels(dots [][2]float64, widths []float64, plot labelBox) []labelBox {
	h := egLabelPx*1.1 + 2
	dotBox := func(d [2]float64) labelBox {
		return labelBox{d[0] - egDotR, d[1] - egDotR, d[0] + egDotR, d[1] + egDotR}
	}
	boxes := make([]labelBox, len(dots))
	var placed []labelBox
	for k, d := range dots {
		if widths[k] == 0 {
			continue
		}
		w := widths[k] + 2*egLabelPad
		free := func(b labelBox) bool {
			if !b.inside(plot) {
				return false
			}
			for _, p := range placed {
				if b.overlaps(p) {
					return false
				}
			}
			for _, o := range dots {
				if b.overlaps(dotBox(o)) {
					return false
				}
			}
			return true
		}
		// The first choice is the old place: right of the dot, the text's
		// baseline 14 px above it.
		top := d[1] - 14 - egLabelPx*0.85
		found := false
		var best labelBox
		for row := 0; row < 40 && !found; row++ {
			// Rows alternate above and below the first, further each time.
			off := float64((row+1)/2) * h
			if row%2 == 1 {
				off = -off
			}
			for _, y := range []float64{top + off, d[1] + egDotR + 2 + off} {
				for _, x := range []float64{d[0] + 12, d[0] - 12 - w} {
					b := labelBox{x, y, x + w, y + h - 2}
					if row == 0 && y == top && x == d[0]+12 {
						best = b
					}
					if free(b) {
						best, found = b, true
						break
					}
				}
				if found {
					break
				}
			}
		}
		if !found {
			// No free place (more labels than the plot holds): keep the
			// first choice, moved inside the plot.
			dx := max(0, plot.x0-best.x0) - max(0, best.x1-plot.x1)
			dy := max(0, plot.y0-best.y0) - max(0, best.y1-plot.y1)
			best = labelBox{best.x0 + dx, best.y0 + dy, best.x1 + dx, best.y1 + dy}
		}
		boxes[k] = best
		placed = append(placed, best)
	}
	return boxes
}

// tickStep is the spacing of ply labels: about eight along the axis.
func tickStep(plies int) int {
	for _, s := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500} {
		if plies/s <= 8 {
			return s
		}
	}
	return 1000
}
