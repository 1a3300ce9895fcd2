package imaging

import (
	"image"
	"math"
	"strconv"

	"github.com/fogleman/gg"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/gungi"
)

// Gungi tiles, each drawn on first use and kept: a board piece (kind ×
// side × direction × square background × the owners of the tiers under it:
// at most 13·2·2·6·7 = 2,184 of 3.4 KB, a game touches a few dozen), a
// tower chip (13·2·6), a tier number (2·6), a hand slot (kind × side ×
// direction × count 0–9), the hand titles and footers. A tower is composed
// at frame time from a piece tile and its chips, so the cache never holds
// one tile per possible tower.

type komaKey struct {
	kind gungi.Kind
	side engine.Side
	up   bool // points up the screen
	bg   uint8
	// under is the owners of the tiers below a tower's top piece, bottom
	// first, as 1+side each (0: no tier): drawn as slabs under its base.
	under [2]uint8
}

type chipKey struct {
	kind gungi.Kind
	side engine.Side
	bg   uint8
}

type slotKey struct {
	kind  gungi.Kind
	side  engine.Side
	up    bool
	count uint8
}

type badgeKey struct {
	h  int
	bg uint8
}

type titleKey struct {
	side        engine.Side
	name, ready string // ready is "" until the side has finished its draft
}

var (
	gungiKoma    cache[komaKey, *tile]
	gungiChips   cache[chipKey, *tile]
	gungiBadges  cache[badgeKey, *tile]
	gungiSlots   cache[slotKey, *tile]
	gungiTitles  cache[titleKey, *tile]
	gungiFooters cache[string, *tile]
	gungiBox     cache[int, *tile]
)

// gpaint is paint for any palette index as background (paint takes named
// keys only).
func gpaint(w, h int, bg uint8, draw func(dc *gg.Context)) *tile {
	dc := gg.NewContext(w, h)
	dc.SetColor(palette[bg])
	dc.Clear()
	draw(dc)
	return quantise(dc.Image().(*image.RGBA))
}

// komaColours: body, outline, letter. White is light with a dark outline,
// Black dark with a light outline, so the sides differ in lightness and
// outline and read on either Discord theme.
func komaColours(side engine.Side) (body, line, text uint8) {
	if side == engine.Black {
		return cBlackHull, cBlackLine, cBlackLine
	}
	return cWhiteTurret, cWhiteLine, cInk
}

// komaPath is a shogi piece's pentagon centred on (cx, cy), w×h, its point
// up or down the screen.
func komaPath(dc *gg.Context, cx, cy, w, h float64, up bool) {
	s := 1.0
	if !up {
		s = -1
	}
	for i, v := range [][2]float64{{0, -.5}, {.40, -.29}, {.49, .5}, {-.49, .5}, {-.40, -.29}} {
		x, y := cx+v[0]*w*s, cy+v[1]*h*s
		if i == 0 {
			dc.MoveTo(x, y)
		} else {
			dc.LineTo(x, y)
		}
	}
	dc.ClosePath()
}

// drawKoma draws one piece: the pentagon in its owner's colours and the
// GFEN letter upright (turning Latin letters would make M read as W). A
// Marshal gets a gold inner outline. A ghost is a kind with none left in
// hand: outline and letter only, dimmed.
func drawKoma(dc *gg.Context, cx, cy, w, h float64, k gungi.Kind, side engine.Side, up, ghost bool) {
	body, line, text := komaColours(side)
	lw := math.Max(1.6, w*0.05)
	komaPath(dc, cx, cy, w, h, up)
	if ghost {
		dc.SetColor(palette[gGhost])
		dc.SetLineWidth(lw * 0.8)
		dc.Stroke()
		text = gGhost
	} else {
		dc.SetColor(palette[body])
		dc.FillPreserve()
		dc.SetColor(palette[line])
		dc.SetLineWidth(lw)
		dc.Stroke()
		if k == gungi.Marshal {
			komaPath(dc, cx, cy, w*0.78, h*0.8, up)
			dc.SetColor(palette[cFlag])
			dc.SetLineWidth(lw)
			dc.Stroke()
		}
	}
	// The letter sits in the wide part of the pentagon.
	ly := cy + h*0.08
	if !up {
		ly = cy - h*0.08
	}
	// The letter as large as the pentagon allows (it must read at 300 px
	// wide); a ghost's smaller, as it only keeps the kind's place.
	px := h * 0.68
	if ghost {
		px = h * 0.5
	}
	dc.SetColor(palette[text])
	drawText(dc, string(k.Letter()), px, cx, ly, 0.5, 0.38)
}

