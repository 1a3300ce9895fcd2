package imaging

import (
	"bytes"
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
