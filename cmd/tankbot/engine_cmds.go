package main

// Engine tools: perft, moves, check and maps. They work on any game listed
// in engine/games (maps is Tank Chess only).

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/tank"
)

// engineClock is the clock perft reports elapsed time with; tests replace it.
var engineClock = time.Now

// gameFlags are the flags every engine tool shares.
type gameFlags struct {
	fs       *flag.FlagSet
	game     *string
	position *string
}

func newGameFlags(name string) *gameFlags {
	fs := newFlags(name)
	return &gameFlags{
		fs:       fs,
		game:     fs.String("game", "tank", "game: "+strings.Join(games.Names(), ", ")),
		position: fs.String("position", "", "variant name or encoded position (default: the game's default variant)"),
	}
}

// parse reads the flags and returns the position they name.
func (g *gameFlags) parse(args []string) (engine.Position, error) {
	if err := parseFlags(g.fs, args); err != nil {
		return nil, err
	}
	r, err := games.Lookup(*g.game)
	if err != nil {
		return nil, err
	}
	// Left out, --position means the default variant; given but blank it
	// is an empty position, which the engine refuses by name.
	given := false
	g.fs.Visit(func(f *flag.Flag) { given = given || f.Name == "position" })
	if given && strings.TrimSpace(*g.position) == "" {
		return r.Decode("")
	}
	return games.Position(r, *g.position)
}

func runPerft(args []string, stdout, _ io.Writer) error {
	g := newGameFlags("perft")
	depth := g.fs.Int("depth", 1, "plies to search (0-10)")
	divide := g.fs.Bool("divide", false, "print the count below each root move")
	p, err := g.parse(args)
	if err != nil {
		return err
	}
	if *depth < 0 || *depth > 10 {
		return usageErrorf(g.fs, "--depth must be 0 to 10, not %d", *depth)
	}
	if *divide && *depth < 1 {
		return usageErrorf(g.fs, "--divide needs --depth 1 or more")
	}
	start := engineClock()
	var total uint64
	if *divide {
		counts, err := engine.Divide(p, *depth)
		if err != nil {
			return err
		}
		names := make([]string, 0, len(counts))
		for n := range counts {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(stdout, "%s %d\n", n, counts[n])
			total += counts[n]
		}
	} else {
		total = p.Perft(*depth)
	}
	elapsed := engineClock().Sub(start)
	fmt.Fprintf(stdout, "%d\n", total)
	rate := "n/a"
	if elapsed > 0 {
		rate = fmt.Sprintf("%.0f", float64(total)/elapsed.Seconds())
	}
	fmt.Fprintf(stdout, "elapsed %s, %s leaves/s\n", elapsed.Round(time.Microsecond), rate)
	return nil
}

func runMoves(args []string, stdout, _ io.Writer) error {
	p, err := newGameFlags("moves").parse(args)
	if err != nil {
		return err
	}
	var out []string
	for _, m := range p.LegalMoves() {
		out = append(out, p.FormatMove(m))
	}
	sort.Strings(out)
	for _, s := range out {
		fmt.Fprintln(stdout, s)
	}
	return nil
}

func runCheck(args []string, stdout, _ io.Writer) error {
	p, err := newGameFlags("check").parse(args)
	if err != nil {
		return err
	}
	as := p.Announcements()
	if len(as) == 0 {
		fmt.Fprintln(stdout, "none")
		return nil
	}
	for _, a := range as {
		var lines []string
		for _, l := range a.Lines {
			lines = append(lines, l[0]+"-"+l[1])
		}
		fmt.Fprintf(stdout, "%s %s %s\n", strings.ToUpper(a.Kind), a.Side, strings.Join(lines, " "))
	}
	return nil
}

func runMaps(args []string, stdout, _ io.Writer) error {
	if err := parseFlags(newFlags("maps"), args); err != nil {
		return err
	}
	for _, m := range tank.Maps() {
		fmt.Fprintf(stdout, "%s\t%dx%d\t%s\t%s\n", m.Name, m.Size, m.Size, m.Army, m.Description)
	}
	return nil
}
