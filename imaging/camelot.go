package imaging

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"sync"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
)

// Camelot: the 160-square board in its real shape (the cut corners are not
// drawn as squares), lying on its side: the ranks run across the picture
// (the viewer's castle on the left), the files down it, so the 16 × 12
// board fills a landscape picture the way Discord's preview box is shaped
// (docs/imaging.md), the castles as stone towers, Men as plain discs and
// Knights as discs with a horse's head; the last move's route drawn step by
// step (canters blue, jumps red) with the pieces it captured as crossed-out
// ghosts; the duty to capture or to leave the own castle as a pill.

func init() { drawers["camelot"] = camelotDrawer{} }

type camelotDrawer struct{}

const (
	camFiles = 12
	camRanks = 16
	camCell  = 52 // 16 ranks × 52 px across: an image 881 × 713 px
)

// camSq is a square as file + rank*camFiles (A1 = 0), the engine's layout.
type camSq int

var (
	// camExists and camNames come from the engine so that the board's shape
	// is stated once.
	camExists [camFiles * camRanks]bool
	camNames  [camFiles * camRanks]string
	camOnList []camSq // existing squares, A1 first
	// camCastle is 1+side for the castle squares, 0 elsewhere.
	camCastle [camFiles * camRanks]int8
)

func init() {
	for _, n := range camelot.Squares() {
		s, ok := parseCamName(n)
		if !ok {
			continue
		}
		camExists[s] = true
		camNames[s] = n
		camOnList = append(camOnList, s)
	}
	// Castles (rules §1): F1 G1 are White's, F16 G16 Black's.
	for _, f := range []int{5, 6} {
		camCastle[f] = 1
		camCastle[15*camFiles+f] = 2
	}
}

// parseCamName reads "E7" / "C10" as a grid square, without checking that
// the board has it.
func parseCamName(n string) (camSq, bool) {
	if len(n) < 2 || len(n) > 3 {
		return 0, false
	}
	f := int(n[0]|0x20) - 'a'
	r, err := strconv.Atoi(n[1:])
	if err != nil || f < 0 || f >= camFiles || r < 1 || r > camRanks || n[1] == '0' {
		return 0, false
	}
	return camSq((r-1)*camFiles + f), true
}

// camSquare reads a square name of the board; false for anything else.
func camSquare(n string) (camSq, bool) {
	s, ok := parseCamName(n)
	return s, ok && camExists[s]
}

func (s camSq) file() int { return int(s) % camFiles }
func (s camSq) rank() int { return int(s) / camFiles }

// camMove is a last move checked against the board.
type camMove struct {
	from, to camSq
	route    []camSq
	captured []camSq
}

func camLastMove(last engine.Move) (*camMove, error) {
	var m camelot.Move
	switch v := last.(type) {
	case nil:
		return nil, nil
	case camelot.Move:
		m = v
	case *camelot.Move:
		if v == nil {
			return nil, nil
		}
		m = *v
	default:
		return nil, fmt.Errorf("imaging: last move of type %T is not a camelot move", last)
	}
	bad := func(what, n string) error {
		return fmt.Errorf("imaging: last move %v: %s %q is not a square of the Camelot board", m, what, n)
	}
	var out camMove
	var ok bool
	if out.from, ok = camSquare(m.From()); !ok {
		return nil, bad("start", m.From())
	}
	if out.to, ok = camSquare(m.To()); !ok {
		return nil, bad("end", m.To())
	}
	for _, n := range m.Route() {
		s, ok := camSquare(n)
		if !ok {
			return nil, bad("landing", n)
		}
		out.route = append(out.route, s)
	}
	for _, n := range m.Captured() {
		s, ok := camSquare(n)
		if !ok {
			return nil, bad("captured square", n)
		}
		out.captured = append(out.captured, s)
	}
	if len(out.route) == 0 {
		out.route = []camSq{out.to}
	}
	return &out, nil
}

