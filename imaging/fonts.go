package imaging

import (
	"sync"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
)

// The Go fonts are compiled into the binary, so rendering needs no files.
// A parsed font is shared; faces keep glyph caches and are not safe for
// concurrent use, so each build step makes its own.

var (
	boldOnce sync.Once
	boldFont *truetype.Font
)

// face returns a new Go Bold face of the given pixel size.
func face(px float64) font.Face {
	boldOnce.Do(func() {
		f, err := truetype.Parse(gobold.TTF)
		if err != nil {
			// The font is a constant of the binary; failing to parse it is a
			// build defect, not a runtime condition.
			panic("imaging: parse Go Bold: " + err.Error())
		}
		boldFont = f
	})
	return truetype.NewFace(boldFont, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull})
}
