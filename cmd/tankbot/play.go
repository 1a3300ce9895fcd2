package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/console"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

func runPlayMain(args []string, stdout, stderr io.Writer) error {
	return runPlay(context.Background(), args, os.Stdin, stdout, stderr)
}

// table is the console's channel: the one place its games are played.
const table = "table"

// startFlags are the play flags that say which game to start; with --db
// and an unfinished game at the table, giving one is an error rather than
// a silent resume of a different game (docs/console.md, "Which game starts").
var startFlags = []string{"game", "map", "clock", "vs", "color"}

// runPlay is the play subcommand with its input injected (tests feed it).
// Each run starts in a fresh temporary database unless --db names one;
// then an unfinished game at the table is resumed.
func runPlay(ctx context.Context, args []string, in io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("play")
	db := fs.String("db", "", "SQLite file to keep the games in; an unfinished game in it is resumed (default: a fresh temporary database, deleted on exit)")
	pngDir := fs.String("png", "", "directory for board images, kept (default: a new private one in the user's cache directory, deleted on exit)")
	game := fs.String("game", "tank", "game to start: "+strings.Join(games.Names(), ", "))
	mapName := fs.String("map", "", "map or start position (default: the game's first)")
	clock := fs.String("clock", "untimed", "clock, e.g. untimed, 10m+5s, 1d")
	lang := fs.String("lang", "en", "language: en, th, pt-BR")
	noGame := fs.Bool("no-game", false, "start no game; type commands like 'alice: /challenge bob'")
	vs := fs.String("vs", "", "play against the computer: ai:N (level 1-5) instead of a hot-seat game")
	color := fs.String("color", "white", "your colour against the computer: white, black, random")
	webAddr := fs.String("web", "127.0.0.1:0", "ADDRESS of the web viewer (docs/web.md); off for none")
	puzzles := fs.Bool("puzzle", false, "solve puzzles of --game instead of playing (docs/puzzles.md); ratings are kept in --db")
	follow := fs.Bool("follow-mover", false, "hot seat: turn the board image to the player to move (default: White at the bottom, as the web viewer)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	level, err := checkPlayFlags(fs, *game, *mapName, *clock, *lang, *vs, *color, *webAddr)
	if err != nil {
		return err
	}
	asked := ""
	fs.Visit(func(f *flag.Flag) {
		for _, n := range startFlags {
			if f.Name == n && asked == "" {
				asked = "--" + n
			}
		}
	})
	dir, err := console.PrivateDir(*pngDir)
	if err != nil {
		return err
	}
	shownDir := dir
	if *pngDir == "" {
		// The images of a run are for looking at while it runs: a
		// folder of its own per run in the cache would pile up.
		defer os.RemoveAll(dir)
		shownDir += " (deleted on exit; --png DIR keeps them)"
	}
	*pngDir = dir
	dbPath, where := *db, ""
	if dbPath == "" {
		tmp, err := os.MkdirTemp("", "tankbot-play-")
		if err != nil {
			return fmt.Errorf("temporary database: %w", err)
		}
		defer os.RemoveAll(tmp)
		dbPath = filepath.Join(tmp, "play.db")
		where = "a fresh temporary database (--db FILE keeps the games)"
	}
	// The console reads the store itself for what a --db file holds (the
	// table's unfinished game, its pending challenges) and for the web
	// viewer; the bot reaches it through its Storage.
	sdb, err := store.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	st := bot.NewStorage(sdb)
	defer st.Close()
	if *puzzles {
		conflict := ""
		fs.Visit(func(f *flag.Flag) {
			if conflict == "" && slices.Contains([]string{"map", "clock", "vs", "color", "no-game"}, f.Name) {
				conflict = "--" + f.Name
			}
		})
		if conflict != "" {
			return usageErrorf(fs, "--puzzle solves puzzles: %s is for games", conflict)
		}
		return playPuzzles(ctx, st, *db, *pngDir, shownDir, *lang, *game, in, stdout, stderr)
	}
	resume, err := unfinished(ctx, sdb)
	if err != nil {
		return err
	}
	if resume != nil && asked != "" {
		return fmt.Errorf("%s has game #%d (%s) unfinished at the table, so %s cannot start another: "+
			"run 'tankbot play --db %s' to resume it (then /resign or /abort ends it), or leave out --db for a fresh game",
			*db, resume.ID, resume.Kind, asked, *db)
	}
	if where == "" {
		where = "database " + *db
		if resume != nil {
			where += fmt.Sprintf(", resuming game #%d (%s, %s vs %s, move %d)", resume.ID, resume.Kind,
				resume.Players[0], resume.Players[1], engine.MoveNumber(resume.Ply))
		}
	}
	clk := console.NewClock(time.Time{})
	c := &console.Console{Out: stdout, Clock: clk, PNGDir: *pngDir, Guild: "local", Channel: table, Locale: *lang}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Hot seat keeps White at the bottom (the file letters stay put, as
	// in the web viewer); against the computer the board faces the human.
	vsComputer := level > 0 || resume != nil && slices.Contains(resume.Players[:], console.SelfID)
	c.Bot = bot.New(bot.Config{DefaultLocale: *lang, SelfID: console.SelfID, WhiteAtBottom: !vsComputer && !*follow}, st, clk, c, log)
	example, err := bannerExample(*game, *mapName, resume)
	if err != nil {
		return err
	}
	speaker := "white" // hot seat: white and black
	if level > 0 || (resume != nil && slices.Contains(resume.Players[:], console.SelfID)) {
		speaker = "you"
	}
	moves := "Type moves like '" + example + "'"
	if vsComputer && (resume != nil || !strings.EqualFold(*color, "white")) {
		// The computer may move first: an example for the start could
		// be its move, not yours. "/move" alone shows one for your turn.
		moves = "Type moves in the game's notation ('you: /move' alone shows an example)"
	}
	fmt.Fprintf(stdout, "tankbot play — %s; boards in %s. %s, commands like '%s: /board', 'quit' to leave.\n", where, shownDir, moves, speaker)
	watch, stopWeb, err := playViewer(ctx, sdb, *webAddr, log, stdout)
	if err != nil {
		return err
	}
	defer stopWeb()
	switch {
	case resume != nil:
		watch()
		return resumeGame(ctx, c, resume, in)
	case *noGame:
	case *db != "":
		// A challenge left pending by an interrupted run would be
		// refused as a duplicate and then accepted in place of the one
		// asked for: it is cancelled first.
		if err := cancelPending(ctx, c, sdb); err != nil {
			return err
		}
		fallthrough
	default:
		if err := startGame(ctx, c, level, *game, *mapName, *clock, *color); err != nil {
			return err
		}
		// The bot has the last word on a start (Tank Chess map rules, a
		// custom position's legality): its refusal was printed above, and
		// a console with no game in it is not what was asked for.
		if g, err := unfinished(ctx, sdb); err != nil || g == nil {
			if err != nil {
				return err
			}
			return usageErrorf(fs, "the game could not start with these flags (the bot's answer is above)")
		}
		watch()
	}
	return c.Run(ctx, in)
}

// startGame starts the game the flags ask for.
func startGame(ctx context.Context, c *console.Console, level int, game, mapName, clock, color string) error {
	if level > 0 {
		return c.VsAI(ctx, level, game, mapName, clock, color)
	}
	return c.HotSeat(ctx, game, mapName, clock)
}

// cancelPending cancels the challenges the console's players left pending
// at the table, through the bot (as their Cancel buttons would).
func cancelPending(ctx context.Context, c *console.Console, s *store.Store) error {
	for _, who := range []string{"white", "you"} {
		cs, err := s.PendingChallenges(ctx, who)
		if err != nil {
			return err
		}
		for _, ch := range cs {
			if ch.Channel != table || ch.Challenger != who {
				continue
			}
			if err := c.Exec(ctx, fmt.Sprintf("%s: click c:%d:cancel", who, ch.ID)); err != nil {
				return err
			}
		}
	}
	return nil
}

// unfinished is the active game at the console's table, if any.
func unfinished(ctx context.Context, s *store.Store) (*store.Game, error) {
	gs, err := s.ChannelGames(ctx, table)
	if err != nil || len(gs) == 0 {
		return nil, err
	}
	return gs[len(gs)-1], nil
}

// resumeGame shows g's board and makes bare lines the moves of the player
// to move (you, against the computer).
func resumeGame(ctx context.Context, c *console.Console, g *store.Game, in io.Reader) error {
	rules, err := games.Lookup(g.Kind)
	if err != nil {
		return err
	}
	pos, err := rules.Decode(g.Position)
	if err != nil {
		return fmt.Errorf("game #%d: %w", g.ID, err)
	}
	mover := g.Players[int(pos.Turn())]
	for i, p := range g.Players {
		if p == console.SelfID {
			c.AutoTick = true
			mover = g.Players[1-i]
		}
	}
	c.SetTurn(mover)
	if err := c.Exec(ctx, mover+": /board"); err != nil {
		return err
	}
	return c.Run(ctx, in)
}

// playPuzzles is play --puzzle: puzzles of game for "you" (an unfinished
// game in the file stays as it is).
func playPuzzles(ctx context.Context, st bot.Storage, db, pngDir, shownDir, lang, game string, in io.Reader, stdout, stderr io.Writer) error {
	where := "a fresh temporary database (--db FILE keeps your puzzle ratings)"
	if db != "" {
		where = "database " + db
	}
	clk := console.NewClock(time.Time{})
	c := &console.Console{Out: stdout, Clock: clk, PNGDir: pngDir, Guild: "local", Channel: table, Locale: lang}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c.Bot = bot.New(bot.Config{DefaultLocale: lang, SelfID: console.SelfID}, st, clk, c, log)
	r, err := games.Lookup(game)
	if err != nil {
		return err
	}
	// No example move here: one legal in every puzzle does not exist; each
	// puzzle's board says whose move it is.
	fmt.Fprintf(stdout, "tankbot play --puzzle — %s puzzles; %s; boards in %s. Type your move in the game's notation; 'hint', 'stats', 'next' (another puzzle), 'quit' to leave.\n",
		r.Name(), where, shownDir)
	if err := c.Puzzles(ctx, r.Name()); err != nil {
		return err
	}
	return c.Run(ctx, in)
}

// checkPlayFlags checks every flag value that says which game to start
// before the console opens: a wrong one is a usage error (exit 2) listing
// the known values, not a console with no game in it. It returns the AI
// level of --vs (0: hot seat).
func checkPlayFlags(fs *flag.FlagSet, game, mapName, clk, lang, vs, color, web string) (int, error) {
	level := 0
	if vs != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(vs, "ai:"))
		if !strings.HasPrefix(vs, "ai:") || err != nil || n < 1 || n > 5 {
			return 0, usageErrorf(fs, "--vs %q: want ai:N with a level N from 1 to 5", vs)
		}
		level = n
	}
	rules, err := games.Lookup(game)
	if err != nil {
		return 0, usageErrorf(fs, "--game: %v", err)
	}
	if mapName != "" {
		pos, err := games.Position(rules, mapName)
		if v, ok := rules.(interface{ ValidateStart(engine.Position) error }); ok && err == nil {
			err = v.ValidateStart(pos) // a custom start obeys the game's map rules, as /challenge checks
		}
		if err != nil {
			var names []string
			for _, v := range rules.Variants() {
				names = append(names, v.Name)
			}
			why := ""
			if strings.Contains(mapName, "/") || strings.Contains(mapName, " ") { // meant as a position: say what is wrong with it
				why = fmt.Sprintf(" (%v)", err)
			}
			return 0, usageErrorf(fs, "--map %q is not a %s map or start position%s; the %s maps: %s",
				mapName, game, why, game, strings.Join(names, ", "))
		}
	}
	if !validClock(clk) {
		return 0, usageErrorf(fs, "--clock %q: want untimed, minutes with an optional increment (30m, 10m+5s), or days or hours per move (1d, 12h); the presets: %s",
			clk, strings.Join(clockPresets, ", "))
	}
	if !slices.Contains(i18n.Locales, lang) {
		return 0, usageErrorf(fs, "--lang %q: want one of %s", lang, strings.Join(i18n.Locales, ", "))
	}
	if colors := []string{"white", "black", "random"}; !slices.Contains(colors, strings.ToLower(color)) {
		return 0, usageErrorf(fs, "--color %q: want one of %s", color, strings.Join(colors, ", "))
	}
	if web != "off" {
		if _, _, err := net.SplitHostPort(web); err != nil {
			return 0, usageErrorf(fs, "--web %q: want HOST:PORT (127.0.0.1:0 picks a free port) or off", web)
		}
	}
	return level, nil
}

// clockPresets are the clocks /challenge offers.
var clockPresets = []string{"untimed", "30m", "45m", "10m+5s", "1d", "3d", "7d"}

// validClock says whether the bot reads s as a clock: the store's clock
// syntax, with the bot's spellings "rapid" and "-" (the /challenge clock
// option).
func validClock(s string) bool {
	s = strings.ToLower(strings.ReplaceAll(s, " ", ""))
	if s == "rapid" || s == "-" {
		return true
	}
	_, err := clock.ParseSettings(s)
	return err == nil
}

// bannerExample is the example move of the banner: legal in the position
// the console opens on (the resumed game's, else the start asked for).
func bannerExample(game, mapName string, resume *store.Game) (string, error) {
	rules, err := games.Lookup(game)
	if err != nil {
		return "", err
	}
	var pos engine.Position
	if resume != nil {
		if rules, err = games.Lookup(resume.Kind); err == nil {
			pos, err = rules.Decode(resume.Position)
		}
	} else {
		pos, err = games.Position(rules, mapName)
	}
	if err != nil {
		return "", err
	}
	return engine.ExampleMove(pos), nil
}
