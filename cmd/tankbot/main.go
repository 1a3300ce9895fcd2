// Command tankbot is the one binary of the project: the Discord bot (run), a
// local console (play) and tools for the engines and the renderer (perft,
// moves, check, maps, render).
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// subcommand is one verb of the binary. Each lives in its own file and
// registers itself from init, so areas of the code can add verbs without
// touching this file.
type subcommand struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var subcommands = map[string]subcommand{}

func register(name, summary string, run func(args []string, stdout, stderr io.Writer) error) {
	if _, dup := subcommands[name]; dup {
		panic("tankbot: subcommand registered twice: " + name)
	}
	subcommands[name] = subcommand{name: name, summary: summary, run: run}
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
}

// runMain is main without the process: tests call it directly.
func runMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	sc, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tankbot: unknown command %q (try 'tankbot help')\n", args[0])
		return 2
	}
	if err := sc.run(args[1:], stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "tankbot %s: %v\n", sc.name, err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tankbot <command> [flags]")
	fmt.Fprintln(w)
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, subcommands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'tankbot <command> -h' for the flags of a command.")
}
