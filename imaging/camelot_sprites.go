package imaging

import (
	"math"

	"github.com/fogleman/gg"
	"github.com/tankbot/tankbot/engine"
)

// Camelot tiles: one per piece (or ghost, or none) × square background ×
// castle or not, each a whole square drawn on first use. A game touches a
// few dozen of them (5 pieces + 2 ghosts, 5 backgrounds, 2 grounds).

type camTileKey struct {
	piece  byte // 'K' 'M' 'k' 'm', or 0 for an empty square
	ghost  bool // a piece captured by the last move: faded and crossed out
	bg     uint8
	castle bool
	in     int
}

var camTiles cache[camTileKey, *tile]

func camTile(k camTileKey) *tile {
	return camTiles.get(k, func() *tile { return drawCamTile(k) })
}

func drawCamTile(k camTileKey) *tile {
	bg := k.bg
	if bg == 0 {
		bg = cField
		if k.castle {
			bg = camPaved
		}
	}
	return paint(k.in, k.in, bg, func(dc *gg.Context) {
		s := float64(k.in)
		if k.castle {
			camTower(dc, s)
		}
		if k.piece == 0 {
			return
		}
		side := engine.White
		if k.piece == 'k' || k.piece == 'm' {
			side = engine.Black
		}
		// In a castle the piece is drawn smaller so the tower stays visible.
		r := 1.0
		if k.castle {
			r = 0.8
		}
		if k.ghost {
			camGhost(dc, s, r, side)
			return
		}
		camPiece(dc, s, r, side, k.piece == 'K' || k.piece == 'k')
	})
}

// Castle stone: the paving inside the tower (the square's background).
const camPaved = cRock

// camTower draws a castle square as a tower seen from above: a dark wall
// along the square's edges crowned with light merlons (battlements), so the
// square reads as a castle whatever stands inside.
func camTower(dc *gg.Context, s float64) {
	wall := math.Round(s * 0.17)
	dc.SetColor(rgba(cRockDark))
	dc.DrawRectangle(0, 0, s, wall)
	dc.DrawRectangle(0, s-wall, s, wall)
	dc.DrawRectangle(0, 0, wall, s)
	dc.DrawRectangle(s-wall, 0, wall, s)
	dc.Fill()
	// Merlons: 4 per side, corners included, with crenels between them.
	const n = 4
	step := (s - wall) / (n - 1)
	for i := 0; i < n; i++ {
		o := math.Round(float64(i) * step)
		for _, r := range [][2]float64{{o, 0}, {o, s - wall}, {0, o}, {s - wall, o}} {
			dc.DrawRectangle(r[0]+1.5, r[1]+1.5, wall-3, wall-3)
		}
	}
	dc.SetColor(rgba(cRockLight))
	dc.Fill()
}

// camColours: body, the lighter top, and the outline, which contrasts with
// the body (dark on White, light on Black) as the tanks' do.
func camColours(side engine.Side) (body, top, line uint8) {
	if side == engine.White {
		return cWhiteHull, cWhiteTurret, cWhiteLine
	}
	return cBlackHull, cBlackTurret, cBlackLine
}

// camPiece is a Man (a disc with a raised ring, like a draughts piece) or a
// Knight (a disc with a horse's head in the outline colour).
func camPiece(dc *gg.Context, s, scale float64, side engine.Side, knight bool) {
	c := s / 2
	r := s * 0.36 * scale
	if knight {
		r = s * 0.39 * scale
	}
	lw := math.Max(1.6, s*0.045)
	body, top, line := camColours(side)
	// Drop shadow, so pieces stand off the square.
	dc.SetRGBA255(0, 0, 0, 90)
	dc.DrawCircle(c+s*0.025, c+s*0.04, r+lw/2)
	dc.Fill()

	dc.DrawCircle(c, c, r)
	fillStroke(dc, body, line, lw)
	if !knight {
		dc.DrawCircle(c, c, r*0.6)
		dc.SetColor(rgba(top))
		dc.FillPreserve()
		dc.SetColor(rgba(line))
		dc.SetLineWidth(lw * 0.75)
		dc.Stroke()
		return
	}
	// A second rim inside the first marks the Knight even at a glance.
	dc.DrawCircle(c, c, r-lw*1.6)
	dc.SetLineWidth(lw * 0.5)
	dc.Stroke()
	camHorse(dc, c, c, r*1.25, line)
}

// camHorseShape is a knight's head facing left in a unit box (0..1, y down).
var camHorseShape = []pt{
	{.30, .95}, {.86, .95}, {.84, .70}, {.80, .46}, {.72, .26}, {.62, .15},
	{.60, .03}, {.52, .10}, {.44, .09}, {.34, .17}, {.24, .31}, {.12, .48},
	{.10, .58}, {.17, .66}, {.30, .63}, {.42, .57}, {.38, .72},
}

func camHorse(dc *gg.Context, cx, cy, size float64, col uint8) {
	for i, v := range camHorseShape {
		x, y := cx+(v.x-.5)*size, cy+(v.y-.52)*size
		if i == 0 {
			dc.MoveTo(x, y)
		} else {
			dc.LineTo(x, y)
		}
	}
	dc.ClosePath()
	dc.SetColor(rgba(col))
	dc.Fill()
}

// camGhost is a captured piece: a faded disc of its side with a red cross.
// The position after the move no longer says whether it was a Knight or a
// Man, so the ghost is the same for both.
func camGhost(dc *gg.Context, s, scale float64, side engine.Side) {
	c := s / 2
	r := s * 0.36 * scale
	body, _, line := camColours(side)
	bc, lc := rgba(body), rgba(line)
	dc.DrawCircle(c, c, r)
	dc.SetRGBA255(int(bc.R), int(bc.G), int(bc.B), 120)
	dc.FillPreserve()
	dc.SetRGBA255(int(lc.R), int(lc.G), int(lc.B), 150)
	dc.SetLineWidth(math.Max(1.4, s*0.035))
	dc.SetDash(s*0.06, s*0.045)
	dc.Stroke()
	dc.SetDash()
	d := r * 0.72
	for pass, col := range []uint8{cInk, cShot} {
		w := s * 0.09
		if pass == 0 {
			w += 3
		}
		dc.SetLineWidth(w)
		dc.SetLineCap(gg.LineCapRound)
		dc.SetColor(rgba(col))
		dc.DrawLine(c-d, c-d, c+d, c+d)
		dc.DrawLine(c-d, c+d, c+d, c-d)
		dc.Stroke()
	}
}
