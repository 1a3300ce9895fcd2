package imaging

import (
	"fmt"
	"image"
	"strconv"
	"sync"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/gungi"
)

// Gungi: a 9×9 wooden board with the hands of both sides in a panel to its
// right. Pieces are shogi-style pentagons pointing towards the opponent
// (their forward), labelled upright with the GFEN letter. A tower shows its
// top piece large and, in a column beside it, one chip per level (bottom
// to top, owner's colours and letter) under the tier number. See the
// section "What the Gungi picture shows" in docs/gungi.md.

func init() { drawers["gungi"] = gungiDrawer{} }

type gungiDrawer struct{}

// Geometry of the Gungi image, in pixels.
const (
	gCell    = 70        // square pitch, grid line included
	gIn      = gCell - 1 // square interior
	gMargin  = 26        // coordinate band around the grid
	gGrid    = 9*gCell + 1
	gPanelX  = 2*gMargin + gGrid // left edge of the hands panel
	gPanelW  = 190
	gW       = gPanelX + gPanelW + 8
	gH       = headerPx + 2*gMargin + gGrid
	gBoardX  = gMargin
	gBoardY  = headerPx + gMargin
	gKomaW   = 42 // a piece on the board
	gKomaH   = 54
	gKomaReg = 49       // width of the region a board piece's tile covers
	gColX    = gKomaReg // the tower column inside a square
	gColW    = gIn - gColX
	gChipH   = 23 // pitch of a tower chip (a tier below the top piece)
	gBadgeH  = 20 // the tier number above the chips
	gSlotW   = 60 // a hand slot
	gSlotH   = 55
	gHandCol = 3
	gTitleH  = 30
)

// Colours that are not named keys: points of the palette's colour cube,
// so flat areas quantise to exactly them.
var (
	gWood     = cubeIdx(204, 153, 102) // squares
	gGridC    = cubeIdx(102, 51, 0)    // grid lines
	gZone     = cubeIdx(255, 204, 153) // draft zone of the side to place
	gMove     = cubeIdx(255, 255, 102) // last action's squares
	gHit      = cubeIdx(255, 153, 102) // square of an attack (the victim's)
	gCheck    = cubeIdx(255, 51, 51)   // the Marshal in check
	gArrow    = cubeIdx(0, 102, 204)   // move / stack arrow, drop frame
	gPanel    = cubeIdx(51, 51, 51)    // hands panel box
	gGhost    = cubeIdx(102, 102, 102) // a kind no longer in hand
	gPanelTxt = cHeaderText
)

// cubeIdx is the palette index of a colour cube point (channels multiples
// of 51).
func cubeIdx(r, g, b int) uint8 { return uint8(numKeys + r/51*36 + g/51*6 + b/51) }

