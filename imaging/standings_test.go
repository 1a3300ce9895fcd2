package imaging

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"golang.org/x/image/draw"
)

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func sameRGB(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	return uint8(r>>8) == want.R && uint8(g>>8) == want.G && uint8(b>>8) == want.B
}

// ink counts pixels in r whose brightest channel is above lo (text on the
// dark background), and the brightest channel values seen.
func ink(img image.Image, r image.Rectangle, lo uint8) (n int, maxR, maxB uint8) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			R, G, B := uint8(cr>>8), uint8(cg>>8), uint8(cb>>8)
			if max(R, G, B) > lo {
				n++
				maxR, maxB = max(maxR, R), max(maxB, B)
			}
		}
	}
	return
}

func sampleTable(rows int) StandingsTable {
	names := []string{"Alice", "สมชาย ใจดี", "Bob", "a very long display name that must be cut short", "Chloé", "Zoë"}
	t := StandingsTable{Title: "Swiss · round 3 of 5", Columns: []string{"#", "Player", "Pts", "BH-1", "SB", "Games"}, NameColumn: 1}
	for i := range rows {
		t.Rows = append(t.Rows, []string{itoa(i + 1), names[i%len(names)], "2½", "7", "4.25", "3"})
		t.Dim = append(t.Dim, i == 2)
		t.Podium = append(t.Podium, i < 3 && i != 2)
	}
	return t
}