// boardKoma is a piece on the board: gKomaReg × gIn, the pentagon centred.
// A lone piece is drawn with it in the middle of its square; a tower's top
// with it on the left, beside the tower column.
func boardKoma(k komaKey) *tile {
	return gungiKoma.get(k, func() *tile {
		return gpaint(gKomaReg, gIn, k.bg, func(dc *gg.Context) {
			// A tower is a stack: each tier below the top shows as a slab
			// in its owner's colours under the top piece's base, so the
			// height reads from the silhouette too. Slabs are whole-pixel
			// rectangles: crisp when scaled and cheap to compress.
			n := 0
			for _, u := range k.under {
				if u != 0 {
					n++
				}
			}
			const slab = 6
			cx, cy := gKomaReg/2.0, gIn/2.0
			base := math.Round(cy + gKomaH/2 - float64(n*slab)/2)
			dir := 1.0
			if !k.up {
				base = math.Round(cy - gKomaH/2 + float64(n*slab)/2)
				dir = -1
			}
			cy -= dir * float64(n*slab) / 2
			x0 := math.Round(cx - gKomaW*0.49)
			for i := range n {
				// The tier right under the top piece first.
				body, line, _ := komaColours(engine.Side(k.under[n-1-i] - 1))
				y := base + dir*float64(i*slab)
				if dir < 0 {
					y -= slab
				}
				dc.DrawRectangle(x0, y, math.Round(gKomaW*0.98), slab)
				dc.SetColor(palette[line])
				dc.Fill()
				dc.DrawRectangle(x0+1, y+1, math.Round(gKomaW*0.98)-2, slab-2)
				dc.SetColor(palette[body])
				dc.Fill()
			}
			drawKoma(dc, cx, cy, gKomaW, gKomaH, k.kind, k.side, k.up, false)
		})
	})
}

// towerChip is one tier under a tower's top piece, in the column beside it:
// the owner's colours and the kind's letter.
func towerChip(k chipKey) *tile {
	return gungiChips.get(k, func() *tile {
		return gpaint(gColW, gChipH, k.bg, func(dc *gg.Context) {
			body, line, text := komaColours(k.side)
			dc.DrawRoundedRectangle(1.5, 1, gColW-3, gChipH-2, 3)
			dc.SetColor(palette[body])
			dc.FillPreserve()
			dc.SetColor(palette[line])
			dc.SetLineWidth(1.4)
			dc.Stroke()
			dc.SetColor(palette[text])
			drawText(dc, string(k.kind.Letter()), 18, gColW/2.0, gChipH/2.0, 0.5, 0.38)
		})
	})
}

// tierBadge is a tower's height over its chips.
func tierBadge(h int, bg uint8) *tile {
	return gungiBadges.get(badgeKey{h, bg}, func() *tile {
		return gpaint(gColW, gBadgeH, bg, func(dc *gg.Context) {
			// Light on near-black: the height reads on any square colour
			// and without colour vision.
			dc.DrawRoundedRectangle(0.5, 0.5, gColW-1, gBadgeH-1, 4)
			dc.SetColor(palette[cInk])
			dc.Fill()
			dc.SetColor(palette[cImpact])
			drawText(dc, strconv.Itoa(h), 18, gColW/2.0, gBadgeH/2.0, 0.5, 0.4)
		})
	})
}

