package main

// replay reads a game record file, prints its positions and draws any ply
// or the whole game as an animated GIF.

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tankbot/tankbot/bot/console"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/imaging"
)

func runReplay(args []string, stdout, _ io.Writer) error {
	fs := newFlags("replay")
	file := fs.String("record", "", "the record file to read (as /history attaches it)")
	ply := fs.Int("ply", -1, "the ply to show and draw: 0 is the start; default the final position")
	out := fs.String("out", "", "write the position at --ply as a PNG to this file")
	anim := fs.String("gif", "", "write the whole game as an animated GIF to this file")
	flip := fs.Bool("flip", false, "draw from Black's side")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *file == "" {
		return usageErrorf(fs, "--record is required")
	}
	rec, ps, ms, err := readRecord(*file)
	if err != nil {
		return err
	}
	k := *ply
	if k < 0 {
		k = len(ms)
	}
	if k > len(ms) {
		return usageErrorf(fs, "--ply %d: the game has %d plies (0 to %d)", k, len(ms), len(ms))
	}
	fmt.Fprintf(stdout, "%s: %s (white) vs %s (black), %d plies, %s %s\n", rec.Game, rec.White, rec.Black, len(ms), rec.Outcome.Result, rec.Outcome.Reason)
	// Each line: the ply (what --ply selects), the move as the record
	// numbers it, and the position after it.
	fmt.Fprintf(stdout, "%4s  %-6s %-24s %s\n", "ply", "move", "", "position")
	fmt.Fprintf(stdout, "%4d  %-6s %-24s %s\n", 0, "", "start", ps[0].Encode())
	for i, m := range ms {
		fmt.Fprintf(stdout, "%4d  %-6s %-24s %s\n", i+1, record.MoveLabel(i, ps[i].Turn()), ps[i].FormatMove(m)+record.Suffix(ps[i+1]), ps[i+1].Encode())
		if c := rec.Comment(i); c != "" {
			fmt.Fprintf(stdout, "      ; %s\n", strings.ReplaceAll(c, "\n", "\n      ; "))
		}
	}
	fmt.Fprintf(stdout, "\nposition at ply %d:\n%s", k, console.TextBoard(rec.Game, ps[k].Encode()))
	if *out != "" {
		opt := imaging.Options{Flip: *flip}
		if k > 0 {
			opt.Last = ms[k-1]
		}
		png, err := imaging.Render(ps[k], opt)
		if err != nil {
			return err
		}
		if err := os.WriteFile(*out, png, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", *out, err)
		}
		fmt.Fprintf(stdout, "board: %s\n", *out)
	}
	if *anim != "" {
		g, err := imaging.RenderReplay(ps, ms, imaging.ReplayOptions{Flip: *flip})
		if err != nil {
			return err
		}
		if err := os.WriteFile(*anim, g, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", *anim, err)
		}
		fmt.Fprintf(stdout, "replay: %s (%d frames, %d bytes)\n", *anim, len(ps), len(g))
	}
	return nil
}

// readRecord reads and replays a record file (replay, review).
func readRecord(path string) (*record.Record, []engine.Position, []engine.Move, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	rec, err := record.Parse(string(data))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	ps, ms, err := rec.Positions()
	if err != nil {
		return nil, nil, nil, err
	}
	return rec, ps, ms, nil
}
