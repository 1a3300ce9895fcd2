package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"math"

	"github.com/fogleman/gg"
)

// Tournament pictures: the standings table and the knockout bracket. They
// take plain strings (the caller localises headers and round names and
// formats numbers), shape text like the boards do (Thai included) and are
// sized to stay readable when Discord shows them in a message: a table of
// up to MaxStandingsRows rows is about 720 × 660 px, so scaled into a
// ~550 × 400 preview its 24 px text is still about 14 px tall. Longer
// tables are paged by the caller. Structure (stripes, boxes, connectors) is
// drawn as whole-pixel rectangles, so tests can read exact colours.

// MaxStandingsRows is the most rows one standings image holds.
const MaxStandingsRows = 16

// Standings table geometry (pixels).
const (
	stFont    = 24.0
	stTitleH  = 56
	stHeadH   = 40
	stRowH    = 36
	stPadX    = 14
	stMargin  = 16
	stMaxName = 300 // a player column wider than this truncates names
	stMinW    = 560
)

var (
	stBG      = color.RGBA{0x2b, 0x2d, 0x31, 0xff} // Discord's dark theme
	stHeadBG  = color.RGBA{0x1e, 0x1f, 0x22, 0xff}
	stStripe  = color.RGBA{0x35, 0x37, 0x3c, 0xff}
	stText    = color.RGBA{0xf2, 0xf3, 0xf5, 0xff}
	stDim     = color.RGBA{0x94, 0x9b, 0xa4, 0xff}
	stAccent  = color.RGBA{0xf0, 0xb2, 0x32, 0xff}
	brLine    = color.RGBA{0x80, 0x84, 0x8e, 0xff}
	brBox     = color.RGBA{0x3f, 0x41, 0x47, 0xff}
	brWinner  = color.RGBA{0x23, 0x6b, 0x3e, 0xff}
	brChampBG = color.RGBA{0x6b, 0x4e, 0x12, 0xff}
)

// StandingsTable is what the standings image shows.
type StandingsTable struct {
	Title   string
	Columns []string   // headers, e.g. "#", "Player", "Pts", "BH-1", "SB", "Games"
	Rows    [][]string // one cell per column
	// NameColumn is the column holding names (left-aligned, truncated to
	// fit); the others are centred.
	NameColumn int
	// Dim rows are drawn grey (withdrawn players); Podium rows get the
	// accent colour in their first cell.
	Dim, Podium []bool
}

// ErrTable is a table or bracket that cannot be drawn as given.
var ErrTable = errors.New("imaging: bad table")

// standingsLayout is where everything of a table goes.
type standingsLayout struct {
	colX, colW []int
	w, h       int
}

func layoutStandings(t StandingsTable) (standingsLayout, error) {
	var l standingsLayout
	if len(t.Columns) == 0 || t.NameColumn < 0 || t.NameColumn >= len(t.Columns) {
		return l, fmt.Errorf("%w: %d columns, names in column %d", ErrTable, len(t.Columns), t.NameColumn)
	}
	if len(t.Rows) > MaxStandingsRows {
		return l, fmt.Errorf("%w: %d rows, at most %d per image", ErrTable, len(t.Rows), MaxStandingsRows)
	}
	l.colW = make([]int, len(t.Columns))
	for c, h := range t.Columns {
		l.colW[c] = int(math.Ceil(textWidth(h, stFont)))
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return l, fmt.Errorf("%w: row %d has %d cells for %d columns", ErrTable, i+1, len(r), len(t.Columns))
		}
		for c, cell := range r {
			l.colW[c] = max(l.colW[c], int(math.Ceil(textWidth(cell, stFont))))
		}
	}
	l.colW[t.NameColumn] = min(l.colW[t.NameColumn], stMaxName)
	x := stMargin
	for c := range l.colW {
		l.colW[c] += 2 * stPadX
		l.colX = append(l.colX, x)
		x += l.colW[c]
	}
	l.w = max(x+stMargin, stMinW, int(textWidth(t.Title, stFont*1.2))+2*stMargin)
	if extra := l.w - (x + stMargin); extra > 0 {
		// Give spare width to the name column, keeping the others snug.
		l.colW[t.NameColumn] += extra
		for c := t.NameColumn + 1; c < len(l.colX); c++ {
			l.colX[c] += extra
		}
	}
	l.h = stTitleH + stHeadH + len(t.Rows)*stRowH + stMargin
	return l, nil
}