func (camelotDrawer) draw(pos engine.Position, opt Options) (frame, error) {
	wd := newWords(opt)
	p, ok := pos.(*camelot.Position)
	if !ok || p == nil {
		return frame{}, fmt.Errorf("imaging: camelot position of unexpected type %T", pos)
	}
	last, err := camLastMove(opt.Last)
	if err != nil {
		return frame{}, err
	}

	b := camBoardFor(opt.Flip)
	img, release := b.newFrame()
	cv := canvas{img: img, q: quantLUT()}

	// Square backgrounds, later marks winning: the pieces bound by a duty,
	// then the last move's ends and the squares it emptied.
	var bgs [camFiles * camRanks]uint8
	anns := p.Announcements()
	var banners []pillKey
	st := outcome(p, opt)
	o, over := outcomeBanner(wd, st)
	if over {
		banners = append(banners, o)
	}
	for _, a := range anns {
		switch a.Kind {
		case engine.AnnounceMustLeave:
			if !over {
				banners = append(banners, pillKey{text: wd.t("image.must-leave"), fg: cInk, bg: cMortar, chip: -1})
			}
		case engine.AnnounceMustCapture:
			if !over {
				banners = append(banners, pillKey{text: wd.t("image.must-capture"), fg: cWhiteTurret, bg: cThreat, chip: -1})
			}
		default:
			continue
		}
		for _, l := range a.Lines {
			if s, ok := camSquare(l[0]); ok {
				bgs[s] = cEscapeBg
			}
		}
	}
	ghost := map[camSq]bool{}
	if last != nil {
		bgs[last.from] = cMoveBg
		bgs[last.to] = cMoveBg
		for _, s := range last.captured {
			bgs[s] = cHitBg
			ghost[s] = true
		}
	}
	// The captured pieces belong to the side that did not just move; which
	// kind they were the position no longer says.
	victim := byte('m')
	if p.Turn() == engine.White {
		victim = 'M'
	}

	for _, s := range camOnList {
		pc := p.At(camNames[s])
		bg := bgs[s]
		if pc == 0 && bg == 0 {
			continue // the base layer already shows the empty square
		}
		k := camTileKey{piece: pc, bg: bg, castle: camCastle[s] != 0, in: b.in}
		if pc == 0 && ghost[s] {
			k.piece, k.ghost = victim, true
		}
		x, y := b.origin(s)
		blit(img, camTile(k), x, y)
	}

	if last != nil {
		camRoute(cv, b, last)
	}
	drawHeader(img, b.w, turnText(wd, p, st, camelotReason), banners)
	return frame{img: img, pitch: b.cell, release: release}, nil
}

// camRoute draws each canter and jump of the last move as an arrow from
// landing to landing. A plain move is shown by its two highlighted squares
// alone, as in Tank Chess.
func camRoute(cv canvas, b *camBoard, m *camMove) {
	capd := map[camSq]bool{}
	for _, s := range m.captured {
		capd[s] = true
	}
	cell := float64(b.cell)
	lw := math.Max(2, cell*0.055)
	prev := m.from
	for _, s := range m.route {
		df, dr := s.file()-prev.file(), s.rank()-prev.rank()
		if max(abs(df), abs(dr)) == 2 {
			// A leap: over a piece it captured (a jump) or over its own (a
			// canter, which never passes a captured square).
			col := camCanterCol
			if mid := camSq(int(prev) + df/2 + dr/2*camFiles); capd[mid] {
				col = cShot
			}
			a, z := b.center(prev), b.center(s)
			camStep(cv, a, z, cell, lw, col)
		}
		prev = s
	}
}

// camStep is one leap: a line from near the centre of the square left to an
// arrow head short of the centre of the square landed on.
func camStep(cv canvas, a, z pt, cell, w float64, col uint8) {
	arrow(cv, a, z, 0.18, 0.16, cell, w, col, false)
}

// camCanterCol is a clear blue from the colour cube (exact in the palette).
var camCanterCol = cubeIndex(0, 153, 255)

// cubeIndex is the palette index of a colour of the 6×6×6 cube (channels
// multiples of 51).
func cubeIndex(r, g, b int) uint8 { return uint8(numKeys + r/51*36 + g/51*6 + b/51) }

