package imaging

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs under testdata/golden")

// Golden images are compared within a tolerance so that harmless changes
// (a font rasteriser's rounding) do not fail the test, while a moved piece,
// a missing line or a wrong colour do.
const (
	goldenChannelTol = 40    // per channel, out of 255
	goldenShareTol   = 0.002 // share of pixels allowed beyond it
)

func render(t testing.TB, pos engine.Position, opt Options) (*image.Paletted, []byte) {
	t.Helper()
	b, err := Render(pos, opt)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	p, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("decoded %T, want *image.Paletted", img)
	}
	return p, b
}

func TestGolden(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			pos, opt := sc.position(t)
			got, b := render(t, pos, opt)
			checkGolden(t, sc.name, got, b)
		})
	}
}

// checkGolden compares a rendered image with testdata/golden/<name>.png
// within the tolerances, or rewrites the file with -update. The golden tests
// of all games share it; run `go test ./imaging -run Golden -update`.
func checkGolden(t *testing.T, name string, got *image.Paletted, b []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".png")
	small := filepath.Join("testdata", "golden", "400px", name+".png")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		// What Discord shows inline: the image scaled to 400 px wide, kept
		// in the renderer's palette to keep testdata small.
		small400 := scaleTo(got, 400)
		pal := image.NewPaletted(small400.Bounds(), palette)
		draw.Draw(pal, pal.Rect, small400, image.Point{}, draw.Src)
		var out bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&out, pal); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(small), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(small, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := os.Stat(small); err != nil {
		t.Errorf("%v: the 400 px copy is missing (run: go test ./imaging -run Golden -update)", err)
	}
	f, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./imaging -run Golden -update)", err)
	}
	want, err := png.Decode(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("size %v, golden %v", got.Bounds(), want.Bounds())
	}
	diff, total := 0, 0
	r := got.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			total++
			if !near(got.At(x, y), want.At(x, y), goldenChannelTol) {
				diff++
			}
		}
	}
	if share := float64(diff) / float64(total); share > goldenShareTol {
		bad := filepath.Join(t.TempDir(), name+".png")
		_ = os.WriteFile(bad, b, 0o644)
		t.Errorf("%d of %d pixels (%.3f%%) differ from %s; got image at %s", diff, total, 100*share, path, bad)
	}
}

func near(a, b color.Color, tol int32) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { v := int32(x>>8) - int32(y>>8); return v <= tol && v >= -tol }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

func TestSizeAndStable(t *testing.T) {
	for _, name := range []string{"start16", "start20", "checkescape"} {
		for _, sc := range scenarios {
			if sc.name != name {
				continue
			}
			pos, opt := sc.position(t)
			img, b1 := render(t, pos, opt)
			_, b2 := render(t, pos, opt)
			if !bytes.Equal(b1, b2) {
				t.Errorf("%s: two renders differ", name)
			}
			// 16×16: 51 px squares, 24 px coordinate bands; 20×20: 41 and
			// 22; both plus a 40 px header.
			w, h := img.Bounds().Dx(), img.Bounds().Dy()
			if w != 865 || h != 905 {
				t.Errorf("%s: image %d×%d, want 865×905", name, w, h)
			}
			if len(b1) > 60_000 {
				t.Errorf("%s: PNG is %d bytes, want ≤ 60 KB", name, len(b1))
			}
		}
	}
}

// pixelAt is the palette colour of the image at a square's interior, a few
// pixels in from its top-left corner (clear of any tank).
func squareColour(img *image.Paletted, b *board, sq string) color.Color {
	f, r := square(sq)
	x, y := b.origin(f, r)
	return img.At(x+2, y+2)
}

func TestLastMoveHighlight(t *testing.T) {
	for _, flip := range []bool{false, true} {
		sc := scenarios[2] // midgame: d14 > d12S
		sc.flip = flip
		pos, opt := sc.position(t)
		img, _ := render(t, pos, opt)
		b := boardFor(grid{files: 16, ranks: 16, flip: flip})
		for sq, want := range map[string]uint8{"d14": cMoveBg, "d12": cMoveBg, "d13": cField, "a16": cField, "c12": cField} {
			if got := squareColour(img, b, sq); got != keyColors[want] {
				t.Errorf("flip=%v: %s is %v, want %v", flip, sq, got, keyColors[want])
			}
		}
	}
}

func TestShotMarks(t *testing.T) {
	sc := scenarios[3] // shot: a5 > a6N (a9)
	pos, opt := sc.position(t)
	img, _ := render(t, pos, opt)
	b := boardFor(grid{files: 16, ranks: 16})
	for sq, want := range map[string]uint8{"a5": cMoveBg, "a6": cMoveBg, "a9": cHitBg} {
		if got := squareColour(img, b, sq); got != keyColors[want] {
			t.Errorf("%s is %v, want %v", sq, got, keyColors[want])
		}
	}
	// The line of fire crosses a7 and a8, between shooter and target.
	for _, sq := range []string{"a7", "a8"} {
		f, r := square(sq)
		c := b.center(f, r)
		if got := img.At(int(c.x), int(c.y)); got != keyColors[cShot] {
			t.Errorf("centre of %s is %v, want the shot colour", sq, got)
		}
	}
}

