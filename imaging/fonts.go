package imaging

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/go-text/typesetting/font"
	"golang.org/x/image/font/gofont/gobold"
)

// Two fonts are compiled into the binary, so rendering needs no files:
// Go Bold (BSD licence, part of golang.org/x/image) for Latin, digits and
// symbols, and Noto Sans Thai Bold (SIL OFL 1.1, fonts/OFL.txt, 38 KB) for
// Thai. Text is shaped with go-text/typesetting's HarfBuzz port (text.go),
// which places Thai vowel and tone marks; the Go rasteriser of fogleman/gg
// does not shape and would stack them.

//go:embed fonts/NotoSansThai-Bold.ttf
var notoSansThaiBold []byte

var (
	fontsOnce sync.Once
	latinFace *font.Face
	thaiFace  *font.Face
)

func loadFonts() {
	fontsOnce.Do(func() {
		var err error
		if latinFace, err = font.ParseTTF(bytes.NewReader(gobold.TTF)); err != nil {
			// The fonts are constants of the binary; failing to parse one is a
			// build defect, not a runtime condition.
			panic("imaging: parse Go Bold: " + err.Error())
		}
		if thaiFace, err = font.ParseTTF(bytes.NewReader(notoSansThaiBold)); err != nil {
			panic("imaging: parse Noto Sans Thai Bold: " + err.Error())
		}
	})
}
