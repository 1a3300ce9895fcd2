package imaging

import (
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	"math/bits"
	"sort"
	"sync"
)

// A PNG writer specialised for our frames. image/png at BestSpeed spends
// most of a frame's time in general-purpose LZ77 matching over ~800 KB of
// pixels. Our frames are flat colour laid out on a grid, so almost every
// repeat is either the byte before (runs), the same byte one row up, or the
// same byte one square to the left. Trying just
// those three distances with 8-byte compares, then coding the tokens in one
// dynamic-Huffman deflate block (RFC 1951 §3.2.7), is faster than the
// general encoder and gives smaller files (numbers in docs/imaging.md). The
// output is a standard PNG; the tests decode every image with image/png.

var pngSig = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

type pngScratch struct {
	raw  []byte   // filtered rows: 0 (filter None) followed by the pixels
	toks []uint32 // LZ77 tokens of raw
	out  []byte
}

var scratchPool = sync.Pool{New: func() any { return new(pngScratch) }}

// encodePNG writes img as an 8-bit paletted PNG. repeat is the pixel
// distance at which the picture repeats horizontally (the square pitch), or
// 0.
func encodePNG(img *image.Paletted, repeat int) []byte {
	s := scratchPool.Get().(*pngScratch)
	defer scratchPool.Put(s)
	w, h := img.Rect.Dx(), img.Rect.Dy()
	rowLen := w + 1
	n := rowLen * h
	if cap(s.raw) < n {
		s.raw = make([]byte, n)
	}
	raw := s.raw[:n]
	for y := 0; y < h; y++ {
		raw[y*rowLen] = 0
		copy(raw[y*rowLen+1:(y+1)*rowLen], img.Pix[y*img.Stride:y*img.Stride+w])
	}

	out := append(s.out[:0], pngSig...)
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(w))
	binary.BigEndian.PutUint32(hdr[4:], uint32(h))
	hdr[8], hdr[9] = 8, 3 // 8 bits, palette
	out = chunk(out, "IHDR", hdr[:])
	out = chunk(out, "PLTE", plte(img.Palette))

	// IDAT: zlib header, one fixed-Huffman deflate block, Adler-32.
	start := len(out)
	out = append(out, 0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x78, 0x01)
	out, s.toks = deflate(out, raw, []int{1, rowLen, repeat}, s.toks[:0])
	out = binary.BigEndian.AppendUint32(out, adler32.Checksum(raw))
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-8))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))

	out = chunk(out, "IEND", nil)
	s.out = out
	return append([]byte(nil), out...)
}

func chunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}

func plte(p color.Palette) []byte {
	b := make([]byte, 0, 3*len(p))
	for _, c := range p {
		r, g, bb, _ := c.RGBA()
		b = append(b, byte(r>>8), byte(g>>8), byte(bb>>8))
	}
	return b
}

// bitWriter packs deflate's LSB-first bit stream.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (b *bitWriter) write(v uint64, n uint) {
	b.acc |= v << b.nacc
	b.nacc += n
	for b.nacc >= 32 {
		b.out = binary.LittleEndian.AppendUint32(b.out, uint32(b.acc))
		b.acc >>= 32
		b.nacc -= 32
	}
}

// flush writes the pending bits, padding the last byte with zeros.
func (b *bitWriter) flush() []byte {
	for b.nacc > 0 {
		b.out = append(b.out, byte(b.acc))
		b.acc >>= 8
		b.nacc -= min(b.nacc, 8)
	}
	return b.out
}

type code struct {
	bits uint32
	n    uint8
}

// lenSym maps a match length (3..258) to its deflate symbol and extra bits.
var lenSym = func() (t [259]struct {
	sym   int
	extra uint32
	nx    uint8
}) {
	base := []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	extra := []uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	for i := range base {
		end := 259
		if i+1 < len(base) {
			end = base[i+1]
		}
		if i == len(base)-2 {
			end = 258 // 227..257 use symbol 284; 258 has its own
		}
		for l := base[i]; l < end; l++ {
			t[l].sym, t[l].extra, t[l].nx = 257+i, uint32(l-base[i]), extra[i]
		}
	}
	return t
}()

