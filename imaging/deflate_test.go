package imaging

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"testing"
)

// checkRoundTrip encodes img and decodes it with image/png.
func checkRoundTrip(t testing.TB, img *image.Paletted, pitch int) {
	t.Helper()
	b := encodePNG(img, pitch)
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%v: decode: %v", img.Rect, err)
	}
	p, ok := got.(*image.Paletted)
	if !ok {
		t.Fatalf("decoded %T", got)
	}
	if p.Rect.Dx() != img.Rect.Dx() || p.Rect.Dy() != img.Rect.Dy() {
		t.Fatalf("size %v, want %v", p.Rect, img.Rect)
	}
	for y := 0; y < img.Rect.Dy(); y++ {
		w := img.Rect.Dx()
		if !bytes.Equal(p.Pix[y*p.Stride:y*p.Stride+w], img.Pix[y*img.Stride:y*img.Stride+w]) {
			t.Fatalf("%v: row %d differs", img.Rect, y)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		w, h, pitch, colours int
	}{
		{1, 1, 0, 1},       // one pixel
		{300, 200, 0, 1},   // one colour: a single literal code
		{257, 3, 7, 2},     // two colours
		{640, 480, 0, 256}, // noise: no matches, every literal
		{870, 910, 41, 6},  // board-sized, few colours
	} {
		img := image.NewPaletted(image.Rect(0, 0, tc.w, tc.h), palette)
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.IntN(min(tc.colours, len(palette))))
		}
		checkRoundTrip(t, img, tc.pitch)
	}
}

func FuzzEncodePNG(f *testing.F) {
	f.Add(uint8(3), uint8(2), uint8(1), []byte{1, 2, 3, 4, 5, 6})
	f.Add(uint8(40), uint8(40), uint8(7), bytes.Repeat([]byte{9, 9, 9, 1}, 50))
	f.Fuzz(func(t *testing.T, w, h, pitch uint8, data []byte) {
		if w == 0 || h == 0 || len(data) == 0 {
			return
		}
		img := image.NewPaletted(image.Rect(0, 0, int(w), int(h)), palette)
		for i := range img.Pix {
			img.Pix[i] = data[i%len(data)] % uint8(len(palette))
		}
		checkRoundTrip(t, img, int(pitch))
	})
}