func (gungiDrawer) draw(pos engine.Position, opt Options) (frame, error) {
	wd := newWords(opt)
	p, ok := pos.(*gungi.Position)
	if !ok {
		return frame{}, fmt.Errorf("imaging: gungi position of unexpected type %T", pos)
	}
	var last *gungi.Move
	switch m := opt.Last.(type) {
	case nil:
	case gungi.Move:
		last = &m
	case *gungi.Move:
		last = m
	default:
		return frame{}, fmt.Errorf("imaging: last move of type %T is not a gungi move", opt.Last)
	}
	on := func(s gungi.Square) bool { return s >= 0 && s <= 80 }
	if last != nil {
		switch last.Kind {
		case gungi.KindMove, gungi.KindAttack, gungi.KindStack:
			if !on(last.From) || !on(last.To) {
				return frame{}, fmt.Errorf("imaging: last move %v leaves the board", *last)
			}
		case gungi.KindDrop:
			if !on(last.To) {
				return frame{}, fmt.Errorf("imaging: last drop %v leaves the board", *last)
			}
		case gungi.KindReady, gungi.KindComplete:
			// Nothing on the board to mark.
		default:
			return frame{}, fmt.Errorf("imaging: last move of unknown kind %d", last.Kind)
		}
	}

	l := gungiLayerFor(opt.Flip)
	img, release := l.newFrame()
	cv := canvas{img: img, q: quantLUT()}

	// Square backgrounds, weakest first: the draft zone, the last action,
	// the Marshal in check.
	var bgs [81]uint8
	for i := range bgs {
		bgs[i] = gWood
	}
	if p.InDraft() {
		for s := gungi.Square(0); s < 81; s++ {
			if inHome(p.Turn(), s.Rank()) {
				bgs[s] = gZone
			}
		}
	}
	if last != nil {
		switch last.Kind {
		case gungi.KindMove, gungi.KindStack:
			bgs[last.From], bgs[last.To] = gMove, gMove
		case gungi.KindAttack:
			bgs[last.From], bgs[last.To] = gMove, gHit
		case gungi.KindDrop:
			bgs[last.To] = gMove
		}
	}
	var checks [][2]gungi.Square
	check := false
	for _, a := range p.Announcements() {
		if a.Kind != engine.AnnounceCheck {
			continue
		}
		check = true
		for _, ln := range a.Lines {
			f, ok1 := gungi.ParseSquare(ln[0])
			t, ok2 := gungi.ParseSquare(ln[1])
			if ok1 && ok2 {
				checks = append(checks, [2]gungi.Square{f, t})
			}
		}
	}
	if check {
		if m := p.MarshalSquare(p.Turn()); on(m) {
			bgs[m] = gCheck
		}
	}

	for s := gungi.Square(0); s < 81; s++ {
		x, y := l.origin(s)
		bg := bgs[s]
		if bg != gWood {
			fill(img, image.Rect(x, y, x+gIn, y+gIn), bg)
		}
		t := p.Tower(s)
		if len(t) == 0 {
			continue
		}
		l.drawTower(img, x, y, t, bg)
	}

	cell := float64(gCell)
	lw := 3.0
	for _, c := range checks {
		ray(cv, l.center(c[0]), l.center(c[1]), cell, lw*0.8, cThreat, true)
	}
	if last != nil {
		switch last.Kind {
		case gungi.KindMove, gungi.KindStack:
			ray(cv, l.center(last.From), l.center(last.To), cell, lw, gArrow, false)
		case gungi.KindAttack:
			ray(cv, l.center(last.From), l.center(last.To), cell, lw, cShot, false)
		case gungi.KindDrop:
			// A frame inside the square: the piece came from the hand.
			x, y := l.origin(last.To)
			for _, r := range []image.Rectangle{
				image.Rect(x, y, x+gIn, y+3), image.Rect(x, y+gIn-3, x+gIn, y+gIn),
				image.Rect(x, y, x+3, y+gIn), image.Rect(x+gIn-3, y, x+gIn, y+gIn),
			} {
				fill(img, r, gArrow)
			}
		}
	}

	l.drawHands(img, p, wd)

	left, banners := gungiHeader(wd, p, outcome(p, opt), check)
	drawHeader(img, gW, left, banners)
	return frame{img: img, pitch: gCell, release: release}, nil
}

// inHome mirrors the rules' home ranks: 1–3 for White, 7–9 for Black.
func inHome(s engine.Side, rank int) bool {
	if s == engine.White {
		return rank <= 2
	}
	return rank >= 6
}

// gungiHeader is the header's left text and banners: the draft state or
// the turn, CHECK, the outcome.
func gungiHeader(wd words, p *gungi.Position, o engine.Outcome, check bool) (pillKey, []pillKey) {
	if o.Over() {
		b, _ := outcomeBanner(wd, o)
		return turnText(wd, p, o, gungiReason), []pillKey{b}
	}
	side := p.Turn()
	name := wd.side(side)
	var banners []pillKey
	var left string
	if p.InDraft() {
		left = wd.t("image.draft-place", name)
		if p.Ready(side.Opponent()) {
			left = wd.t("image.draft-alone", name)
		}
		banners = append(banners, pillKey{text: wd.t("image.draft"), fg: cInk, bg: cCoord, chip: -1})
	} else {
		left = wd.t("image.move", strconv.Itoa(p.MoveNumber())) + " · " + wd.t("image.to-move", name)
	}
	if check {
		banners = append(banners, checkPill(wd))
	}
	return pillKey{text: left, fg: cHeaderText, bg: cHeader, chip: int8(side)}, banners
}

func gungiReason(r engine.Reason) string {
	switch r {
	case gungi.ReasonCheckmate:
		return "checkmate"
	case gungi.ReasonStalemate:
		return "stalemate"
	}
	return reasonText(r)
}

// gungiLayer is the static picture for one orientation: frame, header
// strip, squares, grid, coordinates and the empty hand boxes.
type gungiLayer struct {
	flip   bool
	base   *image.Paletted
	frames sync.Pool
}

var gungiLayers cache[bool, *gungiLayer]

func gungiLayerFor(flip bool) *gungiLayer {
	return gungiLayers.get(flip, func() *gungiLayer { return newGungiLayer(flip) })
}

