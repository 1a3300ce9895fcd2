package imaging

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"sync"
)

// The standard library encoder, kept for BenchmarkEncode to compare with.

// bufferPool lets the PNG encoder reuse its zlib writer and row buffers
// between frames, which saves most of its allocations.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	if v, ok := b.p.Get().(*png.EncoderBuffer); ok {
		return v
	}
	return nil
}

func (b *bufferPool) Put(v *png.EncoderBuffer) { b.p.Put(v) }

var (
	// BestSpeed: the frames are flat colour, so the faster level loses only
	// a few percent of size (see docs/imaging.md).
	encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}
	outPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

func encodeStd(img *image.Paletted) ([]byte, error) {
	buf := outPool.Get().(*bytes.Buffer)
	defer outPool.Put(buf)
	buf.Reset()
	if err := encoder.Encode(buf, img); err != nil {
		return nil, fmt.Errorf("imaging: encode png: %w", err)
	}
	return bytes.Clone(buf.Bytes()), nil
}
