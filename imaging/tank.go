package imaging

import (
	"fmt"
	"image"
	"math"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// Tank Chess: obstacles as hatched blocks, pieces as top-down tanks turned
// to their facing, wrecks burnt on scorched ground; the last move's squares,
// its line of fire (an arc for a mortar), CHECK threat lines and escape
// routes drawn over them.

func init() { drawers["tank"] = tankDrawer{} }

type tankDrawer struct{}

const maxSide = 26

func (tankDrawer) draw(pos engine.Position, opt Options) (frame, error) {
	wd := newWords(opt)
	p, ok := pos.(*tank.Position)
	if !ok {
		return frame{}, fmt.Errorf("imaging: tank position of unexpected type %T", pos)
	}
	fw, fh := p.Width(), p.Height()
	if fw < 1 || fh < 1 || fw > maxSide || fh > maxSide {
		return frame{}, fmt.Errorf("imaging: tank board %d×%d out of range", fw, fh)
	}
	var last *tank.Move
	switch m := opt.Last.(type) {
	case nil:
	case tank.Move:
		last = &m
	case *tank.Move:
		last = m
	default:
		return frame{}, fmt.Errorf("imaging: last move of type %T is not a tank move", opt.Last)
	}
	on := func(s tank.Square) bool { return s.File >= 0 && s.Rank >= 0 && s.File < fw && s.Rank < fh }
	if last != nil && (!on(last.From) || (!last.Escape && (!on(last.To) || (last.HasTarget && !on(last.Target))))) {
		return frame{}, fmt.Errorf("imaging: last move %v leaves the %d×%d board", *last, fw, fh)
	}

	b := boardFor(grid{files: fw, ranks: fh, flip: opt.Flip})
	img, release := b.newFrame()
	cv := canvas{img: img, q: quantLUT()}

	// Square backgrounds: the last move, the piece just hit, the CLTs in
	// danger or able to escape.
	var bgs [maxSide * maxSide]uint8
	setBg := func(s tank.Square, c uint8) {
		if on(s) {
			bgs[s.Rank*fw+s.File] = c
		}
	}
	ann := p.Announce()
	for _, l := range ann.Threats {
		setBg(l.To, cCheckBg)
	}
	for _, l := range ann.Escapes {
		setBg(l.From, cEscapeBg)
	}
	if last != nil {
		setBg(last.From, cMoveBg)
		if !last.Escape {
			setBg(last.To, cMoveBg)
			if last.HasTarget {
				setBg(last.Target, cHitBg)
			}
		}
	}

	orientBase := uint8(0)
	if opt.Flip {
		orientBase = 4
	}
	for r := 0; r < fh; r++ {
		for f := 0; f < fw; f++ {
			sq := tank.Square{File: f, Rank: r}
			c := p.At(sq)
			x, y := b.origin(f, r)
			bg := bgs[r*fw+f]
			if bg == 0 {
				bg = cField // cFrame (0) never marks a square
			}
			switch {
			case c.Obstacle:
				blit(img, rockTile(b.in), x, y)
			case c.Piece.Kind != tank.None:
				blit(img, tankSprite(spriteKey{
					kind: c.Piece.Kind, side: c.Piece.Side, wreck: c.Piece.Wreck,
					orient: (uint8(c.Piece.Facing) + orientBase) & 7, bg: bg, in: b.in,
				}), x, y)
			case bg != cField:
				fill(img, image.Rect(x, y, x+b.in, y+b.in), bg)
			}
		}
	}

	cell := float64(b.cell)
	lw := math.Max(2, cell*0.06)
	// CHECK: from each threatening piece, its drive to the square it would
	// fire from (the shortest of its threats), then the line of fire.
	for _, i := range threatsByPiece(ann) {
		l, path := ann.Threats[i], ann.ThreatPaths[i]
		drive(cv, b, path, lw*0.6, cThreat)
		a, z := b.center(l.From.File, l.From.Rank), b.center(l.To.File, l.To.Rank)
		if l.Indirect {
			arc(cv, a, z, cell, lw*0.8, cThreat, true)
		} else {
			ray(cv, a, z, cell, lw*0.8, cThreat, true)
		}
	}
	// ESCAPE: the CLT's shortest way off, along its real route.
	if i := shortest(ann.EscapePaths); i >= 0 {
		path := ann.EscapePaths[i]
		if len(path) >= 2 {
			drive(cv, b, path[:len(path)-1], lw*0.8, cEscape)
			exit := path[len(path)-2]
			lead := 0.30 // clear of the CLT when it leaves from its own square
			if len(path) > 2 {
				lead = 0 // continue the drive without a gap
			}
			escapeArrow(cv, b, exit, path[len(path)-1], lw*0.8, lead)
		}
	}
	if last != nil {
		switch {
		case last.Escape:
			off := tank.Square{File: last.From.File, Rank: fh} // beyond White's far edge
			if mover(p) == engine.Black {
				off.Rank = -1
			}
			escapeArrow(cv, b, last.From, off, lw, 0.30)
		case last.HasTarget:
			a, z := b.center(last.To.File, last.To.Rank), b.center(last.Target.File, last.Target.Rank)
			if p.At(last.To).Piece.Kind == tank.HM {
				arc(cv, a, z, cell, lw, cMortar, false)
			} else {
				ray(cv, a, z, cell, lw, cShot, false)
			}
			cv.star(z, cell*0.24, cell*0.11, cImpact)
		}
	}

	var banners []pillKey
	st := outcome(p, opt)
	if o, over := outcomeBanner(wd, st); over {
		banners = append(banners, o)
	} else {
		if ann.Check {
			banners = append(banners, checkPill(wd))
		}
		if ann.Escape {
			banners = append(banners, pillKey{text: wd.t("image.escape"), fg: cInk, bg: cEscape, chip: -1})
		}
	}
	drawHeader(img, b.w, turnText(wd, p, st, tankReason), banners)
	return frame{img: img, pitch: b.cell, release: release}, nil
}

func tankReason(r engine.Reason) string {
	switch r {
	case tank.ReasonCLTDestroyed:
		return "CLT destroyed"
	case tank.ReasonEscape:
		return "CLT escaped"
	}
	return reasonText(r)
}

// mover is the side that made the last move.
func mover(p *tank.Position) engine.Side {
	if w, ok := p.Status().Winner(); ok && p.Status().Reason == tank.ReasonEscape {
		return w
	}
	return p.Turn().Opponent()
}

// ray is a straight line of fire from the shooter's square towards the
// target's, ending in an arrow head short of the target's centre.
func ray(cv canvas, a, z pt, cell, w float64, col uint8, dashed bool) {
	arrow(cv, a, z, 0.32, 0.30, cell, w, col, dashed)
}

// arrow is a straight line from a towards z, starting from*cell past a's
// centre and ending in an arrow head whose tip is to*cell short of z's.
func arrow(cv canvas, a, z pt, from, to, cell, w float64, col uint8, dashed bool) {
	l := math.Hypot(z.x-a.x, z.y-a.y)
	if l == 0 {
		return
	}
	ux, uy := (z.x-a.x)/l, (z.y-a.y)/l
	s := pt{a.x + ux*cell*from, a.y + uy*cell*from}
	tip := pt{z.x - ux*cell*to, z.y - uy*cell*to}
	head := cell * 0.30
	e := pt{tip.x - ux*head*0.8, tip.y - uy*head*0.8}
	dash, gap := 0.0, 0.0
	if dashed {
		dash, gap = cell*0.32, cell*0.2
	}
	cv.line(s, e, w, col, dash, gap)
	cv.arrowHead(tip, ux, uy, head, col)
}

// arc is a mortar's shot: a curve bulging to the shooter's left.
func arc(cv canvas, a, z pt, cell, w float64, col uint8, dashed bool) {
	l := math.Hypot(z.x-a.x, z.y-a.y)
	if l == 0 {
		return
	}
	ux, uy := (z.x-a.x)/l, (z.y-a.y)/l
	ctl := pt{(a.x+z.x)/2 + uy*l*0.45, (a.y+z.y)/2 - ux*l*0.45}
	at := func(t float64) pt {
		u := 1 - t
		return pt{u*u*a.x + 2*u*t*ctl.x + t*t*z.x, u*u*a.y + 2*u*t*ctl.y + t*t*z.y}
	}
	// Trim the ends so the arc leaves the shooter and stops short of the
	// target, then fit the arrow head along the last tangent.
	const n = 24
	t0, t1 := 0.12, 0.80
	var pts []pt
	for i := 0; i <= n; i++ {
		pts = append(pts, at(t0+(t1-t0)*float64(i)/n))
	}
	end := pts[len(pts)-1]
	tip := at(0.93)
	tx, ty := tip.x-end.x, tip.y-end.y
	tl := math.Hypot(tx, ty)
	for pass, c := range []uint8{cInk, col} {
		r := w
		if pass == 0 {
			r = w + 1.4
		}
		for i := 0; i+1 < len(pts); i++ {
			if dashed && i%3 == 2 {
				continue
			}
			cv.capsule(pts[i], pts[i+1], r, c)
		}
	}
	if tl > 0 {
		cv.arrowHead(tip, tx/tl, ty/tl, cell*0.30, col)
	}
}

// escapeArrow runs from a CLT's square towards the off-board square to,
// stopping inside the image (in the coordinate band beyond the grid).
// The line starts lead squares past from's centre.
func escapeArrow(cv canvas, b *board, from, to tank.Square, w, lead float64) {
	a, z := b.center(from.File, from.Rank), b.center(to.File, to.Rank)
	l := math.Hypot(z.x-a.x, z.y-a.y)
	if l == 0 {
		return
	}
	ux, uy := (z.x-a.x)/l, (z.y-a.y)/l
	// Stop where the line would leave the image, less a small border.
	lim := l
	border := 3.0
	if ux > 0 {
		lim = min(lim, (float64(b.w)-border-a.x)/ux)
	} else if ux < 0 {
		lim = min(lim, (border-a.x)/ux)
	}
	if uy > 0 {
		lim = min(lim, (float64(b.h)-border-a.y)/uy)
	} else if uy < 0 {
		lim = min(lim, (float64(headerPx)+border-a.y)/uy)
	}
	tip := pt{a.x + ux*lim, a.y + uy*lim}
	s := pt{a.x + ux*float64(b.cell)*lead, a.y + uy*float64(b.cell)*lead}
	head := float64(b.cell) * 0.32
	cv.line(s, pt{tip.x - ux*head*0.8, tip.y - uy*head*0.8}, w, cEscape, 0, 0)
	cv.arrowHead(tip, ux, uy, head, cEscape)
}

// threatsByPiece picks, for each threatening piece, the threat it reaches
// by the shortest drive: one route per piece keeps the picture readable
// (the CLT's square is marked anyway).
func threatsByPiece(a tank.Announce) []int {
	best := map[tank.Square]int{}
	var order []tank.Square
	for i, p := range a.ThreatPaths {
		if len(p) == 0 {
			continue
		}
		j, seen := best[p[0]]
		if !seen {
			order = append(order, p[0])
			best[p[0]] = i
		} else if len(p) < len(a.ThreatPaths[j]) {
			best[p[0]] = i
		}
	}
	out := make([]int, 0, len(order))
	for _, s := range order {
		out = append(out, best[s])
	}
	return out
}

// shortest is the index of the shortest path, -1 if none.
func shortest(ps [][]tank.Square) int {
	best := -1
	for i, p := range ps {
		if best < 0 || len(p) < len(ps[best]) {
			best = i
		}
	}
	return best
}

// drive draws a piece's route through the centres of its squares, leaving
// the piece's own square clear.
func drive(cv canvas, b *board, path []tank.Square, w float64, col uint8) {
	for i := 1; i < len(path); i++ {
		a := b.center(path[i-1].File, path[i-1].Rank)
		z := b.center(path[i].File, path[i].Rank)
		if i == 1 {
			l := math.Hypot(z.x-a.x, z.y-a.y)
			a = pt{a.x + (z.x-a.x)/l*float64(b.cell)*0.34, a.y + (z.y-a.y)/l*float64(b.cell)*0.34}
		}
		cv.line(a, z, w, col, 0, 0)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
