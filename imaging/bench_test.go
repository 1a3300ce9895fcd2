package imaging

import (
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// go test ./imaging -run '^$' -bench . -benchtime 2s
func BenchmarkRender(b *testing.B) {
	for _, name := range []string{"shot", "checkescape"} {
		var sc scenario
		for _, s := range scenarios {
			if s.name == name {
				sc = s
			}
		}
		pos, opt := sc.position(b)
		label := map[string]string{"shot": "basic16", "checkescape": "basic20"}[name]
		b.Run(label, func(b *testing.B) { benchRender(b, pos, opt) })
	}
}

// benchRender times Render of one position, PNG included, and reports its
// CPU time and PNG size. The render benchmarks of every game use it.
func benchRender(b *testing.B, pos engine.Position, opt Options) {
	size := 0
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		out, err := Render(pos, opt)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	reportCPU(b, c0)
	b.ReportMetric(float64(size), "png-bytes")
}

// BenchmarkColdRender is the first image of a process: font parsing, the
// quantiser table, the board layer and every sprite the position needs.
func BenchmarkColdRender(b *testing.B) {
	var sc scenario
	for _, s := range scenarios {
		if s.name == "checkescape" {
			sc = s
		}
	}
	pos, opt := sc.position(b)
	c0 := cpuTime()
	for b.Loop() {
		resetCaches()
		if _, err := Render(pos, opt); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

// BenchmarkEncode compares this package's grid-aware encoder with image/png
// at BestSpeed (with a pooled encoder buffer) on the same 20×20 frame.
func BenchmarkEncode(b *testing.B) {
	var sc scenario
	for _, s := range scenarios {
		if s.name == "checkescape" {
			sc = s
		}
	}
	pos, opt := sc.position(b)
	f, err := drawers["tank"].draw(pos, opt)
	if err != nil {
		b.Fatal(err)
	}
	defer f.release()
	for _, enc := range []struct {
		name string
		fn   func() ([]byte, error)
	}{
		{"grid-deflate", func() ([]byte, error) { return encodePNG(f.img, f.pitch), nil }},
		{"image-png-bestspeed", func() ([]byte, error) { return encodeStd(f.img) }},
	} {
		b.Run(enc.name, func(b *testing.B) {
			size := 0
			c0 := cpuTime()
			for b.Loop() {
				out, err := enc.fn()
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			reportCPU(b, c0)
			b.ReportMetric(float64(size), "png-bytes")
		})
	}
}

// BenchmarkDraw is the drawing alone (tiles, overlays, the engine's
// announcement), without encoding.
func BenchmarkDraw(b *testing.B) {
	var sc scenario
	for _, s := range scenarios {
		if s.name == "checkescape" {
			sc = s
		}
	}
	pos, opt := sc.position(b)
	c0 := cpuTime()
	for b.Loop() {
		f, err := drawers["tank"].draw(pos, opt)
		if err != nil {
			b.Fatal(err)
		}
		f.release()
	}
	reportCPU(b, c0)
}
