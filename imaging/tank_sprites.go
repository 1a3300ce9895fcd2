package imaging

import (
	"math"

	"github.com/fogleman/gg"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// Tank Chess tiles: one per piece type × side × screen direction × wreck ×
// square background, drawn on first use and kept for the life of the
// process (at most 6·2·8·2·5 = 960 tiles per square size, ~2 KB each).
//
// The pieces are designed to be read at ~20 px a square, which is what a
// 16×16 board is when Discord shows the image 400 px wide:
//   - the side is lightness: White is a near-white body with black ink,
//     Black a near-black body with white ink;
//   - the type is the silhouette (a big octagonal hull, a medium one, a narrow
//     one, a round command car, a wedge, a round mortar pit; the heavy
//     tank's hull is chamfered so that it is as big turned 45°) and a large
//     upright glyph (H M L ★ D ⊕);
//   - the facing is a gun in the ink colour ending in a wedge whose point
//     touches the square's edge: big enough to point at 300 px wide;
//   - a wreck keeps all of that on a scorched, cracked, mid-tone body.

// shape is a piece type's silhouette, in fractions of the square.
type shape struct {
	form   int     // formHull, formRound, formWedge
	hw, hl float64 // half width, half length (formRound: radius in hw)
	gun    float64 // gun half width
	glyph  string  // "" for a drawn symbol
}

const (
	formHull = iota
	formRound
	formWedge
	formOct // a chamfered square: as big turned 45° as not
)

var shapes = map[tank.Kind]shape{
	tank.HT:  {form: formOct, hw: .43, hl: .43, gun: .085, glyph: "H"},
	tank.MT:  {form: formHull, hw: .32, hl: .37, gun: .07, glyph: "M"},
	tank.LT:  {form: formHull, hw: .24, hl: .33, gun: .065, glyph: "L"},
	tank.CLT: {form: formRound, hw: .36, gun: .075},
	tank.TD:  {form: formWedge, hw: .40, hl: .42, gun: .085, glyph: "D"},
	tank.HM:  {form: formRound, hw: .40, gun: .12},
}

// The facing wedge, in fractions of the square: its length from the point
// back, and its width at the base.
const (
	wedgeLen   = 0.30
	wedgeWidth = 0.62
)

// The plate under the kind mark, in fractions of the square: its radius,
// how far it sits behind the centre (away from the facing), and the kind
// letter's cap height on it. At 400 px wide (21 px squares) the letter is
// about 8 px tall; it was 5 px.
const (
	plateR    = 0.27
	plateBack = 0.07
	glyphCap  = 0.38
)

type spriteKey struct {
	kind   tank.Kind
	side   engine.Side
	orient uint8 // screen direction, 0 = up, clockwise in 45° steps
	wreck  bool
	bg     uint8
	in     int
}

var (
	tankSprites cache[spriteKey, *tile]
	rockTiles   cache[int, *tile]
)

func tankSprite(k spriteKey) *tile {
	return tankSprites.get(k, func() *tile { return drawTank(k) })
}

// sideColours: body, ink (gun, glyph, outline), and the turret disc.
func sideColours(side engine.Side, wreck bool) (body, ink, disc uint8) {
	switch {
	case side == engine.White && wreck:
		return cWreckWhite, cWhiteLine, cWreckWhite
	case side == engine.White:
		return cWhiteHull, cWhiteLine, cWhiteTurret
	case wreck:
		return cWreckBlack, cBlackLine, cWreckBlack
	}
	return cBlackHull, cBlackLine, cBlackTurret
}

func drawTank(k spriteKey) *tile {
	sh := shapes[k.kind]
	return paint(k.in, k.in, k.bg, func(dc *gg.Context) {
		s := float64(k.in)
		c := s / 2
		body, ink, disc := sideColours(k.side, k.wreck)
		lw := math.Max(1.2, s*0.035)
		diag := k.orient%2 == 1
		// A diagonal piece is turned 45°: shrink its body so the corners
		// stay inside the square.
		fit := 1.0
		if diag && (sh.form == formHull || sh.form == formWedge) {
			fit = math.Min(1, 0.94/((sh.hw+sh.hl)*math.Sqrt2))
		}
		if k.wreck {
			// Scorched ground under the wreck.
			sc := keyColors[cSoot]
			dc.SetRGBA255(int(sc.R), int(sc.G), int(sc.B), 110)
			dc.DrawCircle(c, c, 0.5*s)
			dc.Fill()
		}
		dc.Push()
		dc.RotateAbout(float64(k.orient)*math.Pi/4, c, c)
		// Local frame: X maps fractions of the square around the centre;
		// -y is forward.
		X := func(f float64) float64 { return c + f*fit*s }
		hw, hl := sh.hw, sh.hl
		switch sh.form {
		case formHull:
			dc.DrawRoundedRectangle(X(-hw), X(-hl), 2*hw*fit*s, 2*hl*fit*s, s*0.08)
		case formRound:
			dc.DrawCircle(c, c, hw*s)
		case formOct:
			ch := 0.15
			for i, p := range [][2]float64{{-hw + ch, -hl}, {hw - ch, -hl}, {hw, -hl + ch}, {hw, hl - ch}, {hw - ch, hl}, {-hw + ch, hl}, {-hw, hl - ch}, {-hw, -hl + ch}} {
				if i == 0 {
					dc.MoveTo(X(p[0]), X(p[1]))
				} else {
					dc.LineTo(X(p[0]), X(p[1]))
				}
			}
			dc.ClosePath()
		case formWedge:
			dc.MoveTo(X(-hw), X(hl))
			dc.LineTo(X(hw), X(hl))
			dc.LineTo(X(hw*0.4), X(-hl))
			dc.LineTo(X(-hw*0.4), X(-hl))
			dc.ClosePath()
		}
		fillStroke(dc, body, ink, lw)
		if sh.form == formHull || sh.form == formOct {
			// Track lines along both flanks: it is a tank.
			for _, sx := range []float64{-1, 1} {
				x := X(sx * (hw - 0.07))
				dc.DrawLine(x, X(-hl+0.06), x, X(hl-0.06))
			}
			dc.SetLineWidth(math.Max(1, s*0.025))
			dc.Stroke()
		}
		// The gun: from the plate to the square's edge (its corner for a
		// diagonal), in ink, ending in a wedge wider than a light hull.
		// The wedge is the facing mark: a thin barrel alone shrinks to a
		// pixel or two when Discord scales the board to a phone's width, a
		// big wedge of ink at one edge of the square still points
		// (docs/imaging.md).
		reach := 0.5
		if diag {
			reach = 0.5 * math.Sqrt2 * 0.92
		}
		tip := c - reach*s
		wl, wb := wedgeLen*s, wedgeWidth*s
		if diag {
			wl *= 1.25
		}
		base := tip + wl
		gw := sh.gun * s
		if back := c; back > base {
			dc.DrawRectangle(c-gw, base-1, 2*gw, back-base+1)
		}
		dc.MoveTo(c, tip)
		dc.LineTo(c+wb/2, base)
		dc.LineTo(c-wb/2, base)
		dc.ClosePath()
		dc.SetColor(rgba(ink))
		dc.Fill()
		dc.Pop()

		// The plate under the kind mark stays upright and sits a little
		// behind the centre, away from the wedge, so that the wedge shows
		// its full length. Its shape tells the sides apart without their
		// colours: White's is round, Black's square.
		a := float64(k.orient) * math.Pi / 4
		px, py := c-plateBack*s*math.Sin(a), c+plateBack*s*math.Cos(a)
		r := plateR * s
		if k.side == engine.White {
			dc.DrawCircle(px, py, r)
		} else {
			h := r * 0.9
			dc.DrawRoundedRectangle(px-h, py-h, 2*h, 2*h, s*0.05)
		}
		fillStroke(dc, disc, ink, lw*1.2)
		switch {
		case sh.glyph != "":
			glyphFit(dc, sh.glyph, px, py, glyphCap*s, 0.40*s, ink)
		case k.kind == tank.CLT:
			star(dc, px, py, r*0.98, r*0.44)
			dc.SetColor(rgba(cFlag))
			dc.FillPreserve()
			dc.SetColor(rgba(cInk))
			dc.SetLineWidth(math.Max(1, s*0.025))
			dc.Stroke()
		case k.kind == tank.HM:
			// A reticle: the mortar fires over everything at a spot.
			dc.SetColor(rgba(ink))
			dc.SetLineWidth(math.Max(1.6, s*0.06))
			dc.DrawCircle(px, py, r*0.55)
			dc.Stroke()
			dc.DrawLine(px-r*0.9, py, px+r*0.9, py)
			dc.DrawLine(px, py-r*0.9, px, py+r*0.9)
			dc.Stroke()
		}
		if k.wreck {
			// Cracks and embers across the body: destroyed, still readable.
			dc.SetColor(rgba(cEmber))
			dc.SetLineWidth(math.Max(1.2, s*0.04))
			dc.MoveTo(c-0.36*s, c-0.30*s)
			dc.LineTo(c-0.22*s, c-0.12*s)
			dc.LineTo(c-0.30*s, c+0.02*s)
			dc.MoveTo(c+0.36*s, c+0.30*s)
			dc.LineTo(c+0.22*s, c+0.14*s)
			dc.LineTo(c+0.32*s, c+0.02*s)
			dc.Stroke()
		}
	})
}

// glyphFit writes a piece's glyph upright and centred with a cap height
// of capPx, narrowed to at most maxW pixels wide (an M is wider than an L).
func glyphFit(dc *gg.Context, s string, x, y, capPx, maxW float64, col uint8) {
	px := capPx / 0.72
	if w := shapeLine(s, px).width; w > maxW {
		px *= maxW / w
	}
	dc.SetColor(rgba(col))
	drawText(dc, s, px, x, y, 0.5, 0.36)
}

// star adds a five-pointed star path centred on (x, y).
func star(dc *gg.Context, x, y, rOut, rIn float64) {
	for i := 0; i < 10; i++ {
		r := rOut
		if i%2 == 1 {
			r = rIn
		}
		a := float64(i)*math.Pi/5 - math.Pi/2
		if i == 0 {
			dc.MoveTo(x+r*math.Cos(a), y+r*math.Sin(a))
		} else {
			dc.LineTo(x+r*math.Cos(a), y+r*math.Sin(a))
		}
	}
	dc.ClosePath()
}

// rockTile is an obstacle: a flat, muted block with a light hatch. It reads
// as terrain (square, patterned, no ink) and stays quieter than any piece.
func rockTile(in int) *tile {
	return rockTiles.get(in, func() *tile {
		return paint(in, in, cRock, func(dc *gg.Context) {
			s := float64(in)
			dc.SetColor(rgba(cRockDark))
			dc.SetLineWidth(math.Max(1, s*0.035))
			for i := -1; i <= 2; i++ {
				o := float64(i) * s / 3
				dc.DrawLine(o, s, o+s, 0)
			}
			dc.Stroke()
			dc.SetColor(rgba(cRockLight))
			dc.SetLineWidth(math.Max(1, s*0.03))
			dc.DrawRectangle(1, 1, s-2, s-2)
			dc.Stroke()
		})
	})
}