// rowTop is the y of row i's top edge.
func rowTop(i int) int { return stTitleH + stHeadH + i*stRowH }

func fillRect(dc *gg.Context, x, y, w, h int, c color.Color) {
	dc.SetColor(c)
	dc.DrawRectangle(float64(x), float64(y), float64(w), float64(h))
	dc.Fill()
}

// RenderStandings draws a standings table as a PNG.
func RenderStandings(t StandingsTable) ([]byte, error) {
	l, err := layoutStandings(t)
	if err != nil {
		return nil, err
	}
	dc := gg.NewContext(l.w, l.h)
	dc.SetColor(stBG)
	dc.Clear()
	dc.SetColor(stText)
	drawText(dc, t.Title, stFont*1.2, float64(stMargin), float64(stTitleH)/2, 0, 0.36)
	fillRect(dc, stMargin, stTitleH, l.w-2*stMargin, stHeadH, stHeadBG)
	cell := func(c int, s string, y float64) {
		if c == t.NameColumn {
			drawText(dc, fitW(s, stFont, l.colW[c]-2*stPadX), stFont, float64(l.colX[c]+stPadX), y, 0, 0.36)
			return
		}
		drawText(dc, s, stFont, float64(l.colX[c])+float64(l.colW[c])/2, y, 0.5, 0.36)
	}
	dc.SetColor(stDim)
	for c, h := range t.Columns {
		cell(c, h, float64(stTitleH)+float64(stHeadH)/2)
	}
	for i, r := range t.Rows {
		y := rowTop(i)
		if i%2 == 1 {
			fillRect(dc, stMargin, y, l.w-2*stMargin, stRowH, stStripe)
		}
		for c, s := range r {
			col := stText
			if i < len(t.Dim) && t.Dim[i] {
				col = stDim
			} else if c == 0 && i < len(t.Podium) && t.Podium[i] {
				col = stAccent
			}
			dc.SetColor(col)
			cell(c, s, float64(y)+float64(stRowH)/2)
		}
	}
	return encodeRGBA(dc)
}

func encodeRGBA(dc *gg.Context) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image()); err != nil {
		return nil, fmt.Errorf("imaging: encode: %w", err)
	}
	return buf.Bytes(), nil
}

// Bracket is a knockout tree, first round first: round k has half the
// matches of round k−1, the final one.
type Bracket struct {
	Title  string
	Rounds []BracketRound
	// Champion is shown right of the final ("" while it is undecided).
	Champion string
}

// BracketRound is one column of the tree.
type BracketRound struct {
	Name    string // "Round 1", "Semi-final", … (localised)
	Matches []BracketMatch
}

// BracketMatch is two slots; a slot is "" when still to be decided, and a
// bye is whatever the caller writes (e.g. "—").
type BracketMatch struct {
	Top, Bottom string
	Winner      int // -1 undecided, 0 top, 1 bottom
}

// MaxBracketSize is the most first-round slots drawn (128 players, a
// tournament's most entrants).
const MaxBracketSize = 128

// Bracket geometry (pixels).
const (
	brFont   = 20.0
	brSlotH  = 30
	brBoxW   = 220
	brGapY   = 14 // between first-round matches
	brGapX   = 44 // between columns; the connectors run here
	brTitleH = 48
	brNameH  = 32 // round names above the columns
	brMargin = 16
	brLineW  = 2
)

// bracketLayout places match j of round k: its box's left x and top y.
type bracketLayout struct {
	w, h int
	x    []int
	y    [][]int // top of the box
}

