package imaging

import (
	"math"
	"sync"

	"github.com/fogleman/gg"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/font/opentype"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// Text is shaped, not just mapped rune by rune: a string is cut into runs of
// Thai and of everything else, each run is shaped by HarfBuzz with its own
// font, and the glyph outlines are filled at the positions the shaper gives
// (marks above and below Thai consonants included). Shaping only happens
// while tiles are built; the tiles are cached, so a frame never shapes.

// glyph is one shaped glyph: its font, id and pen position in pixels
// (y down, relative to the start of the baseline).
type glyph struct {
	face *font.Face
	id   font.GID
	x, y float64
}

// line is a shaped string.
type line struct {
	glyphs  []glyph
	width   float64
	px      float64
	ascent  float64 // of the Latin font, so mixed lines share one baseline
	descent float64
}

var (
	shaperMu sync.Mutex
	shaper   shaping.HarfbuzzShaper // not safe for concurrent use
	lines    cache[lineKey, *line]
	thaiLang = language.NewLanguage("th")
	enLang   = language.NewLanguage("en")
)

type lineKey struct {
	s  string
	px float64
}

func isThai(r rune) bool { return r >= 0x0E00 && r <= 0x0E7F }

// shapeLine lays s out at px pixels per em.
func shapeLine(s string, px float64) *line {
	return lines.get(lineKey{s, px}, func() *line {
		loadFonts()
		rs := []rune(s)
		l := &line{px: px}
		shaperMu.Lock()
		defer shaperMu.Unlock()
		pen := 0.0
		// The shaper lays a line out at whole pixel sizes (a fractional
		// size came back as wide as the next whole one, so text shrunk to
		// fit a box overflowed it): shape at the whole size above px and
		// scale the positions to px, as drawText scales the outlines.
		size := math.Ceil(px)
		k := px / size
		for start := 0; start < len(rs); {
			// A run is maximal in one script; spaces and punctuation stay
			// with the run they are in.
			thai := isThai(rs[start])
			end := start + 1
			for end < len(rs) && (isThai(rs[end]) == thai || rs[end] == ' ' && end+1 < len(rs) && isThai(rs[end+1]) == thai) {
				end++
			}
			in := shaping.Input{
				Text: rs, RunStart: start, RunEnd: end,
				Direction: di.DirectionLTR,
				Face:      latinFace, Script: language.Latin, Language: enLang,
				Size: fixed.Int26_6(size * 64),
			}
			if thai {
				in.Face, in.Script, in.Language = thaiFace, language.Thai, thaiLang
			}
			out := shaper.Shape(in)
			for _, g := range out.Glyphs {
				l.glyphs = append(l.glyphs, glyph{
					face: in.Face, id: g.GlyphID,
					x: pen + k*f26(g.XOffset), y: -k * f26(g.YOffset),
				})
				pen += k * f26(g.Advance)
			}
			start = end
		}
		l.width = pen
		m, _ := latinFace.FontHExtents()
		scale := px / float64(latinFace.Upem())
		l.ascent, l.descent = float64(m.Ascender)*scale, -float64(m.Descender)*scale
		return l
	})
}

func f26(v fixed.Int26_6) float64 { return float64(v) / 64 }

// textWidth is the advance of s at px.
func textWidth(s string, px float64) float64 { return shapeLine(s, px).width }

// drawText fills s at px with the current colour of dc. (x, y) is the anchor:
// ax is the share of the width left of it (0 left, 0.5 centre, 1 right) and
// ay the share of the em above the baseline it sits at, as in gg's
// DrawStringAnchored (0.36 centres capitals and Thai consonants).
func drawText(dc *gg.Context, s string, px, x, y, ax, ay float64) {
	l := shapeLine(s, px)
	x -= ax * l.width
	y += ay * px
	for _, g := range l.glyphs {
		data, ok := g.face.GlyphData(g.id).(font.GlyphOutline)
		if !ok || len(data.Segments) == 0 {
			continue
		}
		sc := px / float64(g.face.Upem())
		ox, oy := x+g.x, y+g.y
		P := func(p opentype.SegmentPoint) (float64, float64) {
			return ox + float64(p.X)*sc, oy - float64(p.Y)*sc
		}
		for _, seg := range data.Segments {
			switch seg.Op {
			case opentype.SegmentOpMoveTo:
				dc.NewSubPath()
				dc.MoveTo(P(seg.Args[0]))
			case opentype.SegmentOpLineTo:
				dc.LineTo(P(seg.Args[0]))
			case opentype.SegmentOpQuadTo:
				x1, y1 := P(seg.Args[0])
				x2, y2 := P(seg.Args[1])
				dc.QuadraticTo(x1, y1, x2, y2)
			case opentype.SegmentOpCubeTo:
				x1, y1 := P(seg.Args[0])
				x2, y2 := P(seg.Args[1])
				x3, y3 := P(seg.Args[2])
				dc.CubicTo(x1, y1, x2, y2, x3, y3)
			}
		}
		dc.ClosePath()
	}
	dc.SetFillRuleWinding()
	dc.Fill()
}