func newGungiLayer(flip bool) *gungiLayer {
	l := &gungiLayer{flip: flip}
	img := image.NewPaletted(image.Rect(0, 0, gW, gH), palette)
	fill(img, img.Rect, cFrame)
	fill(img, image.Rect(0, 0, gW, headerPx), cHeader)
	fill(img, image.Rect(gBoardX, gBoardY, gBoardX+gGrid, gBoardY+gGrid), gGridC)
	for s := gungi.Square(0); s < 81; s++ {
		x, y := l.origin(s)
		fill(img, image.Rect(x, y, x+gIn, y+gIn), gWood)
	}
	// Coordinates as in move notation (rules §8): files a–i, ranks 1–9.
	size := float64(gMargin) * 0.62
	for f := 0; f < 9; f++ {
		t := textTile(string(rune('a'+f)), size, cCoord, cFrame, gIn, gMargin)
		x, _ := l.origin(gungi.Sq(f, 0))
		blit(img, t, x, gBoardY-gMargin)
		blit(img, t, x, gBoardY+gGrid)
	}
	for r := 0; r < 9; r++ {
		t := textTile(strconv.Itoa(r+1), size, cCoord, cFrame, gMargin, gIn)
		_, y := l.origin(gungi.Sq(0, r))
		blit(img, t, 0, y)
		blit(img, t, gBoardX+gGrid, y)
	}
	for _, top := range []bool{true, false} {
		blit(img, handBox(), gPanelX, l.boxY(top))
	}
	l.base = img
	return l
}

func (l *gungiLayer) newFrame() (*image.Paletted, func()) {
	img, _ := l.frames.Get().(*image.Paletted)
	if img == nil {
		img = image.NewPaletted(l.base.Rect, palette)
	}
	copy(img.Pix, l.base.Pix)
	return img, func() { l.frames.Put(img) }
}

// drawTower puts a tower (bottom first) on the square whose interior starts
// at (x, y): a lone piece centred; a tower's top piece on the left and, in
// a column on the right, its height over one chip per tier below the top.
func (l *gungiLayer) drawTower(img *image.Paletted, x, y int, t []gungi.Piece, bg uint8) {
	top := t[len(t)-1]
	k := komaKey{kind: top.Kind, side: top.Side, up: l.up(top.Side), bg: bg}
	if len(t) == 1 {
		blit(img, boardKoma(k), x+(gIn-gKomaReg)/2, y)
		return
	}
	for i, pc := range t[:min(len(t)-1, len(k.under))] {
		k.under[i] = uint8(pc.Side) + 1
	}
	blit(img, boardKoma(k), x, y)
	// The chips are the tiers below the top piece only (the top piece is
	// drawn large beside them), so that two chips fit letters of 18 px:
	// 8 px tall when the picture is 400 px wide.
	below := t[:len(t)-1]
	blit(img, tierBadge(len(t), bg), x+gColX, y+gIn-2-len(below)*gChipH-gBadgeH)
	for i, pc := range below {
		blit(img, towerChip(chipKey{kind: pc.Kind, side: pc.Side, bg: bg}), x+gColX, y+gIn-2-(i+1)*gChipH)
	}
}

// origin is the top-left pixel of a square's interior.
func (l *gungiLayer) origin(s gungi.Square) (x, y int) {
	col, row := s.File(), 8-s.Rank()
	if l.flip {
		col, row = 8-col, 8-row
	}
	return gBoardX + col*gCell + 1, gBoardY + row*gCell + 1
}

func (l *gungiLayer) center(s gungi.Square) pt {
	x, y := l.origin(s)
	return pt{float64(x) + gIn/2.0, float64(y) + gIn/2.0}
}

// up reports whether side's pieces point up the screen: each side's
// pieces point towards the opponent, its forward direction.
func (l *gungiLayer) up(side engine.Side) bool { return (side == engine.White) != l.flip }

// topSide is the side whose home ranks are at the top of the picture; its
// hand is in the upper box.
func (l *gungiLayer) topSide() engine.Side {
	if l.flip {
		return engine.White
	}
	return engine.Black
}

// Hand boxes: one per side, beside that side's half of the board.
const gBoxH = (gH - headerPx - 3*8) / 2

func (l *gungiLayer) boxY(top bool) int {
	if top {
		return headerPx + 8
	}
	return headerPx + 16 + gBoxH
}

// drawHands fills both hand boxes: a title with the side's chip, one slot
// per kind in hand order (count beside the piece, a ghost when none are
// left) and the hand and board totals.
func (l *gungiLayer) drawHands(img *image.Paletted, p *gungi.Position, wd words) {
	for _, top := range []bool{true, false} {
		side := l.topSide()
		if !top {
			side = side.Opponent()
		}
		y0 := l.boxY(top)
		title := titleKey{side: side, name: wd.t("image.hand", wd.side(side))}
		if p.InDraft() && p.Ready(side) {
			title.ready = wd.t("image.ready")
		}
		blit(img, handTitle(title), gPanelX+6, y0+4)
		total := 0
		for i, k := range gungi.Kinds {
			n := p.Hand(side, k)
			total += n
			x := gPanelX + 5 + (i%gHandCol)*gSlotW
			y := y0 + gTitleH + (i/gHandCol)*gSlotH
			blit(img, handSlot(slotKey{kind: k, side: side, up: l.up(side), count: uint8(min(n, 99))}), x, y)
		}
		blit(img, handFooter(wd.t("image.hand-count", strconv.Itoa(total), strconv.Itoa(p.OnBoard(side)))), gPanelX+6, y0+gBoxH-23)
	}
}
