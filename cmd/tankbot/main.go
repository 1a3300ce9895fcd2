// Command tankbot is the one binary of the project: the Discord bot (run,
// serve), a local console (play) and tools for the engines, records and the
// renderer.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one verb of the binary; its code lives in its own file.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands is every verb, in the order usage lists them. A new verb is one
// line here.
var commands = []command{
	{"play", "play locally: a hot-seat game, against the computer, or any bot command as text", runPlayMain},
	{"run", "connect to Discord and serve the slash commands (gateway)", runDiscord},
	{"serve", "answer Discord interactions over HTTP (Interactions Endpoint URL)", runServe},
	{"replay", "read a game record: print its positions, draw a ply or the whole game", runReplay},
	{"review", reviewSummary, runReviewMain},
	{"render", "draw a position as a PNG", runRender},
	{"loadtest", loadtestSummary, runLoadtest},
	{"arena", "play AI levels, random and greedy players against each other and measure", runArenaMain},
	{"engine", "answer move requests as JSON lines on standard input (the arena's ext: player)", runEngine},
	{"tune", "fit a game's evaluation weights to self-play results: tune gen --game G --games N --seed S --level L --out FILE; tune fit --game G --data FILE,...", runTune},
	{"book", "build a game's opening book from self-play: book --game G --games N --seed S --level L --plies P --out FILE", runBook},
	{"perft", "count leaf positions N moves deep", runPerft},
	{"moves", "list the legal moves of a position", runMoves},
	{"check", "say CHECK / ESCAPE for the side that just moved", runCheck},
	{"maps", "list the shipped Tank Chess maps", runMaps},
	{"puzzles", "puzzle tools: generate (--game --selfplay N --seed S | --from-archive DB --guild ID) --out FILE; list --game", runPuzzles},
	{"backup", "copy the SQLite database consistently, also while the bot runs", runBackup},
	{"tournament", "tournament tools: tournament export --id N [--out FILE] writes it as a FIDE TRF-16 file", runTournament},
	{"data", "a player's data: data export|delete --user ID (export as JSON, or erase)", runData},
	{"healthcheck", "GET a health URL (/readyz): exit 0 when it answers 2xx (the image's HEALTHCHECK)", runHealthcheck},
	{"restore", "replace the SQLite database by a backup (the bot must be stopped)", runRestore},
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes: 0 done (and -h/--help), 1 the command failed, 2 the command
// line was wrong (usage printed to standard error).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// runMain is main without the process: tests call it directly.
func runMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			// "tankbot help play" is "tankbot play --help".
			return runMain([]string{args[1], "--help"}, stdout, stderr)
		}
		usage(stdout)
		return exitOK
	}
	sc, ok := lookupCommand(args[0])
	if !ok {
		fmt.Fprintf(stderr, "tankbot: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	err := sc.run(args[1:], stdout, stderr)
	var help helpRequested
	var bad usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &help):
		commandUsage(stdout, sc, help.fs)
		return exitOK
	case errors.As(err, &bad):
		fmt.Fprintf(stderr, "tankbot %s: %v\n\n", sc.name, bad.err)
		commandUsage(stderr, sc, bad.fs)
		return exitUsage
	}
	fmt.Fprintf(stderr, "tankbot %s: %v\n", sc.name, err)
	return exitFail
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tankbot <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'tankbot <command> --help' for the flags of a command.")
}

// commandUsage prints one command's summary and flags.
func commandUsage(w io.Writer, c command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: tankbot %s [flags]\n\n%s\n", c.name, c.summary)
	if fs == nil {
		return
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintln(w, "\nflags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// newFlags is a subcommand's flag set: it prints nothing itself; runMain
// prints the usage for -h and for mistakes (see parseFlags).
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// helpRequested is returned for -h/--help: usage on standard output, exit 0.
type helpRequested struct{ fs *flag.FlagSet }

func (helpRequested) Error() string { return "help requested" }

// usageError is a wrong command line: the message and the usage on
// standard error, exit 2.
type usageError struct {
	fs  *flag.FlagSet
	err error
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// parseFlags parses args into fs and refuses positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return helpRequested{fs}
		}
		return usageError{fs, err}
	}
	if fs.NArg() > 0 {
		return usageError{fs, fmt.Errorf("unexpected argument %q (every value goes with a flag, e.g. --position '...')", strings.Join(fs.Args(), " "))}
	}
	return nil
}

// usageErrorf is a wrong flag value found after parsing.
func usageErrorf(fs *flag.FlagSet, format string, args ...any) error {
	return usageError{fs, fmt.Errorf(format, args...)}
}
