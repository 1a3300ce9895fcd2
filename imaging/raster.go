package imaging

import (
	"image"
	"math"
)

// Overlays that change every frame (lines of fire, arcs, arrows, impact
// marks) are rasterised straight into the paletted frame: each pixel's
// coverage blends the palette colour underneath towards the overlay colour
// and the quantiser table picks the palette entry. Only the few hundred
// pixels an overlay touches are visited.

type pt struct{ x, y float64 }

type canvas struct {
	img *image.Paletted
	q   []uint8
}

func (c canvas) blend(x, y int, col uint8, cov float64) {
	if cov <= 0 || x < 0 || y < 0 || x >= c.img.Rect.Dx() || y >= c.img.Rect.Dy() {
		return
	}
	i := y*c.img.Stride + x
	c.img.Pix[i] = mix(c.q, c.img.Pix[i], col, int32(cov*256+0.5))
}

// set paints a pixel fully.
func (c canvas) set(x, y int, col uint8) {
	if x >= 0 && y >= 0 && x < c.img.Rect.Dx() && y < c.img.Rect.Dy() {
		c.img.Pix[y*c.img.Stride+x] = col
	}
}

// capsule fills the segment a-b thickened to radius r with round ends.
func (c canvas) capsule(a, b pt, r float64, col uint8) {
	dx, dy := b.x-a.x, b.y-a.y
	l2 := dx*dx + dy*dy
	x0 := int(math.Floor(min(a.x, b.x) - r - 1))
	x1 := int(math.Ceil(max(a.x, b.x) + r + 1))
	y0 := int(math.Floor(min(a.y, b.y) - r - 1))
	y1 := int(math.Ceil(max(a.y, b.y) + r + 1))
	// Walk along the major axis and visit only a band around the line.
	steep := math.Abs(dy) > math.Abs(dx)
	band := r + 2
	if l2 > 0 {
		if steep {
			band = (r+1)*math.Sqrt(l2)/math.Abs(dy) + 1
		} else {
			band = (r+1)*math.Sqrt(l2)/math.Abs(dx) + 1
		}
	}
	outer2 := (r + 0.5) * (r + 0.5)
	inner2 := 0.0
	if r > 0.5 {
		inner2 = (r - 0.5) * (r - 0.5)
	}
	cov := func(px, py int) {
		fx, fy := float64(px)+0.5, float64(py)+0.5
		t := 0.0
		if l2 > 0 {
			t = ((fx-a.x)*dx + (fy-a.y)*dy) / l2
			t = min(max(t, 0), 1)
		}
		ex, ey := fx-(a.x+t*dx), fy-(a.y+t*dy)
		d2 := ex*ex + ey*ey
		switch {
		case d2 >= outer2:
			// outside: nothing to do
		case d2 <= inner2:
			c.set(px, py, col)
		default:
			c.blend(px, py, col, r+0.5-math.Sqrt(d2))
		}
	}
	if steep {
		for y := y0; y <= y1; y++ {
			xc := a.x + (float64(y)+0.5-a.y)*dx/dy
			for x := max(x0, int(xc-band)); x <= min(x1, int(xc+band)); x++ {
				cov(x, y)
			}
		}
		return
	}
	for x := x0; x <= x1; x++ {
		yc := a.y
		if dx != 0 {
			yc = a.y + (float64(x)+0.5-a.x)*dy/dx
		}
		for y := max(y0, int(yc-band)); y <= min(y1, int(yc+band)); y++ {
			cov(x, y)
		}
	}
}

// polygon fills a simple polygon, anti-aliased: coverage comes from the
// distance to the nearest edge, signed by an even-odd inside test.
func (c canvas) polygon(p []pt, col uint8) {
	n := len(p)
	if n < 3 {
		return
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, v := range p {
		x0, y0 = min(x0, v.x), min(y0, v.y)
		x1, y1 = max(x1, v.x), max(y1, v.y)
	}
	for y := int(math.Floor(y0)) - 1; y <= int(math.Ceil(y1)); y++ {
		for x := int(math.Floor(x0)) - 1; x <= int(math.Ceil(x1)); x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			inside := false
			d2 := math.Inf(1)
			for i := range p {
				a, b := p[i], p[(i+1)%n]
				if (a.y > fy) != (b.y > fy) && fx < a.x+(fy-a.y)*(b.x-a.x)/(b.y-a.y) {
					inside = !inside
				}
				d2 = min(d2, segDist2(fx, fy, a, b))
			}
			switch {
			case inside && d2 >= 0.25:
				c.set(x, y, col)
			case inside:
				c.blend(x, y, col, 0.5+math.Sqrt(d2))
			case d2 < 0.25:
				c.blend(x, y, col, 0.5-math.Sqrt(d2))
			}
		}
	}
}

func segDist2(x, y float64, a, b pt) float64 {
	dx, dy := b.x-a.x, b.y-a.y
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = min(max(((x-a.x)*dx+(y-a.y)*dy)/l2, 0), 1)
	}
	ex, ey := x-(a.x+t*dx), y-(a.y+t*dy)
	return ex*ex + ey*ey
}

// line draws a segment with a dark outline so it reads on any square.
// dash > 0 splits it into dashes of that length with gaps of gap.
func (c canvas) line(a, b pt, r float64, col uint8, dash, gap float64) {
	segs := dashes(a, b, dash, gap)
	for _, s := range segs {
		c.capsule(s[0], s[1], r+1.4, cInk)
	}
	for _, s := range segs {
		c.capsule(s[0], s[1], r, col)
	}
}

func dashes(a, b pt, dash, gap float64) [][2]pt {
	l := math.Hypot(b.x-a.x, b.y-a.y)
	if dash <= 0 || l <= dash {
		return [][2]pt{{a, b}}
	}
	ux, uy := (b.x-a.x)/l, (b.y-a.y)/l
	var out [][2]pt
	for s := 0.0; s < l; s += dash + gap {
		e := min(s+dash, l)
		out = append(out, [2]pt{{a.x + ux*s, a.y + uy*s}, {a.x + ux*e, a.y + uy*e}})
	}
	return out
}

// arrowHead draws a filled, outlined triangle with its tip at tip pointing
// along (ux, uy), of length l.
func (c canvas) arrowHead(tip pt, ux, uy, l float64, col uint8) {
	w := l * 0.62
	base := pt{tip.x - ux*l, tip.y - uy*l}
	tri := func(grow float64) []pt {
		t := pt{tip.x + ux*grow*1.6, tip.y + uy*grow*1.6}
		bb := pt{base.x - ux*grow, base.y - uy*grow}
		ww := w + grow*1.6
		return []pt{t, {bb.x - uy*ww, bb.y + ux*ww}, {bb.x + uy*ww, bb.y - ux*ww}}
	}
	c.polygon(tri(1.5), cInk)
	c.polygon(tri(0), col)
}

// star draws an 8-pointed burst centred on p: the impact mark of a shot.
func (c canvas) star(p pt, rOut, rIn float64, col uint8) {
	const n = 8
	poly := func(g float64) []pt {
		v := make([]pt, 0, 2*n)
		for i := 0; i < 2*n; i++ {
			r := rOut + g
			if i%2 == 1 {
				r = rIn + g
			}
			a := float64(i)*math.Pi/n - math.Pi/2
			v = append(v, pt{p.x + math.Cos(a)*r, p.y + math.Sin(a)*r})
		}
		return v
	}
	c.polygon(poly(1.6), cInk)
	c.polygon(poly(0), col)
}
