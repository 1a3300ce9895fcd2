package imaging

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/tank"
)

// A camScene is a Camelot position built from a piece list ("ME7 kF9":
// piece letter then square; "" for the start position), optionally one move
// played on it, drawn from one side.
type camScene struct {
	name    string
	pieces  string
	side    string // side to move before the move
	castles string
	move    string
	flip    bool
}

// midPieces: White's Knight on D5 can canter over E6 to F7 and jump G8 and
// H10 (a Knight's Charge); Black then has captures of its own.
const camMidPieces = "KD5 ME6 MC6 KJ6 MF5 MI7 MH6 ME4 KC4 MG3 MH12 " +
	"mG8 mH10 kC11 mD11 mE11 kJ11 mI10 mF12 kE9 mG11 mK8"

var camScenes = []camScene{
	{name: "camelot_start"},
	{name: "camelot_charge", pieces: camMidPieces, side: "w", move: "D5^F7xH9xH11xJ9xL7"},
	{name: "camelot_charge_flipped", pieces: camMidPieces, side: "w", move: "D5^F7xH9xH11xJ9xL7", flip: true},
	// White's Man enters Black's castle beside another White piece: won.
	{name: "camelot_castle_won", pieces: "MF16 MG15 KE12 ME7 MH8 kD9 mC10 mI12", side: "w", move: "G15-G16"},
}

func camCFEN(t testing.TB, pieces, side, castles string) string {
	t.Helper()
	at := map[string]byte{}
	for _, f := range strings.Fields(pieces) {
		at[strings.ToUpper(f[1:])] = f[0]
	}
	rows := make([][]byte, 16)
	for _, n := range camelot.Squares() {
		s, ok := camSquare(n)
		if !ok {
			t.Fatalf("engine square %q not on the drawn board", n)
		}
		c := byte('.')
		if pc, ok := at[n]; ok {
			c = pc
			delete(at, n)
		}
		rows[s.rank()] = append(rows[s.rank()], c)
	}
	if len(at) > 0 {
		t.Fatalf("pieces on squares off the board: %v", at)
	}
	parts := make([]string, 16)
	for r := range rows {
		parts[15-r] = string(rows[r])
	}
	if castles == "" {
		castles = "00"
	}
	return strings.Join(parts, "/") + " " + side + " " + castles + " 9"
}

func (sc camScene) position(t testing.TB) (engine.Position, Options) {
	t.Helper()
	var p engine.Position
	var err error
	if sc.pieces == "" {
		p, err = camelot.Rules.Start("")
	} else {
		p, err = camelot.Rules.Decode(camCFEN(t, sc.pieces, sc.side, sc.castles))
	}
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	opt := Options{Flip: sc.flip}
	if sc.move != "" {
		m, err := p.ParseMove(sc.move)
		if err != nil {
			t.Fatalf("%s: move %q: %v", sc.name, sc.move, err)
		}
		if p, err = p.Play(m); err != nil {
			t.Fatalf("%s: play %q: %v", sc.name, sc.move, err)
		}
		opt.Last = m
	}
	return p, opt
}

func camScenario(t testing.TB, name string) camScene {
	for _, sc := range camScenes {
		if sc.name == name {
			return sc
		}
	}
	t.Fatalf("no scenario %q", name)
	return camScene{}
}

func TestCamelotGolden(t *testing.T) {
	for _, sc := range camScenes {
		t.Run(sc.name, func(t *testing.T) {
			pos, opt := sc.position(t)
			got, b := render(t, pos, opt)
			if w, h := got.Bounds().Dx(), got.Bounds().Dy(); w != 881 || h != 713 {
				t.Errorf("image %d×%d, want 881×713", w, h)
			}
			checkGolden(t, sc.name, got, b)
		})
	}
}

func luma(c color.Color) int {
	r, g, b, _ := c.RGBA()
	return int(299*(r>>8)+587*(g>>8)+114*(b>>8)) / 1000
}

// camAt is the colour at a square's centre, or dx, dy pixels from it.
func camAt(img *image.Paletted, b *camBoard, sq string, dx, dy int) color.Color {
	s, ok := parseCamName(sq)
	if !ok {
		panic("bad square " + sq)
	}
	c := b.center(s)
	return img.At(int(c.x)+dx, int(c.y)+dy)
}

// camCorner is the colour just inside a square's top-left corner.
// camCorner is a square's background: the commonest colour of eight
// points along its border (corners and edge midpoints), so a path line
// crossing the square through two of them does not hide it.
func camCorner(img *image.Paletted, b *camBoard, sq string) color.Color {
	s, _ := parseCamName(sq)
	x, y := b.origin(s)
	lo, mid, hi := 3, b.in/2, b.in-4
	count := map[uint8]int{}
	for _, p := range [][2]int{{lo, lo}, {mid, lo}, {hi, lo}, {lo, mid}, {hi, mid}, {lo, hi}, {mid, hi}, {hi, hi}} {
		count[img.ColorIndexAt(x+p[0], y+p[1])]++
	}
	best, n := uint8(0), -1
	for i, c := range count {
		if c > n || (c == n && i < best) {
			best, n = i, c
		}
	}
	return img.Palette[best]
}

