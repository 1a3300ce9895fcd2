package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/store"
)

// runTournament is the operator's view of tournaments: "tournament export
// --id N" writes tournament N as a FIDE TRF-16 file (docs/tournaments.md),
// to standard output or --out, so an arbiter can check its pairings with
// a pairing program. It reads the database beside a running bot.
func runTournament(args []string, stdout, _ io.Writer) error {
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := newFlags("tournament")
	id := fs.Int64("id", 0, "the tournament's `number` (as in /tournament id:N)")
	out := fs.String("out", "", "write the TRF to `FILE` instead of standard output")
	db := databaseFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case sub == "":
		return usageErrorf(fs, "say what to do: tankbot tournament export --id N")
	case sub != "export":
		return usageErrorf(fs, "unknown action %q (export)", sub)
	case *id < 1:
		return usageErrorf(fs, "--id must be a tournament number (1 or more)")
	}
	dsn, err := db()
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer s.Close()
	ev, err := (&director.Director{Store: s}).Load(ctx, *id)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no tournament %d", *id)
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := ev.TRF(&buf); err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write TRF: %w", err)
	}
	fmt.Fprintf(stdout, "tournament %d: %d players, %d rounds written to %s\n", *id, len(ev.T.Entrants), len(ev.T.Rounds), *out)
	return nil
}