// distSym returns the distance symbol, extra value and extra bit count for
// distance d (1..32768).
func distSym(d int) (sym int, extra uint32, nx uint) {
	dbase := []int{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	i := len(dbase) - 1
	for dbase[i] > d {
		i--
	}
	if i >= 4 {
		nx = uint(i/2 - 1)
	}
	return i, uint32(d - dbase[i]), nx
}

const matchBit = 1 << 31

// deflate appends one final dynamic-Huffman deflate block coding src,
// looking for repeats only at the given distances (at most 4).
func deflate(out, src []byte, dists []int, toks []uint32) ([]byte, []uint32) {
	type dcode struct {
		d, sym int
		ext    uint32
		nx     uint
	}
	var ds []dcode
	for _, d := range dists {
		if d >= 1 && d <= 32768 && len(ds) < 4 {
			sym, e, nx := distSym(d)
			ds = append(ds, dcode{d, sym, e, nx})
		}
	}
	var litFreq [286]int
	var distFreq [30]int
	n := len(src)
	for i := 0; i < n; {
		best, bl := -1, 2
		maxL := min(258, n-i)
		for k, d := range ds {
			// The first byte rules most candidates out before the slices
			// are set up; matches shorter than 3 are useless anyway.
			if d.d > i || maxL < 3 || src[i] != src[i-d.d] {
				continue
			}
			l := matchLen(src[i:i+maxL], src[i-d.d:i-d.d+maxL])
			if l > bl {
				best, bl = k, l
				if l == maxL {
					break
				}
			}
		}
		if best < 0 {
			toks = append(toks, uint32(src[i]))
			litFreq[src[i]]++
			i++
			continue
		}
		toks = append(toks, matchBit|uint32(best)<<9|uint32(bl))
		litFreq[lenSym[bl].sym]++
		distFreq[ds[best].sym]++
		i += bl
	}
	litFreq[256]++

	litLen := huffLengths(litFreq[:], 15)
	distLen := huffLengths(distFreq[:], 15)
	litCode := canonical(litLen)
	distCode := canonical(distLen)

	bw := bitWriter{out: out}
	bw.write(0b101, 3) // BFINAL=1, BTYPE=10 (dynamic)
	writeTables(&bw, litLen, distLen)
	for _, t := range toks {
		if t&matchBit == 0 {
			c := litCode[t]
			bw.write(uint64(c.bits), uint(c.n))
			continue
		}
		l := t & 511
		d := ds[t>>9&3]
		ls := lenSym[l]
		c := litCode[ls.sym]
		bw.write(uint64(c.bits)|uint64(ls.extra)<<c.n, uint(c.n)+uint(ls.nx))
		dc := distCode[d.sym]
		bw.write(uint64(dc.bits)|uint64(d.ext)<<dc.n, uint(dc.n)+d.nx)
	}
	c := litCode[256]
	bw.write(uint64(c.bits), uint(c.n))
	return bw.flush(), toks
}

// writeTables writes HLIT, HDIST, HCLEN and the run-length coded code
// lengths of the two alphabets.
func writeTables(bw *bitWriter, litLen, distLen []uint8) {
	nl, nd := len(litLen), len(distLen)
	for nl > 257 && litLen[nl-1] == 0 {
		nl--
	}
	for nd > 1 && distLen[nd-1] == 0 {
		nd--
	}
	all := append(append([]uint8(nil), litLen[:nl]...), distLen[:nd]...)
	// Run-length code: symbols 0-15, 16 (repeat previous 3-6), 17 (3-10
	// zeros), 18 (11-138 zeros); extra bits kept beside each symbol.
	type rl struct{ sym, ext, nx uint8 }
	var seq []rl
	var clFreq [19]int
	for i := 0; i < len(all); {
		v := all[i]
		run := 1
		for i+run < len(all) && all[i+run] == v {
			run++
		}
		i += run
		if v == 0 {
			for run >= 11 {
				r := min(run, 138)
				seq = append(seq, rl{18, uint8(r - 11), 7})
				run -= r
			}
			if run >= 3 {
				seq = append(seq, rl{17, uint8(run - 3), 3})
				run = 0
			}
		} else {
			seq = append(seq, rl{v, 0, 0})
			run--
			for run >= 3 {
				r := min(run, 6)
				seq = append(seq, rl{16, uint8(r - 3), 2})
				run -= r
			}
		}
		for ; run > 0; run-- {
			seq = append(seq, rl{v, 0, 0})
		}
	}
	for _, r := range seq {
		clFreq[r.sym]++
	}
	clLen := huffLengths(clFreq[:], 7)
	clCode := canonical(clLen)
	order := [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	ncl := 19
	for ncl > 4 && clLen[order[ncl-1]] == 0 {
		ncl--
	}
	bw.write(uint64(nl-257), 5)
	bw.write(uint64(nd-1), 5)
	bw.write(uint64(ncl-4), 4)
	for _, o := range order[:ncl] {
		bw.write(uint64(clLen[o]), 3)
	}
	for _, r := range seq {
		c := clCode[r.sym]
		bw.write(uint64(c.bits)|uint64(r.ext)<<c.n, uint(c.n)+uint(r.nx))
	}
}

// huffLengths returns Huffman code lengths (at most limit bits) for the
// frequencies; symbols of frequency 0 get no code. At least two symbols get
// a code, as some decoders require. Frequencies are halved until the tree
// fits the limit.
func huffLengths(freq []int, limit int) []uint8 {
	f := append([]int(nil), freq...)
	used := 0
	for _, v := range f {
		if v > 0 {
			used++
		}
	}
	for i := 0; used < 2 && i < len(f); i++ {
		if f[i] == 0 {
			f[i] = 1
			used++
		}
	}
	for {
		lens, depth := huffTree(f)
		if depth <= limit {
			return lens
		}
		for i, v := range f {
			if v > 0 {
				f[i] = (v + 1) / 2
			}
		}
	}
}

// huffTree builds a Huffman tree by repeatedly merging the two lightest
// nodes and returns every symbol's depth and the largest depth.
func huffTree(f []int) ([]uint8, int) {
	type node struct{ w, l, r int } // l, r: children (-1 for leaves: r is the symbol)
	var nodes []node
	var q []int // node indices, kept sorted by weight (small alphabets)
	for s, w := range f {
		if w > 0 {
			nodes = append(nodes, node{w, -1, s})
			q = append(q, len(nodes)-1)
		}
	}
	sort.SliceStable(q, func(i, j int) bool { return nodes[q[i]].w < nodes[q[j]].w })
	for len(q) > 1 {
		a, b := q[0], q[1]
		q = q[2:]
		nodes = append(nodes, node{nodes[a].w + nodes[b].w, a, b})
		k := len(nodes) - 1
		pos := sort.Search(len(q), func(i int) bool { return nodes[q[i]].w > nodes[k].w })
		q = append(q, 0)
		copy(q[pos+1:], q[pos:])
		q[pos] = k
	}
	lens := make([]uint8, len(f))
	maxD := 0
	var walk func(i, d int)
	walk = func(i, d int) {
		if nodes[i].l < 0 {
			lens[nodes[i].r] = uint8(max(d, 1))
			maxD = max(maxD, d)
			return
		}
		walk(nodes[i].l, d+1)
		walk(nodes[i].r, d+1)
	}
	walk(q[0], 0)
	return lens, maxD
}

// canonical assigns deflate's canonical codes to code lengths, bit-reversed
// for the LSB-first stream.
func canonical(lens []uint8) []code {
	var count [16]int
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]int
	c := 0
	for b := 1; b < 16; b++ {
		c = (c + count[b-1]) << 1
		next[b] = c
	}
	out := make([]code, len(lens))
	for s, l := range lens {
		if l > 0 {
			out[s] = code{bits.Reverse32(uint32(next[l])) >> (32 - uint(l)), l}
			next[l]++
		}
	}
	return out
}

// matchLen is the length of the common prefix of a and b (len(a) == len(b)).
func matchLen(a, b []byte) int {
	n := 0
	for len(a)-n >= 8 {
		x := binary.LittleEndian.Uint64(a[n:]) ^ binary.LittleEndian.Uint64(b[n:])
		if x != 0 {
			return n + bits.TrailingZeros64(x)>>3
		}
		n += 8
	}
	for n < len(a) && a[n] == b[n] {
		n++
	}
	return n
}
