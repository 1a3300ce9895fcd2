package imaging

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/gungi"
)

// A gungiScene is a variant's start plus moves played through the engine
// (each must be legal); the last one is drawn as the last action.
type gungiScene struct {
	name    string
	variant string
	moves   string // space-separated, in the notation of rules §8
	flip    bool
}

var gungiScenes = []gungiScene{
	{name: "draft_start", variant: "draft"},
	// Both Marshals, a few placements, Black ready, White placing alone;
	// the last action is a drop (stacked on White's own Pawn).
	{name: "draft_mid", variant: "draft", moves: "M*e9 M*e1 G*d9 P*e3 S*f8 G*d1 ready C*f2 G*e3"},
	// Seeded self-play from "quick" preferring stacks and attacks: towers
	// of two and three of mixed owners; the last action attacks the top
	// of a tower (b8 takes c8's General, standing on a 3-high tower).
	{name: "midgame", variant: "quick", moves: "G*b6 Gc9^c8 Yi2^h2 S*b9 Wf3^g2 Sb9^a8 Gd2^d1 Yi8^h9 Wd3^e2 Gf8^f7 Pc3-c4 Sa8^b9 Gb6^a7 Sb9^c8 Gg1^f1 Gf7^g7 Sb1^c2 Gd8^d7 Gc1^c2 Ya8^a7 Gf2^e2 Ya7^c4 Ya2^b2 Gd7^c7 Ga7^b8 Yh9^f9 Ge2^d1 Gg7^f7 Gb8xc8"},
	// A White Lt. General dropped, stacked, then attacking f8: Black's
	// Marshal on e9 is in check.
	{name: "check", variant: "quick", moves: "Ya2^a3 Gc9^d9 L*h6 Yi8^h8 Cg2^g3 S*b9 Lh6^g7 Cg8^h8 Lg7xf8"},
	{name: "flipped", variant: "quick", moves: "G*b6 Gc9^c8 Yi2^h2 S*b9 Wf3^g2 Sb9^a8 Gd2^d1 Yi8^h9 Wd3^e2 Gf8^f7 Pc3-c4 Sa8^b9 Gb6^a7 Sb9^c8 Gg1^f1 Gf7^g7 Sb1^c2 Gd8^d7 Gc1^c2 Ya8^a7 Gf2^e2 Ya7^c4 Ya2^b2 Gd7^c7 Ga7^b8 Yh9^f9 Ge2^d1 Gg7^f7 Gb8xc8", flip: true},
	{name: "quick_start", variant: "quick"},
}

func (sc gungiScene) position(t testing.TB) (*gungi.Position, Options) {
	t.Helper()
	pos, err := gungi.Rules.Start(sc.variant)
	if err != nil {
		t.Fatal(err)
	}
	var last engine.Move
	for _, s := range strings.Fields(sc.moves) {
		m, err := pos.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %s: %v", sc.name, s, err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatalf("%s: play %s: %v", sc.name, s, err)
		}
		last = m
	}
	return pos.(*gungi.Position), Options{Last: last, Flip: sc.flip}
}

func gungiScenario(t testing.TB, name string) (*gungi.Position, Options) {
	t.Helper()
	for _, sc := range gungiScenes {
		if sc.name == name {
			return sc.position(t)
		}
	}
	t.Fatalf("no gungi scene %q", name)
	return nil, Options{}
}

func TestGungiGolden(t *testing.T) {
	for _, sc := range gungiScenes {
		t.Run(sc.name, func(t *testing.T) {
			pos, opt := sc.position(t)
			got, b := render(t, pos, opt)
			if w, h := got.Bounds().Dx(), got.Bounds().Dy(); w != gW || h != gH || w < 800 || w > 900 {
				t.Fatalf("image %d×%d, want %d×%d within 800–900 px wide", w, h, gW, gH)
			}
			if len(b) > 60_000 {
				t.Errorf("PNG is %d bytes, want ≤ 60 KB", len(b))
			}
			checkGolden(t, "gungi_"+sc.name, got, b)
		})
	}
}

// sqPixel is the colour a few pixels inside a square's top-left corner,
// clear of any piece: the square's background. The square's position is
// computed here from the layout constants, not by the drawer's code.
func sqPixel(img *image.Paletted, sq string, flip bool) color.Color {
	s, ok := gungi.ParseSquare(sq)
	if !ok {
		panic("bad square " + sq)
	}
	col, row := s.File(), 8-s.Rank()
	if flip {
		col, row = 8-col, 8-row
	}
	return img.At(gMargin+col*gCell+3, headerPx+gMargin+row*gCell+3)
}

func pal(i uint8) color.Color { return palette[i] }

