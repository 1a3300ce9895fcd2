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

// shape is a piece type's silhouette, in fractions of the square.
type shape struct {
	hw, hl  float64 // hull half width, half length
	track   float64 // track width
	turret  float64 // turret radius; 0 for the turretless TD and HM
	turretY float64 // turret centre, + is towards the rear
	barrel  float64 // barrel tip, from the centre
	bw      float64 // barrel half width
	label   string
}

var shapes = map[tank.Kind]shape{
	tank.HT:  {hw: .32, hl: .38, track: .09, turret: .21, turretY: .04, barrel: .495, bw: .055, label: "HT"},
	tank.MT:  {hw: .28, hl: .34, track: .075, turret: .19, turretY: .04, barrel: .47, bw: .045, label: "MT"},
	tank.LT:  {hw: .245, hl: .29, track: .065, turret: .17, turretY: .04, barrel: .43, bw: .035, label: "LT"},
	tank.CLT: {hw: .245, hl: .29, track: .065, turret: .17, turretY: .04, barrel: .43, bw: .035, label: "CLT"},
	tank.TD:  {hw: .28, hl: .36, track: .075, turretY: .08, barrel: .495, bw: .05, label: "TD"},
	tank.HM:  {hw: .28, hl: .33, track: .075, turretY: .06, barrel: .36, bw: .10, label: "HM"},
}

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

// sideColours: hull, turret, tracks, outline, label, label halo.
func sideColours(side engine.Side, wreck bool) (hull, turret, track, line, text, halo uint8) {
	if side == engine.White {
		if wreck {
			return cWreckWhite, cWreckWhite, cSoot, cWhiteLine, cInk, cWreckWhite
		}
		return cWhiteHull, cWhiteTurret, cWhiteTrack, cWhiteLine, cInk, cWhiteTurret
	}
	if wreck {
		return cWreckBlack, cWreckBlack, cSoot, cBlackLine, cBlackLine, cBlackTrack
	}
	return cBlackHull, cBlackTurret, cBlackTrack, cBlackLine, cBlackLine, cBlackTrack
}

func drawTank(k spriteKey) *tile {
	sh := shapes[k.kind]
	return paint(k.in, k.in, k.bg, func(dc *gg.Context) {
		s := float64(k.in)
		c := s / 2
		hull, turret, track, line, text, halo := sideColours(k.side, k.wreck)
		lw := math.Max(1.3, s*0.034)
		if k.wreck {
			// Scorched ground under the wreck: overlapping soft blots.
			sc := keyColors[cSoot]
			dc.SetRGBA255(int(sc.R), int(sc.G), int(sc.B), 70)
			for _, d := range [][3]float64{{-.2, .12, .17}, {.2, -.1, .16}, {.12, .22, .15}, {-.16, -.2, .14}, {0, 0, .3}} {
				dc.DrawCircle(c+d[0]*s, c+d[1]*s, d[2]*s)
				dc.Fill()
			}
		}
		dc.Push()
		dc.RotateAbout(float64(k.orient)*math.Pi/4, c, c)
		// Local frame: (0,0) is the centre, -y is forward.
		X := func(f float64) float64 { return c + f*s }
		hw, hl := sh.hw, sh.hl
		// Hull.
		dc.DrawRoundedRectangle(X(-hw), X(-hl), 2*hw*s, 2*hl*s, s*0.05)
		dc.SetColor(rgba(hull))
		dc.FillPreserve()
		dc.SetColor(rgba(line))
		dc.SetLineWidth(lw)
		dc.Stroke()
		// Tracks, with cross bars so they read as tracks.
		for _, sx := range []float64{-1, 1} {
			x0 := X(sx*hw - (sx+1)/2*sh.track)
			dc.DrawRectangle(x0, X(-hl), sh.track*s, 2*hl*s)
			dc.SetColor(rgba(track))
			dc.Fill()
			dc.SetColor(rgba(line))
			dc.SetLineWidth(math.Max(0.8, s*0.014))
			for y := -hl + 0.06; y < hl; y += 0.085 {
				dc.DrawLine(x0, X(y), x0+sh.track*s, X(y))
				dc.Stroke()
			}
		}
		dc.DrawRoundedRectangle(X(-hw), X(-hl), 2*hw*s, 2*hl*s, s*0.05)
		dc.SetColor(rgba(line))
		dc.SetLineWidth(lw)
		dc.Stroke()

		// A knocked-out turret sits askew.
		ang := 0.0
		if k.wreck {
			ang = 0.6
		}
		switch k.kind {
		case tank.TD:
			// Casemate: a sloped superstructure, the gun fixed in its front.
			dc.MoveTo(X(-hw+sh.track+.02), X(hl-.05))
			dc.LineTo(X(hw-sh.track-.02), X(hl-.05))
			dc.LineTo(X(hw-sh.track-.02), X(-.02))
			dc.LineTo(X(.07), X(-hl+.04))
			dc.LineTo(X(-.07), X(-hl+.04))
			dc.LineTo(X(-hw+sh.track+.02), X(-.02))
			dc.ClosePath()
			dc.SetColor(rgba(turret))
			dc.FillPreserve()
			dc.SetColor(rgba(line))
			dc.Stroke()
			barrel(dc, X, -hl+.04, sh.barrel, sh.bw, turret, line, lw, k.wreck)
		case tank.HM:
			// Mortar: a wide, short tube on a round mount.
			dc.DrawCircle(X(0), X(sh.turretY), .18*s)
			dc.SetColor(rgba(turret))
			dc.FillPreserve()
			dc.SetColor(rgba(line))
			dc.Stroke()
			barrel(dc, X, -.1, sh.barrel, sh.bw, track, line, lw, k.wreck)
			dc.DrawCircle(X(0), X(-sh.barrel), sh.bw*s*0.75)
			dc.SetColor(rgba(cInk))
			dc.Fill()
		default:
			dc.RotateAbout(ang, X(0), X(sh.turretY))
			barrel(dc, X, sh.turretY, sh.barrel, sh.bw, turret, line, lw, k.wreck)
			dc.DrawCircle(X(0), X(sh.turretY), sh.turret*s)
			dc.SetColor(rgba(turret))
			dc.FillPreserve()
			dc.SetColor(rgba(line))
			dc.Stroke()
			if k.kind == tank.CLT {
				// Antenna and a big pennant flying off the rear-left corner,
				// clear of the hull: the command tank at a glance.
				mx, my := -.08, .06
				tx, ty := -.12, .41
				dc.SetLineWidth(math.Max(1.2, s*0.03))
				dc.SetColor(rgba(line))
				dc.DrawLine(X(mx), X(my), X(tx), X(ty))
				dc.Stroke()
				dc.MoveTo(X(tx), X(ty))
				dc.LineTo(X(tx), X(ty-.23))
				dc.LineTo(X(-.39), X(ty-.14))
				dc.ClosePath()
				dc.SetColor(rgba(cFlag))
				dc.FillPreserve()
				dc.SetColor(rgba(cInk))
				dc.SetLineWidth(math.Max(1, s*0.025))
				dc.Stroke()
			}
		}
		dc.Pop()

		if k.wreck {
			dc.SetColor(rgba(cEmber))
			for _, e := range [][3]float64{{-.14, -.16, .03}, {.17, .12, .025}, {.05, .2, .02}} {
				dc.DrawCircle(c+e[0]*s, c+e[1]*s, math.Max(1.2, e[2]*s))
				dc.Fill()
			}
		}
		// The label sits upright on the turret (or the TD's casemate, the
		// HM's mount), sized to fit inside it.
		th := float64(k.orient) * math.Pi / 4
		ty := sh.turretY * s
		diam := 2 * sh.turret * s
		if sh.turret == 0 {
			diam = 0.36 * s
		}
		px := math.Min(0.27*s, diam*0.95/(0.66*float64(len(sh.label))))
		label(dc, sh.label, c-ty*math.Sin(th), c+ty*math.Cos(th), math.Max(px, 9), text, halo)
	})
}