func camelotReason(r engine.Reason) string {
	switch r {
	case camelot.ReasonCastle:
		return "castle taken"
	case camelot.ReasonAllCaptured:
		return "all pieces captured"
	case camelot.ReasonInsufficient:
		return "too few pieces"
	}
	return reasonText(r)
}

// camBoard is the static layer of the Camelot board seen from one side:
// frame, header strip, the 160 squares with grid lines and a rim around the
// board's outline, the castles, and coordinates on all four sides.
type camBoard struct {
	flip   bool
	cell   int
	in     int
	margin int
	w, h   int
	bx, by int
	base   *image.Paletted
	frames sync.Pool
}

var camBoards cache[bool, *camBoard]

func camBoardFor(flip bool) *camBoard {
	return camBoards.get(flip, func() *camBoard { return newCamBoard(flip) })
}

func newCamBoard(flip bool) *camBoard {
	b := &camBoard{flip: flip, cell: camCell, in: camCell - 1}
	b.margin = 14 + camCell/5
	b.w = 2*b.margin + camRanks*b.cell + 1
	b.h = headerPx + 2*b.margin + camFiles*b.cell + 1
	b.bx, b.by = b.margin, headerPx+b.margin
	img := image.NewPaletted(image.Rect(0, 0, b.w, b.h), palette)
	fill(img, img.Rect, cFrame)
	fill(img, image.Rect(0, 0, b.w, headerPx), cHeader)
	// A 3 px rim follows the outline, 1 px lines part the squares: each
	// existing square paints its grown cell first, interiors come after.
	for _, s := range camOnList {
		x, y := b.origin(s)
		fill(img, image.Rect(x-3, y-3, x+b.in+3, y+b.in+3), cGrid)
	}
	for _, s := range camOnList {
		x, y := b.origin(s)
		if camCastle[s] != 0 {
			blit(img, camTile(camTileKey{castle: true, in: b.in}), x, y)
		} else {
			fill(img, image.Rect(x, y, x+b.in, y+b.in), cField)
		}
	}
	b.drawCoords(img)
	b.base = img
	return b
}

// origin is the top-left pixel of a square's interior. The board is the
// usual picture (the viewer's side at the bottom) turned a quarter clockwise:
// rank 1 on the left and file A at the top, or, flipped, rank 16 on the left
// and file L at the top.
func (b *camBoard) origin(s camSq) (x, y int) {
	col, row := s.rank(), s.file()
	if b.flip {
		col, row = camRanks-1-s.rank(), camFiles-1-s.file()
	}
	return b.bx + col*b.cell + 1, b.by + row*b.cell + 1
}

func (b *camBoard) center(s camSq) pt {
	x, y := b.origin(s)
	h := float64(b.in) / 2
	return pt{float64(x) + h, float64(y) + h}
}

func (b *camBoard) newFrame() (*image.Paletted, func()) {
	img, _ := b.frames.Get().(*image.Paletted)
	if img == nil {
		img = image.NewPaletted(b.base.Rect, palette)
	}
	copy(img.Pix, b.base.Pix)
	return img, func() { b.frames.Put(img) }
}

// drawCoords writes the rank numbers above and below every column and the
// file letters beside every row, as players write them (upper case).
func (b *camBoard) drawCoords(img *image.Paletted) {
	size := float64(b.margin) * 0.62
	for r := 0; r < camRanks; r++ {
		t := textTile(strconv.Itoa(r+1), size, cCoord, cFrame, b.in, b.margin-3)
		x, _ := b.origin(camSq(r * camFiles))
		blit(img, t, x, b.by-b.margin)
		blit(img, t, x, b.by+camFiles*b.cell+4)
	}
	for f := 0; f < camFiles; f++ {
		t := textTile(string(rune('A'+f)), size, cCoord, cFrame, b.margin-3, b.in)
		_, y := b.origin(camSq(f))
		blit(img, t, 0, y)
		blit(img, t, b.bx+camRanks*b.cell+4, y)
	}
}
