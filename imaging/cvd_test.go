package imaging

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"testing"
)

// The sides of every game must be told apart without colour vision: by
// lightness (and the outline that goes with it), never by hue alone. The
// test simulates colour vision deficiency on the rendered PNGs with the
// matrices of Machado, Oliveira and Fernandes (2009), severity 1.0, applied
// in linear RGB, and measures the WCAG 2 contrast ratio between the mean
// simulated colour of one side's piece fills and the other's.

// minSideContrast is the smallest contrast ratio allowed between the two
// sides' piece fills under any simulation: 4.5:1, WCAG's level for normal
// text, above the 3:1 it asks of graphical objects (docs/imaging.md lists
// the measured ratios).
const minSideContrast = 4.5

type cvdSim struct {
	name string
	m    [3][3]float64
}

var cvdSims = []cvdSim{
	{"normal vision", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
	{"protanopia", [3][3]float64{
		{0.152286, 1.052583, -0.204868},
		{0.114503, 0.786281, 0.099216},
		{-0.003882, -0.048116, 1.051998}}},
	{"deuteranopia", [3][3]float64{
		{0.367322, 0.860646, -0.227968},
		{0.280085, 0.672501, 0.047413},
		{-0.011820, 0.042940, 0.968881}}},
	{"tritanopia", [3][3]float64{
		{1.255528, -0.076749, -0.178779},
		{-0.078411, 0.930809, 0.147602},
		{0.004733, 0.691367, 0.303900}}},
}

func srgbToLinear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// simulate is the linear RGB colour a viewer with deficiency s sees for an
// sRGB pixel, clamped to the displayable range.
func (s cvdSim) simulate(r, g, b uint8) [3]float64 {
	in := [3]float64{srgbToLinear(r), srgbToLinear(g), srgbToLinear(b)}
	var out [3]float64
	for i := range out {
		out[i] = min(1, max(0, s.m[i][0]*in[0]+s.m[i][1]*in[1]+s.m[i][2]*in[2]))
	}
	return out
}

// contrastRatio is WCAG 2's (L1 + 0.05) / (L2 + 0.05) of two linear colours.
func contrastRatio(a, b [3]float64) float64 {
	la := 0.2126*a[0] + 0.7152*a[1] + 0.0722*a[2]
	lb := 0.2126*b[0] + 0.7152*b[1] + 0.0722*b[2]
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// fillPair is the fill colour of the same kind of piece on either side.
type fillPair struct {
	what         string
	white, black uint8
}

// sideContrast decodes a rendered PNG and, for each simulation, returns the
// contrast between the mean simulated colour of the pixels drawn in the
// white fill and of those drawn in the black fill. It fails when either
// fill is absent: the check must look at pieces, not at nothing.
func sideContrast(t *testing.T, name string, pngBytes []byte, p fillPair) map[string]float64 {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(pngBytes))
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	wc, bc := keyOrCube(p.white), keyOrCube(p.black)
	out := map[string]float64{}
	for _, s := range cvdSims {
		var sum [2][3]float64
		var n [2]int
		for i := 0; i < len(rgba.Pix); i += 4 {
			px := [3]uint8{rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2]}
			side := -1
			switch px {
			case wc:
				side = 0
			case bc:
				side = 1
			}
			if side < 0 {
				continue
			}
			c := s.simulate(px[0], px[1], px[2])
			for k := range c {
				sum[side][k] += c[k]
			}
			n[side]++
		}
		if n[0] < 100 || n[1] < 100 {
			t.Fatalf("%s: %s fills: %d white and %d black pixels, too few to measure", name, p.what, n[0], n[1])
		}
		var mean [2][3]float64
		for sd := range mean {
			for k := range mean[sd] {
				mean[sd][k] = sum[sd][k] / float64(n[sd])
			}
		}
		out[s.name] = contrastRatio(mean[0], mean[1])
	}
	return out
}

func keyOrCube(i uint8) [3]uint8 {
	c := palette[i]
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

func checkSides(t *testing.T, name string, pngBytes []byte, pairs ...fillPair) {
	t.Helper()
	for _, p := range pairs {
		got := sideContrast(t, name, pngBytes, p)
		for _, s := range cvdSims {
			c := got[s.name]
			if c < minSideContrast {
				t.Errorf("%s, %s, %s: contrast between the sides' fills %.2f:1 < %.1f:1", name, p.what, s.name, c, minSideContrast)
			}
			t.Logf("%s, %s, %s: %.2f:1", name, p.what, s.name, c)
		}
	}
}

// TestColourBlindSides: every game's rendered boards keep the two sides
// apart under simulated protanopia, deuteranopia and tritanopia.
func TestColourBlindSides(t *testing.T) {
	tankFills := []fillPair{{"tank hull", cWhiteHull, cBlackHull}, {"wreck", cWreckWhite, cWreckBlack}}
	// Every tank variant (both sides' wrecks included) on one board, and a
	// game position through Render.
	b := boardFor(grid{files: 16, ranks: 16})
	img, release := b.newFrame()
	for i, v := range tankVariants(b.in) {
		x, y := tankGeometry{b}.at(i)
		v.put(img, x, y)
	}
	checkSides(t, "tank, every variant", encodePNG(img, b.cell), tankFills...)
	release()
	var sc scenario
	for _, s := range scenarios {
		if s.name == "midgame" {
			sc = s
		}
	}
	pos, opt := sc.position(t)
	_, out := render(t, pos, opt)
	checkSides(t, "tank midgame", out, tankFills[0])

	gp, gopt := gungiScenario(t, "midgame")
	_, out = render(t, gp, gopt)
	checkSides(t, "gungi midgame", out, fillPair{"piece", cWhiteTurret, cBlackHull})

	cp, copt := camScenario(t, "camelot_charge").position(t)
	_, out = render(t, cp, copt)
	checkSides(t, "camelot charge", out, fillPair{"piece", cWhiteHull, cBlackHull})
}

// TestColourBlindCheckCanFail: the measure sees what hue hides. Pure red
// pieces against black ones clear the floor for normal vision (5.3:1) and
// must fall under it for a viewer without red cones, for whom red is dark.
func TestColourBlindCheckCanFail(t *testing.T) {
	for _, s := range cvdSims {
		c := contrastRatio(s.simulate(255, 0, 0), s.simulate(0, 0, 0))
		t.Logf("red / black, %s: %.2f:1", s.name, c)
		if pass := c >= minSideContrast; pass != (s.name != "protanopia") {
			t.Errorf("red / black, %s: %.2f:1 against the floor %.1f:1", s.name, c, minSideContrast)
		}
	}
}
