package main

// render draws a position as a PNG with the bot's renderer.

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/imaging"
)

// runRender draws --position, or, with --last, the position after that move
// (which must be legal in --position) with the move highlighted.
func runRender(args []string, stdout, _ io.Writer) error {
	g := newGameFlags("render")
	last := g.fs.String("last", "", "a move legal in --position: draw the position after it, with the move highlighted")
	flip := g.fs.Bool("flip", false, "draw from Black's side")
	out := g.fs.String("out", "", "PNG file to write, - for standard output")
	lang := g.fs.String("lang", "en", "language of the words in the image: "+strings.Join(i18n.Locales, ", "))
	pos, err := g.parse(args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf(g.fs, "--out is required (a file name, or - for standard output)")
	}
	loc := i18n.Normalize(*lang)
	if loc == "" {
		return fmt.Errorf("--lang %q: not a language of the catalog (%s)", *lang, strings.Join(i18n.Locales, ", "))
	}
	opt := imaging.Options{Flip: *flip, Text: i18n.Text(loc)}
	if *last != "" {
		m, err := pos.ParseMove(*last)
		if err != nil {
			return fmt.Errorf("--last %q: %w", *last, err)
		}
		if pos, err = pos.Play(m); err != nil {
			return fmt.Errorf("--last %q: %w", *last, err)
		}
		opt.Last = m
	}
	png, err := imaging.Render(pos, opt)
	if err != nil {
		return err
	}
	if *out == "-" {
		_, err = stdout.Write(png)
		return err
	}
	if err := os.WriteFile(*out, png, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	return nil
}
