package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"math/rand"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// replayGame plays up to plies random legal moves from a variant's start.
func replayGame(t testing.TB, game, variant string, seed int64, plies int) ([]engine.Position, []engine.Move) {
	t.Helper()
	rules, err := games.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.Start(variant)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(pos)
	ps := []engine.Position{pos}
	var ms []engine.Move
	rng := rand.New(rand.NewSource(seed))
	for len(ms) < plies && !g.Outcome().Over() {
		legal := g.Position().LegalMoves()
		m := legal[rng.Intn(len(legal))]
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		ps, ms = append(ps, g.Position()), append(ms, m)
	}
	return ps, ms
}

var replayCases = []struct{ game, variant string }{{"tank", "basic20"}, {"camelot", "start"}, {"gungi", "quick"}}

func TestReplayFramesMatchStills(t *testing.T) {
	for _, c := range replayCases {
		t.Run(c.game, func(t *testing.T) {
			ps, ms := replayGame(t, c.game, c.variant, 5, 24)
			// Flipped boards once (the frames are the stills' either way).
			flips := []bool{false}
			if c.game == "tank" {
				flips = append(flips, true)
			}
			for _, flip := range flips {
				data, err := RenderReplay(ps, ms, ReplayOptions{Flip: flip, Delay: 500 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				anim, err := gif.DecodeAll(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if len(anim.Image) != len(ms)+1 {
					t.Fatalf("%d frames for %d plies", len(anim.Image), len(ms))
				}
				if anim.Delay[0] != 50 || anim.Delay[len(ms)] != 400 {
					t.Fatalf("delays %d … %d, want 50 … 400 (held)", anim.Delay[0], anim.Delay[len(ms)])
				}
				canvas := image.NewRGBA(image.Rect(0, 0, anim.Config.Width, anim.Config.Height))
				check := map[int]bool{0: true, 1: true, len(ms) / 2: true, len(ms): true}
				for i, fr := range anim.Image {
					if i > 0 && fr.Bounds().Dx()*fr.Bounds().Dy() >= anim.Config.Width*anim.Config.Height {
						t.Errorf("frame %d is the whole image: only changes should be encoded", i)
					}
					for y := fr.Rect.Min.Y; y < fr.Rect.Max.Y; y++ {
						for x := fr.Rect.Min.X; x < fr.Rect.Max.X; x++ {
							if c := fr.At(x, y); !transparentColor(c) {
								canvas.Set(x, y, c)
							}
						}
					}
					if !check[i] {
						continue
					}
					opt := Options{Flip: flip}
					if i > 0 {
						opt.Last = ms[i-1]
					}
					still, _ := render(t, ps[i], opt)
					if still.Rect != canvas.Rect {
						t.Fatalf("ply %d: still %v, gif %v", i, still.Rect, canvas.Rect)
					}
					for y := 0; y < still.Rect.Dy(); y++ {
						for x := 0; x < still.Rect.Dx(); x++ {
							a, b := color.RGBAModel.Convert(still.At(x, y)), canvas.At(x, y)
							if a != b {
								t.Fatalf("flip %v ply %d: pixel (%d,%d) is %v in the GIF, %v in the still", flip, i, x, y, b, a)
							}
						}
					}
				}
			}
		})
	}
}

func transparentColor(c color.Color) bool {
	_, _, _, a := c.RGBA()
	return a == 0
}

func TestReplayErrors(t *testing.T) {
	ps, ms := replayGame(t, "camelot", "start", 1, 3)
	if _, err := RenderReplay(nil, nil, ReplayOptions{}); err == nil {
		t.Fatal("no positions accepted")
	}
	if _, err := RenderReplay(ps, ms[:1], ReplayOptions{}); err == nil {
		t.Fatal("missing moves accepted")
	}
	tank, _ := replayGame(t, "tank", "basic16", 1, 0)
	if _, err := RenderReplay(append(ps[:1:1], tank[0]), ms[:1], ReplayOptions{}); err == nil {
		t.Fatal("a position of another game accepted")
	}
	// A start alone is one frame.
	data, err := RenderReplay(ps[:1], nil, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if anim, err := gif.DecodeAll(bytes.NewReader(data)); err != nil || len(anim.Image) != 1 {
		t.Fatalf("%v", err)
	}
}

// go test ./imaging -run '^$' -bench Replay -benchtime 3x
// Reports CPU ms per GIF and its size; target for the 100-ply 20×20 Tank
// Chess game: ≤ 1 s and ≤ 4 MB.
func BenchmarkReplay(b *testing.B) {
	for _, c := range replayCases {
		// The first seed whose random game lasts 100 plies.
		var ps []engine.Position
		var ms []engine.Move
		for seed := int64(1); len(ms) < 100 && seed < 50; seed++ {
			ps, ms = replayGame(b, c.game, c.variant, seed, 100)
		}
		b.Run(c.game+"-"+c.variant, func(b *testing.B) {
			size := 0
			c0 := cpuTime()
			for b.Loop() {
				data, err := RenderReplay(ps, ms, ReplayOptions{})
				if err != nil {
					b.Fatal(err)
				}
				size = len(data)
			}
			reportCPU(b, c0)
			b.ReportMetric(float64(size), "gif-bytes")
			b.ReportMetric(float64(len(ms)), "plies")
		})
	}
}