func TestCamelotStartPixels(t *testing.T) {
	for _, flip := range []bool{false, true} {
		sc := camScenario(t, "camelot_start")
		sc.flip = flip
		pos, opt := sc.position(t)
		img, png := render(t, pos, opt)
		if len(png) > 80_000 {
			t.Errorf("flip=%v: %d bytes", flip, len(png))
		}
		b := camBoardFor(flip)
		// Cut corners are frame, not squares; real corner squares are not.
		for _, sq := range []string{"A1", "E1", "H1", "A2", "B2", "A3", "L16", "B15", "L14", "A14", "E16"} {
			if got := camAt(img, b, sq, 0, 0); got != keyColors[cFrame] {
				t.Errorf("flip=%v: off-board %s is %v, want the frame", flip, sq, got)
			}
		}
		for _, sq := range []string{"C2", "J2", "B3", "A4", "L13", "B14", "J15"} {
			if got := camAt(img, b, sq, 0, 0); got != keyColors[cField] {
				t.Errorf("flip=%v: %s is %v, want a board square", flip, sq, got)
			}
		}
		// Castles look unlike ordinary squares, at the centre and the edge.
		for _, sq := range []string{"F1", "G1", "F16", "G16"} {
			if got := camAt(img, b, sq, 0, 0); got == keyColors[cField] || got == keyColors[cFrame] {
				t.Errorf("flip=%v: castle %s centre is %v", flip, sq, got)
			}
			if got := camCorner(img, b, sq); got == keyColors[cField] {
				t.Errorf("flip=%v: castle %s edge is a plain square", flip, sq)
			}
		}
		// Men: White light, Black dark, both unlike the empty square.
		for _, sq := range []string{"E6", "F7", "H6"} {
			if l := luma(camAt(img, b, sq, 0, 0)); l < 200 {
				t.Errorf("flip=%v: White Man on %s has luma %d", flip, sq, l)
			}
		}
		for _, sq := range []string{"E11", "F10", "H11"} {
			if l := luma(camAt(img, b, sq, 0, 0)); l > 110 {
				t.Errorf("flip=%v: Black Man on %s has luma %d", flip, sq, l)
			}
		}
		// A Knight is drawn unlike a Man of its side: its centre carries the
		// horse in the outline colour.
		if k, m := camAt(img, b, "C6", 0, 0), camAt(img, b, "D6", 0, 0); k == m {
			t.Errorf("flip=%v: White Knight and Man look alike at the centre (%v)", flip, k)
		}
		if k, m := camAt(img, b, "C11", 0, 0), camAt(img, b, "D11", 0, 0); k == m {
			t.Errorf("flip=%v: Black Knight and Man look alike at the centre (%v)", flip, k)
		}
		// The board lies on its side: White on the left, or on the right
		// when flipped; file A at the top, or at the bottom when flipped.
		xw, _ := b.origin(mustSq(t, "E6"))
		xb, _ := b.origin(mustSq(t, "E11"))
		if (xw < xb) == flip {
			t.Errorf("flip=%v: White's column at x=%d, Black's at x=%d", flip, xw, xb)
		}
		_, ya := b.origin(mustSq(t, "A4"))
		_, yl := b.origin(mustSq(t, "L4"))
		if (ya < yl) == flip {
			t.Errorf("flip=%v: file A at y=%d, file L at y=%d", flip, ya, yl)
		}
	}
}

func mustSq(t *testing.T, n string) camSq {
	t.Helper()
	s, ok := camSquare(n)
	if !ok {
		t.Fatalf("no square %s", n)
	}
	return s
}

func TestCamelotChargePixels(t *testing.T) {
	for _, name := range []string{"camelot_charge", "camelot_charge_flipped"} {
		sc := camScenario(t, name)
		pos, opt := sc.position(t)
		img, _ := render(t, pos, opt)
		b := camBoardFor(sc.flip)
		for sq, want := range map[string]uint8{"D5": cMoveBg, "L7": cMoveBg, "G8": cHitBg, "H10": cHitBg, "I10": cHitBg, "K8": cHitBg, "E6": cField, "F7": cField, "C6": cField} {
			if got := camCorner(img, b, sq); got != keyColors[want] {
				t.Errorf("%s: %s background %v, want %v", name, sq, got, keyColors[want])
			}
		}
		// The canter over E6 is blue; the jumps over G8, H10, I10 and K8
		// red (the line over the ghost's cross).
		if got := camAt(img, b, "E6", 0, 0); got != palette[camCanterCol] {
			t.Errorf("%s: canter line over E6 is %v", name, got)
		}
		for _, sq := range []string{"G8", "H10", "I10", "K8"} {
			if got := camAt(img, b, sq, 0, 0); got != keyColors[cShot] {
				t.Errorf("%s: jump over %s is %v", name, sq, got)
			}
		}
		// The ghost on G8 is crossed out on its diagonals too.
		s := float64(b.in) * 0.2
		if got := camAt(img, b, "G8", int(s), int(s)); got != keyColors[cShot] {
			t.Errorf("%s: no cross on G8 (%v)", name, got)
		}
		// Black must now capture: the header carries the pill.
		if !headerHas(img, cThreat) {
			t.Errorf("%s: no MUST CAPTURE pill in the header", name)
		}
	}
}

