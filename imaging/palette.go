package imaging

import (
	"image/color"
	"sync"
)

// The whole renderer draws into one fixed palette so that frames are
// *image.Paletted: a quarter of the bytes of RGBA to copy, compress and send.
// The palette is the named colours below (flat areas come out exact) followed
// by a 6×6×6 colour cube that catches anti-aliased edges and blends within
// about 25 levels per channel, which is invisible at these sizes.

// Named colours. Each must fall in its own 5-bit-per-channel bucket so that the
// quantiser maps it back to itself exactly (TestPaletteKeysExact).
const (
	cFrame       = iota // image background around the board
	cHeader             // header strip
	cHeaderText         // header text
	cCoord              // coordinate letters and numbers
	cField              // board squares
	cGrid               // grid lines
	cMoveBg             // last move origin / destination
	cHitBg              // square of the piece just destroyed
	cCheckBg            // square of a threatened CLT
	cEscapeBg           // square of a CLT that can escape
	cRock               // obstacle face
	cRockLight          // obstacle bevel, lit side
	cRockDark           // obstacle bevel, shaded side and hatching
	cWhiteHull          // white tank body
	cWhiteTurret        // white tank turret
	cWhiteTrack         // white tank tracks
	cWhiteLine          // white tank outline (dark)
	cBlackHull          // black tank body
	cBlackTurret        // black tank turret
	cBlackTrack         // black tank tracks
	cBlackLine          // black tank outline (light)
	cWreckWhite         // burnt white hull
	cWreckBlack         // burnt black hull
	cSoot               // scorch mark under a wreck
	cEmber              // glowing bits on a wreck
	cFlag               // CLT pennant
	cShot               // line of fire of the last shot
	cMortar             // mortar arc
	cThreat             // threat lines (CHECK)
	cEscape             // escape routes and the escape arrow
	cInk                // outlines of overlays, dark text
	cImpact             // impact star
	cBannerWin          // game over pill
	numKeys
)

var keyColors = [numKeys]color.RGBA{
	cFrame:       {0x26, 0x2a, 0x27, 0xff},
	cHeader:      {0x1b, 0x1e, 0x1c, 0xff},
	cHeaderText:  {0xee, 0xea, 0xdc, 0xff},
	cCoord:       {0xc8, 0xc6, 0xb4, 0xff},
	cField:       {0x93, 0xa4, 0x7c, 0xff},
	cGrid:        {0x6f, 0x7e, 0x5c, 0xff},
	cMoveBg:      {0xd8, 0xcf, 0x6a, 0xff},
	cHitBg:       {0xd4, 0x9c, 0x7a, 0xff},
	cCheckBg:     {0xe0, 0x70, 0x66, 0xff},
	cEscapeBg:    {0x86, 0xcf, 0x9a, 0xff},
	cRock:        {0x7c, 0x84, 0x6c, 0xff},
	cRockLight:   {0x9c, 0xa2, 0x8a, 0xff},
	cRockDark:    {0x68, 0x6e, 0x5a, 0xff},
	cWhiteHull:   {0xe9, 0xe2, 0xcf, 0xff},
	cWhiteTurret: {0xfa, 0xf7, 0xee, 0xff},
	cWhiteTrack:  {0x8a, 0x82, 0x72, 0xff},
	cWhiteLine:   {0x16, 0x16, 0x16, 0xff},
	cBlackHull:   {0x3a, 0x3d, 0x45, 0xff},
	cBlackTurret: {0x53, 0x57, 0x62, 0xff},
	cBlackTrack:  {0x0e, 0x0f, 0x12, 0xff},
	cBlackLine:   {0xf4, 0xf4, 0xf0, 0xff},
	cWreckWhite:  {0xc8, 0xb6, 0x96, 0xff},
	cWreckBlack:  {0x50, 0x3e, 0x36, 0xff},
	cSoot:        {0x35, 0x32, 0x2c, 0xff},
	cEmber:       {0xf5, 0x8a, 0x1f, 0xff},
	cFlag:        {0xf6, 0xc3, 0x2b, 0xff},
	cShot:        {0xf0, 0x3c, 0x28, 0xff},
	cMortar:      {0xff, 0x93, 0x10, 0xff},
	cThreat:      {0xe8, 0x1e, 0x5a, 0xff},
	cEscape:      {0x1f, 0xc8, 0x5a, 0xff},
	cInk:         {0x08, 0x08, 0x08, 0xff},
	cImpact:      {0xff, 0xe6, 0x3a, 0xff},
	cBannerWin:   {0xe8, 0xb8, 0x3a, 0xff},
}

// palette is keyColors followed by the colour cube (33 + 216 = 249 entries).
var palette = func() color.Palette {
	p := make(color.Palette, 0, numKeys+216)
	for _, c := range keyColors {
		p = append(p, c)
	}
	for r := 0; r < 6; r++ {
		for g := 0; g < 6; g++ {
			for b := 0; b < 6; b++ {
				p = append(p, color.RGBA{uint8(r * 51), uint8(g * 51), uint8(b * 51), 0xff})
			}
		}
	}
	return p
}()

// rgbOf is the palette as plain RGB triples, for blending.
var rgbOf = func() [256][3]int32 {
	var t [256][3]int32
	for i, c := range palette {
		r, g, b, _ := c.RGBA()
		t[i] = [3]int32{int32(r >> 8), int32(g >> 8), int32(b >> 8)}
	}
	return t
}()

var (
	lutOnce sync.Once
	lut     []uint8 // 15-bit RGB -> palette index
)

// quantLUT returns the nearest-colour table, built on first use (~2 ms).
func quantLUT() []uint8 {
	lutOnce.Do(func() {
		t := make([]uint8, 1<<15)
		for i := range t {
			r := int32(i>>10)<<3 | 4
			g := int32(i>>5&31)<<3 | 4
			b := int32(i&31)<<3 | 4
			// Nearest cube point, channel by channel, is the nearest cube point.
			cr, cg, cb := (r+25)/51, (g+25)/51, (b+25)/51
			best := numKeys + int(cr*36+cg*6+cb)
			bd := dist2(rgbOf[best], r, g, b)
			for k := 0; k < numKeys; k++ {
				if d := dist2(rgbOf[k], r, g, b); d < bd {
					best, bd = k, d
				}
			}
			t[i] = uint8(best)
		}
		// Named colours map to themselves exactly.
		for k, c := range keyColors {
			t[bucket(int32(c.R), int32(c.G), int32(c.B))] = uint8(k)
		}
		lut = t
	})
	return lut
}

func dist2(c [3]int32, r, g, b int32) int32 {
	dr, dg, db := c[0]-r, c[1]-g, c[2]-b
	// Weighted towards green as the eye is; cheap and good enough.
	return 2*dr*dr + 4*dg*dg + 3*db*db
}

func bucket(r, g, b int32) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// mix blends palette colour dst towards named colour c by coverage a (0..256)
// and returns the nearest palette index.
func mix(q []uint8, dst uint8, c uint8, a int32) uint8 {
	if a >= 256 {
		return c
	}
	d, s := rgbOf[dst], rgbOf[c]
	r := d[0] + (s[0]-d[0])*a>>8
	g := d[1] + (s[1]-d[1])*a>>8
	b := d[2] + (s[2]-d[2])*a>>8
	return q[bucket(r, g, b)]
}
