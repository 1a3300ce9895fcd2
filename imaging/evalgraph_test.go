package imaging

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func decodeGraph(t *testing.T, g EvalGraph) image.Image {
	t.Helper()
	b, err := RenderEvalGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if s := img.Bounds().Size(); s.X != egW || s.Y != egH {
		t.Fatalf("size %v", s)
	}
	return img
}

// White's share is under the curve, Black's above it; a marked swing is
// red where it lands; the labels (Thai included) draw.
func TestEvalGraphPixels(t *testing.T) {
	win := make([]float64, 41)
	for i := range win {
		win[i] = 0.8
		if i > 20 {
			win[i] = 0.2 // White blundered at move 20 (0-based)
		}
	}
	img := decodeGraph(t, EvalGraph{
		Win: win, Marks: []int{20}, MarkLabels: []string{"21. ถ้าเดิน"},
		Title: "alice vs bob", White: "alice", Black: "bob", Axis: "ply",
	})
	pw, ph := egW-egLeft-egRight, egH-egTop-egBottom
	X := func(i int) int { return egLeft + pw*i/(len(win)-1) }
	Y := func(w float64) int { return egTop + int(float64(ph)*(1-w)) }
	check := func(what string, x, y int, want color.RGBA) {
		t.Helper()
		if c := img.At(x, y); !near(c, want, 12) {
			t.Errorf("%s at (%d,%d): %v, want %v", what, x, y, c, want)
		}
	}
	check("White's share before the blunder", X(5), Y(0.4), egWhite)
	check("Black's share before the blunder", X(5), Y(0.95), egBlack)
	check("White's share after", X(35), Y(0.1), egWhite)
	check("Black's share after", X(35), Y(0.6), egBlack)
	check("the curve", X(10), Y(0.8), egLine)
	check("the mark", X(21), Y(0.2), egMark)
	check("the mark's bar", X(21), Y(0.5), egMark)
	// The title is ink on the white margin.
	ink := 0
	for x := egLeft; x < egLeft+200; x++ {
		for y := 10; y < 40; y++ {
			if near(img.At(x, y), egInk, 12) {
				ink++
			}
		}
	}
	if ink < 100 {
		t.Errorf("no title drawn (%d ink pixels)", ink)
	}
}

func TestEvalGraphErrors(t *testing.T) {
	for _, g := range []EvalGraph{
		{Win: []float64{0.5}},
		{Win: []float64{0.5, 1.5}},
		{Win: []float64{0.5, 0.4}, Marks: []int{1}},
		{Win: []float64{0.5, 0.4}, Marks: []int{0}, MarkLabels: []string{"a", "b"}},
	} {
		if _, err := RenderEvalGraph(g); err == nil {
			t.Errorf("%+v accepted", g)
		}
	}
	// A long game's axis has a readable number of ticks.
	if s := tickStep(400); 400/s > 8 {
		t.Errorf("tick step %d for 400 plies", s)
	}
}

// Turning points one ply apart (and others two to four apart, at the
// plot's edges and corners): every label is drawn inside the plot, no
// label box covers another or any dot, and the labels' red ink is where
// the boxes are.
func TestEvalGraphLabelsDoNotOverlap(t *testing.T) {
	for _, c := range []struct {
		name  string
		win   []float64
		marks []int
	}{
		{"one ply apart", swingSeries(40, 20, 21, 22), []int{20, 21, 22}},
		{"two to four apart", swingSeries(60, 10, 12, 16), []int{10, 12, 16}},
		{"at the end", swingSeries(24, 20, 21, 22), []int{20, 21, 22}},
		{"at the start, at the top", []float64{0.5, 1, 1, 1, 0.98, 1, 1, 1}, []int{0, 1, 2}},
		{"short game, all at the bottom", []float64{0.5, 0, 0, 0.02, 0}, []int{0, 1, 2, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := EvalGraph{Win: c.win, Marks: c.marks, Title: "a vs b"}
			for _, m := range c.marks {
				g.MarkLabels = append(g.MarkLabels, fmt.Sprintf("%d. G10xG12", m/2+1))
			}
			dots, boxes := g.marks()
			plot := labelBox{egLeft, egTop, egW - egRight, egH - egBottom}
			for k, b := range boxes {
				if b.x1-b.x0 < 50 || b.y1-b.y0 < egLabelPx {
					t.Errorf("label %d: box %+v too small for its text", k, b)
				}
				if !b.inside(plot) {
					t.Errorf("label %d: box %+v outside the plot %+v", k, b, plot)
				}
				for j, o := range boxes[:k] {
					if b.overlaps(o) {
						t.Errorf("labels %d and %d overlap: %+v, %+v", j, k, o, b)
					}
				}
				for j, d := range dots {
					if b.overlaps(labelBox{d[0] - egDotR, d[1] - egDotR, d[0] + egDotR, d[1] + egDotR}) {
						t.Errorf("label %d covers dot %d", k, j)
					}
				}
			}
			img := decodeGraph(t, g)
			for k, b := range boxes {
				red := 0
				for x := int(b.x0); x < int(b.x1); x++ {
					for y := int(b.y0); y < int(b.y1); y++ {
						if near(img.At(x, y), egMark, 40) {
							red++
						}
					}
				}
				if red < 30 {
					t.Errorf("label %d: %d red pixels in its box", k, red)
				}
			}
		})
	}
}

// swingSeries is a game of n plies, level but for a big swing at each
// of the given moves (alternately down and up).
func swingSeries(n int, at ...int) []float64 {
	win := make([]float64, n+1)
	w := 0.5
	for i := range win {
		win[i] = w
		for k, a := range at {
			if i == a {
				w = [2]float64{0.15, 0.85}[k%2]
			}
		}
	}
	return win
}