func itoa(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

func TestStandingsImage(t *testing.T) {
	tb := sampleTable(6)
	tb.Rows[5][1] = "" // an empty name cell draws nothing
	b, err := RenderStandings(tb)
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	l, _ := layoutStandings(tb)
	wantH := stTitleH + stHeadH + 6*stRowH + stMargin
	if img.Bounds().Dx() != l.w || img.Bounds().Dy() != wantH || l.w < stMinW || l.w > 900 {
		t.Fatalf("size %v, want %d×%d (width within %d..900)", img.Bounds(), l.w, wantH, stMinW)
	}
	if !sameRGB(img.At(stMargin+2, stTitleH+2), stHeadBG) {
		t.Errorf("header band colour %v", img.At(stMargin+2, stTitleH+2))
	}
	for i := range tb.Rows {
		y := rowTop(i)
		want := stBG
		if i%2 == 1 {
			want = stStripe
		}
		if got := img.At(stMargin+2, y+2); !sameRGB(got, want) {
			t.Errorf("row %d background %v, want %v", i+1, got, want)
		}
		name := image.Rect(l.colX[1], y, l.colX[1]+l.colW[1], y+stRowH)
		n, maxR, maxB := ink(img, name, 0x70)
		switch {
		case i == 5 && n != 0:
			t.Errorf("row 6: %d ink pixels in an empty name cell", n)
		case i != 5 && n < 40:
			t.Errorf("row %d: only %d ink pixels in the name cell", i+1, n)
		case i == 2 && (maxR > 0xa8 || maxB > 0xa8):
			t.Errorf("withdrawn row 3 is not dimmed: brightest %x/%x", maxR, maxB)
		case i == 0 && maxR < 0xe0:
			t.Errorf("row 1 text is dim: %x", maxR)
		}
		rank := image.Rect(l.colX[0], y, l.colX[0]+l.colW[0], y+stRowH)
		_, rr, rb := ink(img, rank, 0x70)
		if podium := i < 2; podium != (rr > 0xd0 && rb < 0x80) {
			t.Errorf("row %d rank colour R %x B %x (podium %v)", i+1, rr, rb, podium)
		}
		// Text stays inside its row: the band's first and last pixel lines are bare.
		for _, yy := range []int{y, y + stRowH - 1} {
			if n, _, _ := ink(img, image.Rect(stMargin, yy, l.w-stMargin, yy+1), 0x70); n != 0 {
				t.Errorf("row %d: text touches the row edge at y=%d", i+1, yy)
			}
		}
	}
	// The Thai name (row 2) is drawn through the shaper with the Thai font
	// (an unknown glyph would draw nothing here).
	thai := image.Rect(l.colX[1], rowTop(1), l.colX[1]+l.colW[1], rowTop(1)+stRowH)
	if n, _, _ := ink(img, thai, 0x70); n < 100 {
		t.Errorf("Thai name: %d ink pixels", n)
	}
	// The long name is cut to its column.
	if w := textWidth(fitW(tb.Rows[3][1], stFont, l.colW[1]-2*stPadX), stFont); w > float64(l.colW[1]-2*stPadX) {
		t.Errorf("long name drawn %.0f px wide in a %d px cell", w, l.colW[1]-2*stPadX)
	}
}

// A full page scaled to a Discord preview (550 × 400 at most) keeps text
// at least 12 px high and every row's name still carries ink.
func TestStandingsReadableAtPreview(t *testing.T) {
	tb := sampleTable(MaxStandingsRows)
	b, err := RenderStandings(tb)
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	scale := min(550/float64(w), 400/float64(h), 1)
	if stFont*scale < 12 {
		t.Fatalf("%d×%d scales by %.2f: text %.1f px in the preview", w, h, scale, stFont*scale)
	}
	sw, sh := int(float64(w)*scale), int(float64(h)*scale)
	small := image.NewRGBA(image.Rect(0, 0, sw, sh))
	draw.CatmullRom.Scale(small, small.Bounds(), img, img.Bounds(), draw.Src, nil)
	l, _ := layoutStandings(tb)
	for i := range tb.Rows {
		y0, y1 := int(float64(rowTop(i))*scale), int(float64(rowTop(i)+stRowH)*scale)
		x0, x1 := int(float64(l.colX[1])*scale), int(float64(l.colX[1]+l.colW[1])*scale)
		if n, _, _ := ink(small, image.Rect(x0, y0, x1, y1), 0x80); n < 15 {
			t.Errorf("preview row %d: %d ink pixels", i+1, n)
		}
	}
	t.Logf("16-row table %d×%d px, preview %d×%d (scale %.2f, text %.1f px)", w, h, sw, sh, scale, stFont*scale)
}

func TestStandingsBadInput(t *testing.T) {
	for name, tb := range map[string]StandingsTable{
		"too many rows": sampleTable(MaxStandingsRows + 1),
		"ragged row":    {Columns: []string{"#", "Player"}, Rows: [][]string{{"1"}}, NameColumn: 1},
		"no columns":    {},
		"bad name col":  {Columns: []string{"#"}, NameColumn: 3},
	} {
		if _, err := RenderStandings(tb); !errors.Is(err, ErrTable) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func sampleBracket() Bracket {
	return Bracket{
		Title: "Knockout",
		Rounds: []BracketRound{
			{Name: "Round 1", Matches: []BracketMatch{{"Alice", "—", 0}, {"Dan", "Eve", 1}, {"Bob", "—", 0}, {"Carol", "สมชาย", 1}}},
			{Name: "Semi-final", Matches: []BracketMatch{{"Alice", "Eve", 0}, {"Bob", "สมชาย", 1}}},
			{Name: "Final", Matches: []BracketMatch{{"Alice", "สมชาย", -1}}},
		},
	}
}

func TestBracketImage(t *testing.T) {
	br := sampleBracket()
	b, err := RenderBracket(br)
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	l, _ := layoutBracket(br)
	wantW := 2*brMargin + 4*brBoxW + 3*brGapX
	wantH := brTitleH + brNameH + 4*(2*brSlotH+brGapY) - brGapY + brMargin
	if img.Bounds().Dx() != wantW || img.Bounds().Dy() != wantH {
		t.Fatalf("size %v, want %d×%d", img.Bounds(), wantW, wantH)
	}
	for k, r := range br.Rounds {
		for j, m := range r.Matches {
			x, y := l.x[k], l.y[k][j]
			for s := range 2 {
				want := brBox
				if m.Winner == s {
					want = brWinner
				}
				if got := img.At(x+2, y+s*brSlotH+3); !sameRGB(got, want) {
					t.Errorf("round %d match %d slot %d: %v, want %v", k+1, j+1, s, got, want)
				}
				if n, _, _ := ink(img, image.Rect(x, y+s*brSlotH, x+brBoxW, y+(s+1)*brSlotH), 0x80); n < 20 {
					t.Errorf("round %d match %d slot %d: no name drawn (%d)", k+1, j+1, s, n)
				}
			}
			mid := y + brSlotH - 1
			if got := img.At(x+brBoxW+brGapX/4, mid); !sameRGB(got, brLine) {
				t.Errorf("round %d match %d: no connector out (%v)", k+1, j+1, got)
			}
			if j%2 == 0 && k+1 < len(br.Rounds) {
				gx := x + brBoxW + brGapX/2
				other := l.y[k][j+1] + brSlotH - 1
				if got := img.At(gx, (mid+other)/2); !sameRGB(got, brLine) {
					t.Errorf("round %d matches %d–%d: no vertical connector (%v)", k+1, j+1, j+2, got)
				}
				pm := l.y[k+1][j/2] + brSlotH - 1
				if got := img.At(gx+brGapX/4, pm); !sameRGB(got, brLine) {
					t.Errorf("round %d match %d: no connector into round %d (%v)", k+1, j+1, k+2, got)
				}
				// The parent sits midway between its two feeders.
				if pm != (mid+other)/2 {
					t.Errorf("round %d match %d at y %d, feeders at %d and %d", k+2, j/2+1, pm, mid, other)
				}
			}
		}
	}
	cx, cy := brMargin+3*(brBoxW+brGapX), l.y[2][0]+brSlotH/2
	if sameRGB(img.At(cx+2, cy+2), brChampBG) {
		t.Error("a champion box before the final is decided")
	}
	br.Rounds[2].Matches[0].Winner = 1
	br.Champion = "สมชาย"
	b, _ = RenderBracket(br)
	img = decodePNG(t, b)
	if !sameRGB(img.At(cx+2, cy+2), brChampBG) {
		t.Errorf("champion box colour %v", img.At(cx+2, cy+2))
	}
	if !sameRGB(img.At(l.x[2]+2, l.y[2][0]+brSlotH+3), brWinner) {
		t.Error("the final's winner slot is not highlighted")
	}
}

func TestBracketBadInput(t *testing.T) {
	three := sampleBracket()
	three.Rounds[0].Matches = three.Rounds[0].Matches[:3]
	short := sampleBracket()
	short.Rounds = short.Rounds[:2]
	for name, br := range map[string]Bracket{
		"no rounds":          {},
		"not a power of two": three,
		"no final":           short,
	} {
		if _, err := RenderBracket(br); !errors.Is(err, ErrTable) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A 16-player bracket draws; 256 slots are refused (128 is the limit,
	// a tournament's most entrants).
	var big Bracket
	for n := 8; n >= 1; n /= 2 {
		big.Rounds = append(big.Rounds, BracketRound{Name: "R", Matches: make([]BracketMatch, n)})
	}
	if _, err := RenderBracket(big); err != nil {
		t.Errorf("16-player bracket: %v", err)
	}
	var huge Bracket
	for n := 128; n >= 1; n /= 2 {
		huge.Rounds = append(huge.Rounds, BracketRound{Matches: make([]BracketMatch, n)})
	}
	if _, err := RenderBracket(huge); !errors.Is(err, ErrTable) {
		t.Errorf("256-player bracket: %v", err)
	}
}

func TestFitW(t *testing.T) {
	long := "a very long display name that must be cut short"
	for _, w := range []int{10, 60, 120, 200, 400} {
		got := fitW(long, stFont, w)
		if textWidth(got, stFont) > float64(w) && got != "…" {
			t.Errorf("width %d: %q is %.0f px", w, got, textWidth(got, stFont))
		}
		// One more rune would not fit.
		if r := []rune(got); got != long && len(r) < len([]rune(long)) {
			next := string([]rune(long)[:len(r)]) + "…"
			if textWidth(next, stFont) <= float64(w) {
				t.Errorf("width %d: %q could keep one more letter", w, got)
			}
		}
	}
	if got := fitW("Bob", stFont, 400); got != "Bob" {
		t.Errorf("a short name changed: %q", got)
	}
}