func headerHas(img *image.Paletted, c uint8) bool {
	for _, p := range img.Pix[:headerPx*img.Stride] {
		if p == c {
			return true
		}
	}
	return false
}

func TestCamelotAnnouncementsAndOutcome(t *testing.T) {
	// White's Man on F1 stands in its own castle at White's turn: it must
	// leave (rules §3).
	p, err := camelot.Rules.Decode(camCFEN(t, "MF1 ME6 mE12 kH12", "w", "00"))
	if err != nil {
		t.Fatal(err)
	}
	img, _ := render(t, p, Options{})
	if !headerHas(img, cMortar) || headerHas(img, cThreat) {
		t.Error("must-leave position: want the MUST LEAVE CASTLE pill only")
	}
	if got := camCorner(img, camBoardFor(false), "E6"); got != keyColors[cField] {
		t.Errorf("E6, not bound by the duty, has background %v", got)
	}

	sc := camScenario(t, "camelot_castle_won")
	pos, opt := sc.position(t)
	if !pos.Status().Over() {
		t.Fatalf("castle scenario not over: %v", pos.Status())
	}
	img, _ = render(t, pos, opt)
	if !headerHas(img, cBannerWin) {
		t.Error("won game: no WHITE WINS pill")
	}
	b := camBoardFor(false)
	if got := camCorner(img, b, "G15"); got != keyColors[cMoveBg] {
		t.Errorf("G15 (the move's start) background %v", got)
	}
	// G16 is a castle: its edge keeps the wall, its inside turns yellow.
	if got := camCorner(img, b, "G16"); got == keyColors[cMoveBg] {
		t.Error("G16's castle wall is gone under the highlight")
	}
	if got := camAt(img, b, "G16", -int(float64(b.in)*0.3), 0); got == keyColors[camPaved] {
		t.Errorf("G16's inside is not highlighted (%v)", got)
	}
	if l := luma(camAt(img, b, "F16", 0, 0)); l < 200 {
		t.Errorf("White Man on F16 has luma %d", l)
	}
}

func TestCamelotErrors(t *testing.T) {
	p, err := camelot.Rules.Start("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render(p, Options{Last: tank.Move{}}); err == nil {
		t.Error("tank move as Camelot's last move: no error")
	}
	type notCamelot struct{ engine.Move }
	if _, err := Render(p, Options{Last: notCamelot{}}); err == nil {
		t.Error("foreign move: no error")
	}
	// The zero Move names A1, which the board does not have.
	if _, err := Render(p, Options{Last: camelot.Move{}}); err == nil {
		t.Error("move from A1: no error")
	}
	if _, err := Render(p, Options{Last: &camelot.Move{}}); err == nil {
		t.Error("*move from A1: no error")
	}
	var nilMove *camelot.Move
	if _, err := Render(p, Options{Last: nilMove}); err != nil {
		t.Errorf("nil *Move: %v", err)
	}
	// A Camelot drawer given another game's position says so.
	tp, err := tank.StartPosition("basic16")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (camelotDrawer{}).draw(tp, Options{}); err == nil {
		t.Error("tank position: no error")
	}
}

func TestCamelotConcurrentRender(t *testing.T) {
	var jobs []renderJob
	for _, sc := range camScenes {
		pos, opt := sc.position(t)
		_, b := render(t, pos, opt)
		jobs = append(jobs, renderJob{pos, opt, b})
	}
	// Empty the Camelot caches so the goroutines race to build them.
	camBoards = cache[bool, *camBoard]{}
	camTiles = cache[camTileKey, *tile]{}
	checkConcurrentRenders(t, jobs, 2)
}

// go test ./imaging -run '^$' -bench Camelot
func BenchmarkRenderCamelot(b *testing.B) {
	for _, name := range []string{"camelot_start", "camelot_charge"} {
		pos, opt := camScenario(b, name).position(b)
		b.Run(strings.TrimPrefix(name, "camelot_"), func(b *testing.B) { benchRender(b, pos, opt) })
	}
}