// An 8×8 board with the CLT's move from a1 highlighted: unflipped a1 is the
// bottom-left square, flipped it is the top-right one.
func TestFlipPutsA1TopRight(t *testing.T) {
	p, err := tank.ParseTFEN(".......cs/......../......../......../......../......../......../Cn....... w 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseMove("a1 > a2N")
	if err != nil {
		t.Fatal(err)
	}
	next, err := p.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, flip := range []bool{false, true} {
		img, _ := render(t, next, Options{Last: m, Flip: flip})
		b := boardFor(grid{files: 8, ranks: 8, flip: flip})
		// Corners of the grid, just inside.
		left, right := b.bx+3, b.bx+8*b.cell-3
		top, bottom := b.by+3, b.by+8*b.cell-3
		x, y := left, bottom
		if flip {
			x, y = right, top
		}
		if got := img.At(x, y); got != keyColors[cMoveBg] {
			t.Errorf("flip=%v: pixel (%d,%d) is %v, want the a1 highlight", flip, x, y, got)
		}
		ox, oy := right, top
		if flip {
			ox, oy = left, bottom
		}
		if got := img.At(ox, oy); got == keyColors[cMoveBg] {
			t.Errorf("flip=%v: opposite corner (%d,%d) is highlighted too", flip, ox, oy)
		}
	}
}

func TestAllSizes(t *testing.T) {
	for n := 8; n <= 26; n++ {
		row := func(tok string) string {
			s := ""
			for i := 0; i < n; i++ {
				s += tok
			}
			return s
		}
		rows := make([]string, n)
		for i := range rows {
			rows[i] = row(".")
		}
		rows[0] = "cs" + row(".")[1:]
		rows[n-1] = "Cn" + row(".")[1:]
		rows[n/2] = "#" + row(".")[1:]
		p, err := tank.ParseTFEN(joinRows(rows) + " w 1")
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		img, b := render(t, p, Options{Flip: n%2 == 0})
		if w := img.Bounds().Dx(); w < 800 || w > 900 {
			t.Errorf("%d×%d: width %d", n, n, w)
		}
		if len(b) > 60_000 {
			t.Errorf("%d×%d: %d bytes", n, n, len(b))
		}
	}
}

func joinRows(rows []string) string {
	s := rows[0]
	for _, r := range rows[1:] {
		s += "/" + r
	}
	return s
}

func TestConcurrentRender(t *testing.T) {
	var jobs []renderJob
	for _, sc := range scenarios {
		pos, opt := sc.position(t)
		_, b := render(t, pos, opt)
		jobs = append(jobs, renderJob{pos, opt, b})
	}
	resetCaches() // make the goroutines race to build the caches too
	checkConcurrentRenders(t, jobs, 1)
}

// renderJob is a position to draw and the bytes a sequential render gave.
type renderJob struct {
	pos  engine.Position
	opt  Options
	want []byte
}

// checkConcurrentRenders has 6 goroutines render every job rounds times,
// each starting at a different job, and fails if any render errs or differs
// from the sequential one. Run with -race.
func checkConcurrentRenders(t *testing.T, jobs []renderJob, rounds int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range rounds * len(jobs) {
				j := jobs[(i+g)%len(jobs)]
				b, err := Render(j.pos, j.opt)
				if err != nil {
					errs <- err.Error()
					return
				}
				if !bytes.Equal(b, j.want) {
					errs <- "concurrent render differs from a sequential one"
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// resetCaches empties every cache, as at process start.
func resetCaches() {
	boards = cache[grid, *board]{}
	tankSprites = cache[spriteKey, *tile]{}
	rockTiles = cache[int, *tile]{}
	pills = cache[pillKey, *tile]{}
	lutOnce = sync.Once{}
	fontsOnce = sync.Once{}
	lines = cache[lineKey, *line]{}
}

type otherGame struct{ engine.Rules }

func (otherGame) Name() string { return "chess" }

type otherPos struct{ engine.Position }

func (otherPos) Rules() engine.Rules { return otherGame{} }

func TestErrors(t *testing.T) {
	if _, err := Render(otherPos{}, Options{}); err == nil {
		t.Error("unknown game: no error")
	}
	if _, err := Render(nil, Options{}); err == nil {
		t.Error("nil position: no error")
	}
	p, err := tank.StartPosition("basic16")
	if err != nil {
		t.Fatal(err)
	}
	type notTank struct{ engine.Move }
	if _, err := Render(p, Options{Last: notTank{}}); err == nil {
		t.Error("foreign move: no error")
	}
	off := tank.Move{From: tank.Square{File: 3, Rank: 3}, To: tank.Square{File: 30, Rank: 3}}
	if _, err := Render(p, Options{Last: off}); err == nil {
		t.Error("move off the board: no error")
	}
	neg := tank.Move{From: tank.Square{File: -1, Rank: 0}, Escape: true}
	if _, err := Render(p, Options{Last: &neg}); err == nil {
		t.Error("escape from off the board: no error")
	}
}

func TestPaletteKeysExact(t *testing.T) {
	q := quantLUT()
	seen := map[int]int{}
	for k, c := range keyColors {
		bk := bucket(int32(c.R), int32(c.G), int32(c.B))
		if o, dup := seen[bk]; dup {
			t.Errorf("key colours %d and %d share a quantiser bucket", o, k)
		}
		seen[bk] = k
		if q[bk] != uint8(k) {
			t.Errorf("key colour %d quantises to %d", k, q[bk])
		}
	}
	if len(palette) > 256 {
		t.Errorf("palette has %d colours", len(palette))
	}
}
