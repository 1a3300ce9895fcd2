package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"slices"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
)

// A replay over its byte budget is sampled: fewer frames, within the
// budget, starting at the start and ending on the final position, each
// frame standing for its plies.
func TestReplaySampledFitsLimit(t *testing.T) {
	var ps []engine.Position
	var ms []engine.Move
	for seed := int64(1); len(ms) < 40 && seed < 50; seed++ {
		ps, ms = replayGame(t, "camelot", "start", seed, 40)
	}
	full, err := RenderReplay(ps, ms, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	limit := len(full) / 3
	data, err := RenderReplay(ps, ms, ReplayOptions{MaxBytes: limit, Delay: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > limit {
		t.Fatalf("sampled replay %d bytes, limit %d", len(data), limit)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) < 2 || len(anim.Image) >= len(ps) {
		t.Fatalf("%d frames for %d positions: not sampled", len(anim.Image), len(ps))
	}
	t.Logf("%d plies: full %d bytes, sampled %d bytes in %d frames", len(ms), len(full), len(data), len(anim.Image))
	for i, d := range anim.Delay {
		want := d >= 50 && d <= 100 // one ply's 500 ms up to twice that
		if i == len(anim.Delay)-1 {
			want = d == 400 // the held end
		}
		if !want {
			t.Fatalf("frame %d delay %d×10 ms", i, d)
		}
	}
	// The frames composed give the final position as its still shows it.
	canvas := image.NewRGBA(image.Rect(0, 0, anim.Config.Width, anim.Config.Height))
	for _, fr := range anim.Image {
		for y := fr.Rect.Min.Y; y < fr.Rect.Max.Y; y++ {
			for x := fr.Rect.Min.X; x < fr.Rect.Max.X; x++ {
				if c := fr.At(x, y); !transparentColor(c) {
					canvas.Set(x, y, c)
				}
			}
		}
	}
	still, _ := render(t, ps[len(ps)-1], Options{Last: ms[len(ms)-1]})
	for y := 0; y < still.Rect.Dy(); y++ {
		for x := 0; x < still.Rect.Dx(); x++ {
			if a, b := color.RGBAModel.Convert(still.At(x, y)), canvas.At(x, y); a != b {
				t.Fatalf("pixel (%d,%d) is %v in the sampled GIF, %v in the final still", x, y, b, a)
			}
		}
	}
	// Under its budget a replay keeps every ply.
	same, err := RenderReplay(ps, ms, ReplayOptions{MaxBytes: len(full)})
	if err != nil || !bytes.Equal(same, full) {
		t.Fatalf("a replay within its budget changed (%v)", err)
	}
	// Weighed by its first plies (a long game), a replay far over its
	// budget is sampled at once, and fits.
	defer func(p int) { replayProbe = p }(replayProbe)
	replayProbe = 8
	probed, err := RenderReplay(ps, ms, ReplayOptions{MaxBytes: len(full) / 2})
	if err != nil || len(probed) > len(full)/2 {
		t.Fatalf("probed replay: %d bytes (%v), limit %d", len(probed), err, len(full)/2)
	}
	if a, err := gif.DecodeAll(bytes.NewReader(probed)); err != nil || len(a.Image) >= len(ps) || len(a.Image) < 2 {
		t.Fatalf("probed replay: %v, %d frames of %d", err, len(a.Image), len(ps))
	}
	// Within its budget a long replay still keeps every ply.
	if same, err := RenderReplay(ps, ms, ReplayOptions{MaxBytes: len(full)}); err != nil || !bytes.Equal(same, full) {
		t.Fatalf("a probed replay within its budget changed (%v)", err)
	}
}

func TestSampleFrames(t *testing.T) {
	var ps []engine.Position
	for seed := int64(1); len(ps) < 61 && seed < 50; seed++ {
		ps, _ = replayGame(t, "camelot", "start", seed, 60)
	}
	last := len(ps) - 1
	var captures []int
	for i := 1; i < last; i++ {
		if pieces(ps[i]) < pieces(ps[i-1]) {
			captures = append(captures, i)
		}
	}
	if len(captures) == 0 {
		t.Fatal("the test game has no capture")
	}
	for _, n := range []int{0, 1, 2, 3, len(captures) + 2, len(captures) + 10, last, last + 1, last + 5} {
		got := SampleFrames(ps, n)
		want := min(max(n, 2), last+1)
		if len(got) != want {
			t.Fatalf("n=%d: %d frames %v, want %d", n, len(got), got, want)
		}
		if got[0] != 0 || got[len(got)-1] != last || !slices.IsSorted(got) {
			t.Fatalf("n=%d: %v does not run from 0 to %d in order", n, got, last)
		}
		for i := 1; i < len(got); i++ {
			if got[i] == got[i-1] {
				t.Fatalf("n=%d: ply %d twice", n, got[i])
			}
		}
		if n >= len(captures)+2 {
			for _, c := range captures {
				if !slices.Contains(got, c) {
					t.Fatalf("n=%d: capture at ply %d dropped: %v", n, c, got)
				}
			}
		}
	}
}