func layoutBracket(b Bracket) (bracketLayout, error) {
	var l bracketLayout
	if len(b.Rounds) == 0 {
		return l, fmt.Errorf("%w: a bracket without rounds", ErrTable)
	}
	n := len(b.Rounds[0].Matches)
	if n == 0 || n&(n-1) != 0 || 2*n > MaxBracketSize {
		return l, fmt.Errorf("%w: %d first-round matches (a power of two up to %d)", ErrTable, n, MaxBracketSize/2)
	}
	for k, r := range b.Rounds {
		if len(r.Matches) != n>>k {
			return l, fmt.Errorf("%w: round %d has %d matches, want %d", ErrTable, k+1, len(r.Matches), n>>k)
		}
	}
	if n>>(len(b.Rounds)-1) != 1 {
		return l, fmt.Errorf("%w: %d rounds do not reach a final from %d matches", ErrTable, len(b.Rounds), n)
	}
	boxH := 2 * brSlotH
	top := brTitleH + brNameH
	l.y = make([][]int, len(b.Rounds))
	for k := range b.Rounds {
		l.x = append(l.x, brMargin+k*(brBoxW+brGapX))
		l.y[k] = make([]int, n>>k)
		for j := range l.y[k] {
			if k == 0 {
				l.y[k][j] = top + j*(boxH+brGapY)
				continue
			}
			// Centred between the two matches feeding it.
			l.y[k][j] = (l.y[k-1][2*j] + l.y[k-1][2*j+1]) / 2
		}
	}
	cols := len(b.Rounds) + 1 // the champion's column
	l.w = max(2*brMargin+cols*brBoxW+(cols-1)*brGapX, int(textWidth(b.Title, brFont*1.2))+2*brMargin)
	l.h = top + n*(boxH+brGapY) - brGapY + brMargin
	return l, nil
}

// RenderBracket draws a knockout bracket as a PNG tree: a box per match
// (winner's slot highlighted), elbow connectors from each pair of matches
// to the one they feed, and the champion at the right.
func RenderBracket(b Bracket) ([]byte, error) {
	l, err := layoutBracket(b)
	if err != nil {
		return nil, err
	}
	dc := gg.NewContext(l.w, l.h)
	dc.SetColor(stBG)
	dc.Clear()
	dc.SetColor(stText)
	drawText(dc, b.Title, brFont*1.2, brMargin, brTitleH/2, 0, 0.36)
	boxH := 2 * brSlotH
	for k, r := range b.Rounds {
		dc.SetColor(stDim)
		drawText(dc, r.Name, brFont, float64(l.x[k]+brBoxW/2), brTitleH+brNameH/2, 0.5, 0.36)
		for j, m := range r.Matches {
			x, y := l.x[k], l.y[k][j]
			fillRect(dc, x, y, brBoxW, boxH, brBox)
			for s, name := range []string{m.Top, m.Bottom} {
				sy := y + s*brSlotH
				col := stText
				if m.Winner == s {
					fillRect(dc, x, sy, brBoxW, brSlotH, brWinner)
				} else if m.Winner >= 0 {
					col = stDim
				}
				dc.SetColor(col)
				drawText(dc, fitW(name, brFont, brBoxW-16), brFont, float64(x+8), float64(sy)+brSlotH/2, 0, 0.36)
			}
			fillRect(dc, x, y+brSlotH-1, brBoxW, brLineW, stBG) // a gap between the slots
			// Connector to the next column: out of the box's middle, to
			// the gap's centre, along to the parent's middle.
			mid := y + brSlotH - 1
			gx := x + brBoxW + brGapX/2
			fillRect(dc, x+brBoxW, mid, brGapX/2, brLineW, brLine)
			if j%2 == 0 && k+1 < len(b.Rounds) {
				other := l.y[k][j+1] + brSlotH - 1
				fillRect(dc, gx-1, mid, brLineW, other-mid+brLineW, brLine)
				pm := l.y[k+1][j/2] + brSlotH - 1
				fillRect(dc, gx, pm, brGapX/2, brLineW, brLine)
			}
		}
	}
	// The champion, right of the final.
	k := len(b.Rounds)
	x, y := brMargin+k*(brBoxW+brGapX), l.y[k-1][0]+brSlotH/2
	fillRect(dc, x-brGapX/2, l.y[k-1][0]+brSlotH-1, brGapX/2, brLineW, brLine)
	if b.Champion != "" {
		fillRect(dc, x, y, brBoxW, brSlotH, brChampBG)
		dc.SetColor(stAccent)
		drawText(dc, fitW(b.Champion, brFont, brBoxW-16), brFont, float64(x+8), float64(y)+brSlotH/2, 0, 0.36)
	}
	return encodeRGBA(dc)
}

// fitW shortens s with "…" until it is at most w pixels wide at px. The
// longest prefix that fits is found by bisection, so only a handful of
// candidates are shaped (and kept in the line cache).
func fitW(s string, px float64, w int) string {
	if textWidth(s, px) <= float64(w) {
		return s
	}
	rs := []rune(s)
	lo, hi := 0, len(rs)-1 // rs[:lo]+"…" fits (lo 0: "…" alone); rs[:hi+1]+"…" does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if textWidth(string(rs[:mid])+"…", px) <= float64(w) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(rs[:lo]) + "…"
}
