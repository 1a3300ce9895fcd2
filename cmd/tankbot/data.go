package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/store"
)

// runData answers players' data requests: "data export" writes everything
// stored about a user as JSON, "data delete" erases them (see the README's
// Privacy section). It works beside a running bot, on either backend.
func runData(args []string, stdout, _ io.Writer) error {
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := newFlags("data")
	user := fs.String("user", "", "the player's Discord user `ID` (a number; Developer Mode: right-click the user, Copy User ID)")
	out := fs.String("out", "", "export: write the JSON to `FILE` (mode 0600) instead of standard output")
	yes := fs.Bool("yes", false, "delete: really delete (without it, delete only shows what it would change)")
	db := databaseFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case sub != "export" && sub != "delete":
		if sub == "" {
			return usageErrorf(fs, "say what to do: tankbot data export --user ID, or tankbot data delete --user ID")
		}
		return usageErrorf(fs, "unknown action %q (export or delete)", sub)
	case !isSnowflake(*user):
		return usageErrorf(fs, "--user must be a Discord user ID (digits only), not %q. "+
			"Console games (tankbot play) have no Discord users: their players are the names typed in the console "+
			"(white, black, you, alice …) and leave with the database file itself (delete it, or play without --db)", *user)
	case sub == "delete" && *out != "":
		return usageErrorf(fs, "--out goes with export")
	case sub == "export" && *yes:
		return usageErrorf(fs, "--yes goes with delete")
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
	d, err := s.ExportUser(ctx, *user)
	if err != nil {
		return err
	}
	if sub == "export" {
		body, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return err
		}
		body = append(body, '\n')
		if *out == "" {
			_, err = stdout.Write(body)
			return err
		}
		// The export is personal data: private to the operator.
		if err := writePrivate(*out, body); err != nil {
			return fmt.Errorf("write export: %w", err)
		}
		fmt.Fprintf(stdout, "exported user %s to %s: %s\n", *user, *out, dataSummary(d))
		return nil
	}
	if !*yes {
		fmt.Fprintf(stdout, "would delete user %s: %s\nrun again with --yes to delete (it cannot be undone; export first if the player asked for a copy)\n", *user, dataSummary(d))
		return nil
	}
	e, err := s.DeleteUser(ctx, *user, bot.ErasureScrub())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "deleted user %s: profile %d, ratings %d, puzzle rows %d, reviews and pictures %d, posts naming them %d removed; renamed %q in %d games (%d active aborted), %d rating changes, %d challenges, %d tournaments organised, %d entries, %d pairings\n",
		*user, e.Profiles, e.Ratings, e.Puzzles, e.Derived, e.Outbox, store.DeletedPlayer, e.Games, e.Aborted, e.RatingChanges, e.Challenges, e.Tournaments, e.Entries, e.Pairings)
	return nil
}

// isSnowflake: a Discord id is a decimal number.
func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func dataSummary(d *store.UserData) string {
	active := 0
	for _, g := range d.Games {
		if g.Status == store.StatusActive {
			active++
		}
	}
	return fmt.Sprintf("profile %t, %d ratings, %d games (%d active), %d rating changes, %d challenges, %d tournaments, %d puzzle ratings, %d puzzle attempts, %d reviews, %d daily puzzles",
		d.Profile != nil, len(d.Ratings), len(d.Games), active, len(d.Changes), len(d.Challenges), len(d.Tournaments),
		len(d.Puzzles.Ratings), len(d.Puzzles.Attempts), len(d.Reviews), len(d.Daily))
}

// writePrivate writes body to path through a new 0600 file renamed into
// place: the data is never readable by others, not even for a moment, and
// a file already at path (whatever its mode) is replaced, not reused.
func writePrivate(path string, body []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(body)
	err = errors.Join(werr, f.Chmod(0o600), f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