func TestGungiDraftZone(t *testing.T) {
	pos, opt := gungiScenario(t, "draft_start")
	img, _ := render(t, pos, opt)
	// Black places first: its home ranks 7–9 are marked, the rest is not.
	for _, sq := range []string{"a7", "e8", "i9"} {
		if got := sqPixel(img, sq, false); got != pal(gZone) {
			t.Errorf("%s is %v, want the draft zone", sq, got)
		}
	}
	for _, sq := range []string{"a1", "e3", "e6", "i4"} {
		if got := sqPixel(img, sq, false); got != pal(gWood) {
			t.Errorf("%s is %v, want a plain square", sq, got)
		}
	}
	// Once the draft is over nothing is marked.
	q, opt := gungiScenario(t, "quick_start")
	img, _ = render(t, q, opt)
	if got := sqPixel(img, "e8", false); got != pal(gWood) {
		t.Errorf("quick start: e8 is %v, want a plain square", got)
	}
}

// slotBodyPixels counts the pixels of colour c in the piece area of hand
// slot i (top or bottom box): a piece in hand fills hundreds, a ghost none.
func slotBodyPixels(img *image.Paletted, i int, top bool, c color.Color) int {
	y0 := headerPx + 8
	if !top {
		y0 = headerPx + 16 + gBoxH
	}
	x := gPanelX + 5 + (i%gHandCol)*gSlotW
	y := y0 + gTitleH + (i/gHandCol)*gSlotH
	n := 0
	for yy := y; yy < y+gSlotH; yy++ {
		for xx := x; xx < x+40; xx++ {
			if img.At(xx, yy) == c {
				n++
			}
		}
	}
	return n
}

func TestGungiHands(t *testing.T) {
	// At the draft start every kind is in both hands: each slot shows a
	// filled piece in its owner's body colour (Black's hand in the top box).
	// In the quick start the kinds on the board are ghosts.
	pos, opt := gungiScenario(t, "draft_start")
	img, _ := render(t, pos, opt)
	for i, k := range gungi.Kinds {
		if n := slotBodyPixels(img, i, true, pal(cBlackHull)); n < 200 {
			t.Errorf("draft start: Black's %v slot has %d body pixels", k, n)
		}
		if n := slotBodyPixels(img, i, false, pal(cWhiteTurret)); n < 200 {
			t.Errorf("draft start: White's %v slot has %d body pixels", k, n)
		}
	}
	q, opt := gungiScenario(t, "quick_start")
	img, _ = render(t, q, opt)
	for i, k := range gungi.Kinds {
		n := slotBodyPixels(img, i, false, pal(cWhiteTurret))
		if held := q.Hand(engine.White, k) > 0; held != (n > 200) || (!held && n != 0) {
			t.Errorf("quick: White holds %d %v, slot has %d body pixels", q.Hand(engine.White, k), k, n)
		}
	}
}

func TestGungiLastActionAndTowers(t *testing.T) {
	pos, opt := gungiScenario(t, "midgame")
	img, _ := render(t, pos, opt)
	// Gb8xc8: origin yellow, the attacked square salmon, others plain.
	for sq, want := range map[string]uint8{"b8": gMove, "c8": gHit, "d8": gWood, "b7": gWood} {
		if got := sqPixel(img, sq, false); got != pal(want) {
			t.Errorf("%s is %v, want %v", sq, got, pal(want))
		}
	}
	// The arrow crosses the border between b8 and c8.
	x := gMargin + 2*gCell
	y := headerPx + gMargin + 1*gCell + gCell/2
	if got := img.At(x, y); got != pal(cShot) {
		t.Errorf("attack arrow: (%d,%d) is %v, want the attack colour", x, y, got)
	}
	// Every tower's chips show the owner of each level below the top,
	// bottom to top.
	towers := 0
	for s := gungi.Square(0); s < 81; s++ {
		tw := pos.Tower(s)
		if len(tw) < 2 {
			continue
		}
		towers++
		col, row := s.File(), 8-s.Rank()
		x0 := gMargin + col*gCell + 1 + gColX
		y0 := headerPx + gMargin + row*gCell + 1
		for i, pc := range tw[:len(tw)-1] {
			body, _, _ := komaColours(pc.Side)
			// Above the letter, inside the chip's border.
			cy := y0 + gIn - 2 - (i+1)*gChipH + 4
			if got := img.At(x0+4, cy); got != pal(body) {
				t.Errorf("%v level %d (%v): chip pixel %v, want %v", s, i+1, pc.Side, got, pal(body))
			}
		}
	}
	if towers < 3 {
		t.Errorf("only %d towers in the midgame scene", towers)
	}
}

