package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tankbot/tankbot/store"
)

// databaseFlags adds --config and --db to fs for the operator commands
// that only need the database; after parsing, the returned function reads
// the configuration (file, environment, flag) and gives its database.
func databaseFlags(fs *flag.FlagSet) func() (string, error) {
	path := fs.String("config", "", "configuration `FILE` (default: the first of "+
		strings.Join(configPlaces(), ", ")+" that exists); settings also come from TANKBOT_* variables")
	over := addConfigFlags(fs, "db")
	return func() (string, error) {
		file, explicit := *path, *path != ""
		if !explicit {
			file = findConfig()
		}
		cfg, err := loadConfig(file, explicit, os.LookupEnv)
		if err != nil {
			return "", err
		}
		if err := over.set(&cfg); err != nil {
			return "", err
		}
		return cfg.Database, nil
	}
}

// signalContext ends on SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func runBackup(args []string, stdout, _ io.Writer) error {
	fs := newFlags("backup")
	out := fs.String("out", "", "write the copy to `FILE` (must not exist)")
	db := databaseFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf(fs, "--out FILE is required")
	}
	dsn, err := db()
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	start := time.Now()
	if err := store.BackupFile(ctx, dsn, *out); err != nil {
		return err
	}
	fi, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes, %s)\n", dsn, *out, fi.Size(), time.Since(start).Round(time.Millisecond))
	return nil
}

func runRestore(args []string, stdout, _ io.Writer) error {
	fs := newFlags("restore")
	from := fs.String("from", "", "the backup `FILE` (made by tankbot backup)")
	force := fs.Bool("force", false, "replace an existing database (it is moved aside, never deleted); a database in use by a running tankbot is refused even so")
	db := databaseFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" {
		return usageErrorf(fs, "--from FILE is required")
	}
	dsn, err := db()
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	res, err := store.Restore(ctx, *from, dsn, *force, time.Now())
	if errors.Is(err, store.ErrExists) {
		return fmt.Errorf("%w\n(stop the bot first; the current database will be kept as %s.before-restore-<time>)", err, dsn)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s from %s (schema version %d)\n", dsn, *from, res.SchemaVersion)
	if res.Previous != "" {
		fmt.Fprintf(stdout, "the previous database is kept as %s\n", res.Previous)
	}
	return nil
}
