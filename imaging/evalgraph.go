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

	// Big swings: a red bar over the move and a dot where it landed.
	for k, m := range g.Marks {
		a, b := Y(g.Win[m]), Y(g.Win[m+1])
		dc.SetColor(egMark)
		dc.SetLineWidth(6)
		dc.DrawLine(X(m+1), a, X(m+1), b)
		dc.Stroke()
		dc.DrawCircle(X(m+1), b, 9)
		dc.Fill()
		if g.MarkLabels != nil && g.MarkLabels[k] != "" {
			label := g.MarkLabels[k]
			lx, ax := X(m+1)+12, 0.0
			if lx+textWidth(label, egLabelPx) > x0+pw {
				lx, ax = X(m+1)-12, 1
			}
			ly := b - 14
			if ly < y0+egLabelPx {
				ly = b + egLabelPx + 10
			}
			tw := textWidth(label, egLabelPx)
			bx := lx - ax*tw
			dc.SetRGBA255(255, 255, 255, 225)
			dc.DrawRoundedRectangle(bx-4, ly-egLabelPx*0.85, tw+8, egLabelPx*1.1, 4)
			dc.Fill()
			dc.SetColor(egMark)
			drawText(dc, label, egLabelPx, lx, ly, ax, 0)
		}
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

// tickStep is the spacing of ply labels: about eight along the axis.
func tickStep(plies int) int {
	for _, s := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500} {
		if plies/s <= 8 {
			return s
		}
	}
	return 1000
}