// barrel draws a gun from y0 forward to -tip (local frame, -y forward).
func barrel(dc *gg.Context, X func(float64) float64, y0, tip, bw float64, fillC, line uint8, lw float64, wreck bool) {
	if wreck {
		tip -= .08 // burst barrel
	}
	dc.DrawRectangle(X(-bw), X(-tip), X(bw)-X(-bw), X(y0)-X(-tip))
	dc.SetColor(rgba(fillC))
	dc.FillPreserve()
	dc.SetColor(rgba(line))
	dc.SetLineWidth(lw)
	dc.Stroke()
}

// label writes a piece's short name upright in the middle of its square,
// with a halo so it reads over any part of the tank.
func label(dc *gg.Context, s string, x, y, px float64, fg, halo uint8) {
	dc.SetFontFace(face(px))
	dc.SetColor(rgba(halo))
	r := math.Max(0.8, px/14)
	for a := 0.0; a < 2*math.Pi; a += math.Pi / 4 {
		dc.DrawStringAnchored(s, x+r*math.Cos(a), y+r*math.Sin(a), 0.5, 0.36)
	}
	dc.SetColor(rgba(fg))
	dc.DrawStringAnchored(s, x, y, 0.5, 0.36)
}

// rockTile is an obstacle: a bevelled, hatched block filling its square, so
// obstacles read as terrain and never as pieces.
func rockTile(in int) *tile {
	return rockTiles.get(in, func() *tile {
		return paint(in, in, cRock, func(dc *gg.Context) {
			s := float64(in)
			b := math.Max(2, s*0.08)
			dc.SetColor(rgba(cRockLight))
			dc.MoveTo(0, 0)
			dc.LineTo(s, 0)
			dc.LineTo(s-b, b)
			dc.LineTo(b, b)
			dc.LineTo(b, s-b)
			dc.LineTo(0, s)
			dc.ClosePath()
			dc.Fill()
			dc.SetColor(rgba(cRockDark))
			dc.MoveTo(s, s)
			dc.LineTo(0, s)
			dc.LineTo(b, s-b)
			dc.LineTo(s-b, s-b)
			dc.LineTo(s-b, b)
			dc.LineTo(s, 0)
			dc.ClosePath()
			dc.Fill()
			dc.SetLineWidth(math.Max(1, s*0.03))
			for i := 1; i < 4; i++ {
				o := float64(i) * s / 4
				dc.DrawLine(b+1, o+b/2, o+b/2, b+1)
				dc.DrawLine(o-b/2, s-b-1, s-b-1, o-b/2)
			}
			dc.Stroke()
		})
	})
}
