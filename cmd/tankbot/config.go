package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/tankbot/tankbot/store"
)

// config is everything `tankbot run` reads from config.yaml and the
// environment (config.example.yaml documents each setting).
type config struct {
	Token             string            `yaml:"token"`
	AppID             string            `yaml:"application_id"`
	GuildID           string            `yaml:"guild_id"`
	Database          string            `yaml:"database"` // SQLite file, or postgres:// URL (log it with store.RedactDSN)
	DefaultClocks     map[string]string `yaml:"default_clocks"`
	ChallengeExpiry   duration          `yaml:"challenge_expiry"`
	SchedulerInterval duration          `yaml:"scheduler_interval"`
	LogLevel          string            `yaml:"log_level"`
	LogFormat         string            `yaml:"log_format"`
	Language          string            `yaml:"default_language"`
	ThreadPerGame     bool              `yaml:"thread_per_game"`
	// Scale-out settings: the HTTP interactions endpoint (serve), the REST
	// base URL and the gateway shard (run).
	PublicKey  string     `yaml:"public_key"`
	Listen     string     `yaml:"listen"`
	RESTURL    string     `yaml:"discord_rest_url"`
	ShardID    int        `yaml:"shard_id"`
	ShardCount shardCount `yaml:"shard_count"`
	// Board orientation: always White at the bottom (default: the side to move).
	WhiteAtBottom bool `yaml:"board_white_at_bottom"`
	// AIWorkers bounds the computer opponent's searches at once (0: one
	// per core).
	AIWorkers int `yaml:"ai_workers"`
}

// shardCount is a number of gateway shards, or -1 for "auto": the count
// Discord recommends.
type shardCount int

func (n *shardCount) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: shard_count: a number or auto", v.Line)
	}
	c, err := parseShardCount(v.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", v.Line, err)
	}
	*n = c
	return nil
}

func parseShardCount(s string) (shardCount, error) {
	s = strings.TrimSpace(s)
	if s == "auto" {
		return -1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, errors.New("shard_count: a whole number or auto")
	}
	return shardCount(n), nil
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
			return 0, fmt.Errorf("bad duration %s: days must be a whole number up to 3650", shown(s))
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad duration %s (examples: 90s, 15m, 24h, 3d)", shown(s))
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
		Listen:            ":8080",
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
		return config{}, fmt.Errorf("config: %s", hideValues(err.Error()))
	}
	return c, nil
}

// maxShown is the longest value a config error quotes. A value pasted into
// the wrong setting may be a secret (a bot token is about 70 characters):
// longer values are described, never shown, in errors and logs.
const maxShown = 12

// shown quotes a short value for an error message, or describes a long one.
func shown(v string) string {
	if n := utf8.RuneCountInString(v); n > maxShown {
		return fmt.Sprintf("(a %d-character value, not shown in case it is a secret)", n)
	}
	return strconv.Quote(v)
}

// yamlValue matches the values YAML's errors quote: `value` and "field X
// not found".
var yamlValue = regexp.MustCompile("`[^`]*`|field (\\S+) not found")

// hideValues replaces the long values quoted in a YAML error.
func hideValues(msg string) string {
	return yamlValue.ReplaceAllStringFunc(msg, func(m string) string {
		if strings.HasPrefix(m, "`") {
			return shown(strings.Trim(m, "`"))
		}
		if name := strings.TrimSuffix(strings.TrimPrefix(m, "field "), " not found"); utf8.RuneCountInString(name) > maxShown {
			return "field " + shown(name) + " not found"
		}
		return m
	})
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
	"TANKBOT_PUBLIC_KEY":       func(c *config, v string) error { c.PublicKey = v; return nil },
	"TANKBOT_LISTEN":           func(c *config, v string) error { c.Listen = v; return nil },
	"TANKBOT_DISCORD_REST_URL": func(c *config, v string) error { c.RESTURL = v; return nil },
	"TANKBOT_SHARD_ID":         intEnv(func(c *config) *int { return &c.ShardID }),
	"TANKBOT_SHARD_COUNT": func(c *config, v string) error {
		n, err := parseShardCount(v)
		c.ShardCount = n
		return err
	},
	"TANKBOT_LOG_LEVEL":             func(c *config, v string) error { c.LogLevel = v; return nil },
	"TANKBOT_LOG_FORMAT":            func(c *config, v string) error { c.LogFormat = v; return nil },
	"TANKBOT_LANGUAGE":              func(c *config, v string) error { c.Language = v; return nil },
	"TANKBOT_THREAD_PER_GAME":       boolEnv(func(c *config) *bool { return &c.ThreadPerGame }),
	"TANKBOT_BOARD_WHITE_AT_BOTTOM": boolEnv(func(c *config) *bool { return &c.WhiteAtBottom }),
	"TANKBOT_AI_WORKERS":            intEnv(func(c *config) *int { return &c.AIWorkers }),
}

// intEnv sets the whole-number field of c that field returns.
func intEnv(field func(c *config) *int) func(c *config, v string) error {
	return func(c *config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return errors.New("not a whole number")
		}
		*field(c) = n
		return nil
	}
}

// boolEnv sets the boolean field of c that field returns from true or false.
func boolEnv(field func(c *config) *bool) func(c *config, v string) error {
	return func(c *config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("bad boolean %s (true or false)", shown(v))
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
			return nil, fmt.Errorf("bad clock entry %s (want name=preset)", shown(part))
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
		return fmt.Errorf("log_level %s: want debug, info, warn or error", shown(c.LogLevel))
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		return fmt.Errorf("log_format %s: want text or json", shown(c.LogFormat))
	}
	switch c.Language {
	case "en", "th", "pt-BR":
	default:
		return fmt.Errorf("default_language %s: want en, th or pt-BR", shown(c.Language))
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
	if c.ShardID < 0 || (c.ShardCount > 0 && c.ShardID >= int(c.ShardCount)) {
		return fmt.Errorf("shard_id %d: must be from 0 to shard_count-1", c.ShardID)
	}
	if c.AIWorkers < 0 || c.AIWorkers > 256 {
		return fmt.Errorf("ai_workers %d: must be from 0 (one per core) to 256", c.AIWorkers)
	}
	if c.ShardCount == 0 && c.ShardID != 0 {
		return fmt.Errorf("shard_id %d: set shard_count too", c.ShardID)
	}
	if c.RESTURL != "" {
		if u, err := url.Parse(c.RESTURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errors.New("discord_rest_url: want http(s)://host[:port][/path]")
		}
	}
	if c.PublicKey != "" {
		if _, err := hex.DecodeString(c.PublicKey); err != nil || len(c.PublicKey) != 64 {
			return errors.New("public_key: want the 64 hex digits of General Information → Public Key")
		}
	}
	if c.Listen == "" {
		return errors.New("listen: must not be empty (e.g. :8080)")
	}
	if store.IsPostgres(c.Database) {
		// Never echo the DSN itself: it may hold the password.
		if _, err := url.Parse(c.Database); err != nil {
			return errors.New("database: not a valid postgres:// URL (special characters in the password must be percent-encoded)")
		}
	}
	for _, id := range []struct{ name, v string }{{"application_id", c.AppID}, {"guild_id", c.GuildID}} {
		if id.v != "" {
			if _, err := strconv.ParseUint(id.v, 10, 64); err != nil {
				return fmt.Errorf("%s %s: must be a Discord id (digits)", id.name, shown(id.v))
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
