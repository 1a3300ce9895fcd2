package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/console"
)

func init() {
	register("play", "play locally: a hot-seat game, or any bot command as text", func(args []string, stdout, stderr io.Writer) error {
		return runPlay(context.Background(), args, os.Stdin, stdout, stderr)
	})
}

// runPlay is the play subcommand with its input injected (tests feed it).
func runPlay(ctx context.Context, args []string, in io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", bot.DefaultPath(), "SQLite database file")
	pngDir := fs.String("png", "", "directory for board images (default: a new private one in the user's cache directory)")
	game := fs.String("game", "tank", "game of the hot-seat game")
	mapName := fs.String("map", "", "map or start position of the hot-seat game (default: the game's first)")
	clock := fs.String("clock", "untimed", "clock of the hot-seat game")
	lang := fs.String("lang", "en", "language: en, th, pt-BR")
	noGame := fs.Bool("no-game", false, "start no hot-seat game; type commands like 'alice: /challenge bob'")
	vs := fs.String("vs", "", "play against the computer: ai:N (level 1-5) instead of a hot-seat game")
	color := fs.String("color", "white", "your colour against the computer: white, black, random")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	level := 0
	if *vs != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(*vs, "ai:"))
		if !strings.HasPrefix(*vs, "ai:") || err != nil || n < 1 || n > 5 {
			return fmt.Errorf("--vs %q: want ai:N with a level N from 1 to 5", *vs)
		}
		level = n
	}
	dir, err := console.PrivateDir(*pngDir)
	if err != nil {
		return err
	}
	*pngDir = dir
	st, err := bot.OpenSQLite(*db)
	if err != nil {
		return err
	}
	defer st.Close()
	clk := console.NewClock(time.Time{})
	c := &console.Console{Out: stdout, Clock: clk, PNGDir: *pngDir, Guild: "local", Channel: "table", Locale: *lang}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c.Bot = bot.New(bot.Config{DefaultLocale: *lang, SelfID: console.SelfID}, st, clk, c, log)
	fmt.Fprintf(stdout, "tankbot play — database %s, boards in %s. Type moves like '%s', commands like 'alice: /board', 'quit' to leave.\n", *db, *pngDir, bot.MoveExample(*game))
	switch {
	case level > 0:
		if err := c.VsAI(ctx, level, *game, *mapName, *clock, *color); err != nil {
			return err
		}
	case !*noGame:
		if err := c.HotSeat(ctx, *game, *mapName, *clock); err != nil {
			return err
		}
	}
	return c.Run(ctx, in)
}