func TestGungiCheck(t *testing.T) {
	pos, opt := gungiScenario(t, "check")
	if !hasCheck(pos) {
		t.Fatal("scene is not check")
	}
	img, _ := render(t, pos, opt)
	m := pos.MarshalSquare(pos.Turn()).String()
	if got := sqPixel(img, m, false); got != pal(gCheck) {
		t.Errorf("Marshal on %s: %v, want the check colour", m, got)
	}
	// Without check no square is red.
	q, opt := gungiScenario(t, "midgame")
	img, _ = render(t, q, opt)
	for s := gungi.Square(0); s < 81; s++ {
		if sqPixel(img, s.String(), false) == pal(gCheck) {
			t.Errorf("%v is red without check", s)
		}
	}
}

func hasCheck(p *gungi.Position) bool {
	for _, a := range p.Announcements() {
		if a.Kind == engine.AnnounceCheck {
			return true
		}
	}
	return false
}

func TestGungiFlip(t *testing.T) {
	pos, opt := gungiScenario(t, "flipped")
	img, _ := render(t, pos, opt)
	for sq, want := range map[string]uint8{"b8": gMove, "c8": gHit, "d8": gWood} {
		if got := sqPixel(img, sq, true); got != pal(want) {
			t.Errorf("flipped: %s is %v, want %v", sq, got, pal(want))
		}
	}
	// White's Fortress stands on a1: flipped, a1 is the top-right square and
	// White's hand is in the top box.
	x, y := gMargin+8*gCell+1+gIn/2, headerPx+gMargin+1+gIn/2+8
	if got := img.At(x, y); got != pal(cWhiteTurret) {
		t.Errorf("flipped: top-right square (%d,%d) is %v, want White's piece", x, y, got)
	}
	if n := slotBodyPixels(img, 1, true, pal(cWhiteTurret)); n < 300 {
		t.Errorf("flipped: top box's General slot has %d white pixels, want White's hand there", n)
	}
}

func TestGungiDrop(t *testing.T) {
	pos, opt := gungiScenario(t, "draft_mid")
	img, _ := render(t, pos, opt)
	// G*e3: the square is marked and framed; White places alone in its zone.
	s, _ := gungi.ParseSquare("e3")
	col, row := s.File(), 8-s.Rank()
	x, y := gMargin+col*gCell+1, headerPx+gMargin+row*gCell+1
	if got := img.At(x+1, y+gIn/2); got != pal(gArrow) {
		t.Errorf("drop frame: %v", got)
	}
	if got := img.At(x+5, y+5); got != pal(gMove) {
		t.Errorf("dropped-on square: %v", got)
	}
	if got := sqPixel(img, "a2", false); got != pal(gZone) {
		t.Errorf("White's zone: %v", got)
	}
	if got := sqPixel(img, "a8", false); got != pal(gWood) {
		t.Errorf("ready Black's zone is marked: %v", got)
	}
}

func TestGungiErrors(t *testing.T) {
	pos, err := gungi.Rules.Start("quick")
	if err != nil {
		t.Fatal(err)
	}
	type notGungi struct{ engine.Move }
	bad := []any{
		notGungi{},
		gungi.Move{Kind: gungi.KindMove, Piece: gungi.Pawn, From: 90, To: 3},
		&gungi.Move{Kind: gungi.KindAttack, Piece: gungi.Pawn, From: 3, To: -1},
		gungi.Move{Kind: gungi.KindDrop, Piece: gungi.Pawn, From: gungi.NoSquare, To: 81},
		gungi.Move{Kind: 42, From: 3, To: 4},
	}
	for _, m := range bad {
		if _, err := Render(pos, Options{Last: m.(engine.Move)}); err == nil {
			t.Errorf("last %#v: no error", m)
		}
	}
	if _, err := Render(pos, Options{Last: gungi.ReadyMove}); err != nil {
		t.Errorf("ready as last: %v", err)
	}
}

func TestGungiConcurrent(t *testing.T) {
	var jobs []renderJob
	for _, sc := range gungiScenes {
		pos, opt := sc.position(t)
		_, b := render(t, pos, opt)
		jobs = append(jobs, renderJob{pos, opt, b})
	}
	resetGungiCaches()
	checkConcurrentRenders(t, jobs, 1)
}

// resetGungiCaches empties the Gungi caches, as at process start (the
// shared pills, font and quantiser are left alone: other tests own them).
func resetGungiCaches() {
	gungiLayers = cache[bool, *gungiLayer]{}
	gungiKoma = cache[komaKey, *tile]{}
	gungiChips = cache[chipKey, *tile]{}
	gungiBadges = cache[badgeKey, *tile]{}
	gungiSlots = cache[slotKey, *tile]{}
	gungiTitles = cache[titleKey, *tile]{}
	gungiFooters = cache[string, *tile]{}
	gungiBox = cache[int, *tile]{}
}

// go test ./imaging -run '^$' -bench Gungi
func BenchmarkRenderGungi(b *testing.B) {
	for _, name := range []string{"midgame", "check", "draft_start"} {
		pos, opt := gungiScenario(b, name)
		b.Run(name, func(b *testing.B) { benchRender(b, pos, opt) })
	}
}
