package imaging_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/tank"
	"github.com/tankbot/tankbot/imaging"
)

// Draw a position after a move, the move highlighted, as the bot posts it.
func ExampleRender() {
	pos, err := tank.Rules.Start("basic16")
	if err != nil {
		panic(err)
	}
	m, err := pos.ParseMove("c3 > c5n")
	if err != nil {
		panic(err)
	}
	after, err := pos.Play(m)
	if err != nil {
		panic(err)
	}
	data, err := imaging.Render(after, imaging.Options{Last: m})
	if err != nil {
		panic(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		panic(err)
	}
	fmt.Println("PNG", img.Bounds().Dx(), "x", img.Bounds().Dy())
	// Output:
	// PNG 865 x 905
}

// Any game's position: Black at the bottom with Flip.
func ExampleRender_flip() {
	pos, err := camelot.Rules.Start("")
	if err != nil {
		panic(err)
	}
	data, err := imaging.Render(pos, imaging.Options{Flip: true})
	if err != nil {
		panic(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		panic(err)
	}
	fmt.Println("PNG", cfg.Width, "x", cfg.Height)
	// Output:
	// PNG 881 x 713
}
