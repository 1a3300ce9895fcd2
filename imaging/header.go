package imaging

import (
	"image"
	"math"
	"strconv"

	"github.com/fogleman/gg"
	"github.com/tankbot/tankbot/engine"
)

// The header strip above the board says whose turn it is on the left and
// carries the banner (CHECK, ESCAPE, WHITE WINS, ...) on the right. Its
// pieces are text tiles, cached by content.

const headerFont = 21

type pillKey struct {
	text   string
	fg, bg uint8
	chip   int8 // -1 none, else the engine.Side whose colours the chip shows
}

var pills cache[pillKey, *tile]

// pill is text on a rounded badge of colour bg (cHeader = no badge), with an
// optional side chip before it.
func pill(k pillKey) *tile {
	return pills.get(k, func() *tile {
		tw := textWidth(k.text, headerFont)
		h := headerPx - 12
		pad := 12.0
		chipW := 0.0
		if k.chip >= 0 {
			chipW = float64(h) + 2
		}
		w := int(math.Ceil(tw + 2*pad + chipW))
		return paint(w, h, cHeader, func(dc *gg.Context) {
			if k.bg != cHeader {
				dc.DrawRoundedRectangle(0.5, 0.5, float64(w)-1, float64(h)-1, float64(h)/2)
				dc.SetColor(rgba(k.bg))
				dc.Fill()
			}
			if k.chip >= 0 {
				var body, line uint8 = cWhiteHull, cWhiteLine
				if engine.Side(k.chip) == engine.Black {
					body, line = cBlackHull, cBlackLine
				}
				r := float64(h)/2 - 4
				dc.DrawCircle(pad+r, float64(h)/2, r)
				dc.SetColor(rgba(body))
				dc.FillPreserve()
				dc.SetColor(rgba(line))
				dc.SetLineWidth(2)
				dc.Stroke()
			}
			dc.SetColor(rgba(k.fg))
			drawText(dc, k.text, headerFont, pad+chipW, float64(h)/2, 0, 0.36)
		})
	})
}

// drawHeader puts left and the banner pills (right-aligned) in the header.
func drawHeader(img *image.Paletted, w int, left pillKey, banners []pillKey) {
	y := (headerPx - (headerPx - 12)) / 2
	blit(img, pill(left), 4, y)
	x := w - 8
	for i := len(banners) - 1; i >= 0; i-- {
		t := pill(banners[i])
		x -= t.w
		blit(img, t, x, y)
		x -= 6
	}
}

// outcomeBanner is the game-over pill, or false while the game goes on.
func outcomeBanner(w words, o engine.Outcome) (pillKey, bool) {
	if s, ok := o.Winner(); ok {
		return pillKey{text: w.t("image.wins", w.side(s)), fg: cInk, bg: cBannerWin, chip: int8(s)}, true
	}
	if o.Over() {
		return pillKey{text: w.t("image.draw"), fg: cInk, bg: cBannerWin, chip: -1}, true
	}
	return pillKey{}, false
}

// turnText is the left side of the header: the side to move as a chip and
// words, or the end of the game with its reason (each game knows its own
// English reasons).
func turnText(w words, pos engine.Position, o engine.Outcome, reason func(engine.Reason) string) pillKey {
	if o.Over() {
		return pillKey{text: w.t("image.game-over") + " · " + w.reason(o.Reason, reason), fg: cHeaderText, bg: cHeader, chip: -1}
	}
	side := pos.Turn()
	t := w.t("image.to-move", w.side(side))
	if n, ok := engine.PositionMoveNumber(pos); ok {
		t = w.t("image.move", strconv.Itoa(n)) + " · " + t
	}
	return pillKey{text: t, fg: cHeaderText, bg: cHeader, chip: int8(side)}
}

// checkPill is the CHECK banner.
func checkPill(w words) pillKey {
	return pillKey{text: w.t("image.check"), fg: cWhiteTurret, bg: cThreat, chip: -1}
}