// handBox is the rounded box behind one side's hand.
func handBox() *tile {
	return gungiBox.get(0, func() *tile {
		return gpaint(gPanelW, gBoxH, cFrame, func(dc *gg.Context) {
			dc.DrawRoundedRectangle(0.5, 0.5, gPanelW-1, gBoxH-1, 8)
			dc.SetColor(palette[gPanel])
			dc.Fill()
		})
	})
}

// handTitle names the side with a chip in its colours, and says READY
// once it has finished its draft.
func handTitle(k titleKey) *tile {
	side, name, ready := k.side, k.name, k.ready
	return gungiTitles.get(k, func() *tile {
		w, h := gPanelW-12, 24
		return gpaint(w, h, gPanel, func(dc *gg.Context) {
			body, line, _ := komaColours(side)
			r := 8.0
			dc.DrawCircle(r+2, float64(h)/2, r)
			dc.SetColor(palette[body])
			dc.FillPreserve()
			dc.SetColor(palette[line])
			dc.SetLineWidth(2)
			dc.Stroke()
			// The name gives way to the READY badge: smaller type, never
			// overlapping it.
			avail := float64(w) - (2*r + 10) - 2
			if ready != "" {
				avail -= textWidth(ready, readyPx) + 24
			}
			px := 15.0
			if tw := textWidth(name, px); tw > avail {
				px = max(9, px*avail/tw)
			}
			dc.SetColor(palette[gPanelTxt])
			drawText(dc, name, px, 2*r+10, float64(h)/2, 0, 0.38)
			if ready != "" {
				tw := textWidth(ready, readyPx)
				dc.DrawRoundedRectangle(float64(w)-tw-12, 1, tw+10, float64(h)-2, 4)
				dc.SetColor(palette[cEscape])
				dc.Fill()
				dc.SetColor(palette[cInk])
				drawText(dc, ready, readyPx, float64(w)-7-tw/2, float64(h)/2, 0.5, 0.38)
			}
		})
	})
}

// readyPx is the type size of the READY tag: the draft state must read at
// 400 px wide.
const readyPx = 15.0

// handSlot is one kind in a hand: the piece and its count, or a ghost of
// it when none are left, so every kind keeps its place from frame to
// frame.
func handSlot(k slotKey) *tile {
	return gungiSlots.get(k, func() *tile {
		return gpaint(gSlotW, gSlotH, gPanel, func(dc *gg.Context) {
			// The count in 21 px type (9–10 px when the picture is shown
			// 400 px wide): the piece gives up a little width for it.
			const w, h = 29.0, 40.0
			drawKoma(dc, 2+w/2, gSlotH/2.0, w, h, k.kind, k.side, k.up, k.count == 0)
			if k.count == 0 {
				return
			}
			dc.SetColor(palette[gPanelTxt])
			drawText(dc, "×"+strconv.Itoa(int(k.count)), 21, 2+w+1, gSlotH/2.0+h*0.18, 0, 0.38)
		})
	})
}

// handFooter is a side's totals: in hand, and on the board (drops need
// fewer than 26 there, rules §4).
func handFooter(text string) *tile {
	return gungiFooters.get(text, func() *tile {
		// 15 px type (7 px at 400 px wide), smaller only when a language's
		// wording would not fit the panel.
		// A glyph's ink may reach a little past its advance: 2 px of
		// inset on each side keep it inside the box.
		const w, h, inset = gPanelW - 12, 20, 2
		px := 15.0
		if tw := textWidth(text, px); tw > w-2*inset {
			px = max(8, px*(w-2*inset)/tw)
		}
		return gpaint(w, h, gPanel, func(dc *gg.Context) {
			dc.SetColor(palette[gPanelTxt])
			drawText(dc, text, px, inset, h/2, 0, 0.38)
		})
	})
}
