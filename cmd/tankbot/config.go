package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// config is everything `tankbot run` reads from config.yaml and the
// environment (config.example.yaml documents each setting).
type config struct {
	Token             string            `yaml:"token"`
	AppID             string            `yaml:"application_id"`
	GuildID           string            `yaml:"guild_id"`
	Database          string            `yaml:"database"`
	DefaultClocks     map[string]string `yaml:"default_clocks"`
	ChallengeExpiry   duration          `yaml:"challenge_expiry"`
	SchedulerInterval duration          `yaml:"scheduler_interval"`
	LogLevel          string            `yaml:"log_level"`
	LogFormat         string            `yaml:"log_format"`
	Language          string            `yaml:"default_language"`
	ThreadPerGame     bool              `yaml:"thread_per_game"`
	WhiteAtBottom     bool              `yaml:"board_white_at_bottom"`
}

// duration reads Go durations ("90s", "1h30m") plus whole days ("3d").
type duration time.Duration

func (d *duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: expected a duration like 24h or 3d", n.Line)
	}
	v, err := parseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = duration(v)
	return nil
}

func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || n > 3650 {
			return 0, fmt.Errorf("bad duration %q: days must be a whole number up to 3650", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad duration %q (examples: 90s, 15m, 24h, 3d)", s)
	}
	return v, nil
}

func defaultConfig() config {
	return config{
		Database:          defaultDatabase(),
		ChallengeExpiry:   duration(24 * time.Hour),
		SchedulerInterval: duration(time.Second),
		LogLevel:          "info",
		LogFormat:         "text",
		Language:          "en",
		ThreadPerGame:     true,
	}
}

// defaultDatabase lies next to the binary, so a bot started from anywhere
// finds its games again.
func defaultDatabase() string {
	exe, err := os.Executable()
	if err != nil {
		return "tankbot.db"
	}
	return filepath.Join(filepath.Dir(exe), "tankbot.db")
}

// parseConfig reads YAML over the defaults; unknown keys are errors so a
// typo is not silently ignored.
func parseConfig(data []byte) (config, error) {
	c := defaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return config{}, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// envVars maps each environment variable to the setting it overrides.
var envVars = map[string]func(c *config, v string) error{
	"TANKBOT_TOKEN":    func(c *config, v string) error { c.Token = v; return nil },
	"TANKBOT_APP_ID":   func(c *config, v string) error { c.AppID = v; return nil },
	"TANKBOT_GUILD_ID": func(c *config, v string) error { c.GuildID = v; return nil },
	"TANKBOT_DB":       func(c *config, v string) error { c.Database = v; return nil },
	"TANKBOT_DEFAULT_CLOCKS": func(c *config, v string) error {
		m, err := parseClocks(v)
		c.DefaultClocks = m
		return err
	},
	"TANKBOT_CHALLENGE_EXPIRY": func(c *config, v string) error {
		d, err := parseDuration(v)
		c.ChallengeExpiry = duration(d)
		return err
	},
	"TANKBOT_SCHEDULER_INTERVAL": func(c *config, v string) error {
		d, err := parseDuration(v)
		c.SchedulerInterval = duration(d)
		return err
	},
	"TANKBOT_LOG_LEVEL":             func(c *config, v string) error { c.LogLevel = v; return nil },
	"TANKBOT_LOG_FORMAT":            func(c *config, v string) error { c.LogFormat = v; return nil },
	"TANKBOT_LANGUAGE":              func(c *config, v string) error { c.Language = v; return nil },
	"TANKBOT_THREAD_PER_GAME":       boolEnv(func(c *config) *bool { return &c.ThreadPerGame }),
	"TANKBOT_BOARD_WHITE_AT_BOTTOM": boolEnv(func(c *config) *bool { return &c.WhiteAtBottom }),
}

// boolEnv sets the boolean field of c that field returns from true or false.
func boolEnv(field func(c *config) *bool) func(c *config, v string) error {
	return func(c *config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("bad boolean %q (true or false)", v)
		}
		*field(c) = b
		return nil
	}
}

// parseClocks reads "basic16=15m+10s,camelot=1d" (variant or game = preset).
func parseClocks(s string) (map[string]string, error) {
	m := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
			return nil, fmt.Errorf("bad clock entry %q (want name=preset)", part)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// applyEnv overrides settings from the environment (lookup is os.LookupEnv
// outside tests). An empty variable counts as unset.
func applyEnv(c *config, lookup func(string) (string, bool)) error {
	names := make([]string, 0, len(envVars))
	for n := range envVars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v, ok := lookup(n)
		if !ok || v == "" {
			continue
		}
		if err := envVars[n](c, v); err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	return nil
}

// validate checks values the YAML types cannot.
func (c config) validate() error {
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log_level %q: want debug, info, warn or error", c.LogLevel)
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		return fmt.Errorf("log_format %q: want text or json", c.LogFormat)
	}
	switch c.Language {
	case "en", "th", "pt-BR":
	default:
		return fmt.Errorf("default_language %q: want en, th or pt-BR", c.Language)
	}
	if c.ChallengeExpiry < duration(time.Minute) {
		return fmt.Errorf("challenge_expiry %v: must be at least 1m", time.Duration(c.ChallengeExpiry))
	}
	if c.SchedulerInterval < duration(100*time.Millisecond) || c.SchedulerInterval > duration(time.Minute) {
		return fmt.Errorf("scheduler_interval %v: must be between 100ms and 1m", time.Duration(c.SchedulerInterval))
	}
	if c.Database == "" {
		return errors.New("database: must not be empty")
	}
	for _, id := range []struct{ name, v string }{{"application_id", c.AppID}, {"guild_id", c.GuildID}} {
		if id.v != "" {
			if _, err := strconv.ParseUint(id.v, 10, 64); err != nil {
				return fmt.Errorf("%s %q: must be a Discord id (digits)", id.name, id.v)
			}
		}
	}
	return nil
}

// loadConfig reads path (a missing file is fine unless it was asked for),
// applies the environment and validates.
func loadConfig(path string, explicit bool, lookup func(string) (string, bool)) (config, error) {
	c := defaultConfig()
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if c, err = parseConfig(data); err != nil {
			return config{}, fmt.Errorf("%s: %w", path, err)
		}
	case errors.Is(err, os.ErrNotExist) && !explicit:
	default:
		return config{}, fmt.Errorf("read config: %w", err)
	}
	if err := applyEnv(&c, lookup); err != nil {
		return config{}, err
	}
	if err := c.validate(); err != nil {
		return config{}, fmt.Errorf("config: %w", err)
	}
	return c, nil
}
