package imaging

import (
	"image"
	"math"
	"strconv"
	"strings"

	"github.com/fogleman/gg"
	"github.com/tankbot/tankbot/engine"
)

// The header strip above the board says whose turn it is on the left and
// carries the banner (CHECK, ESCAPE, WHITE WINS, ...) on the right. Its
// pieces are text tiles, cached by content.

const headerFont = 18

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
		dc := gg.NewContext(1, 1)
		dc.SetFontFace(face(headerFont))
		tw, _ := dc.MeasureString(k.text)
		h := headerPx - 12
		pad := 12.0
		chipW := 0.0
		if k.chip >= 0 {
			chipW = float64(h) + 2
		}
		w := int(math.Ceil(tw + 2*pad + chipW))
		return paint(w, h, cHeader, func(dc *gg.Context) {
			dc.SetFontFace(face(headerFont))
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
			dc.DrawStringAnchored(k.text, pad+chipW, float64(h)/2, 0, 0.36)
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
func outcomeBanner(o engine.Outcome) (pillKey, bool) {
	switch o.Result {
	case engine.WhiteWins:
		return pillKey{text: "WHITE WINS", fg: cInk, bg: cBannerWin, chip: -1}, true
	case engine.BlackWins:
		return pillKey{text: "BLACK WINS", fg: cInk, bg: cBannerWin, chip: -1}, true
	case engine.Draw:
		return pillKey{text: "DRAW", fg: cInk, bg: cBannerWin, chip: -1}, true
	}
	return pillKey{}, false
}

// turnText is the left side of the header; reason words a game-over
// reason (each game knows its own).
func turnText(pos engine.Position, reason func(engine.Reason) string) pillKey {
	o := pos.Status()
	if o.Over() {
		return pillKey{text: "Game over · " + reason(o.Reason), fg: cHeaderText, bg: cHeader, chip: -1}
	}
	side := pos.Turn()
	t := "White to move"
	if side == engine.Black {
		t = "Black to move"
	}
	if n, ok := pos.(interface{ MoveNumber() int }); ok && n.MoveNumber() > 0 {
		t = "Move " + strconv.Itoa(n.MoveNumber()) + " · " + t
	}
	return pillKey{text: t, fg: cHeaderText, bg: cHeader, chip: int8(side)}
}

// reasonText words the reasons every game shares.
func reasonText(r engine.Reason) string {
	switch r {
	case engine.ReasonNoMoves:
		return "no legal move"
	case engine.ReasonNone:
		return "over"
	}
	return strings.ReplaceAll(string(r), "-", " ")
}
