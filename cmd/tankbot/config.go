package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/tankbot/tankbot/store"
)

// config is everything `tankbot run` and `tankbot serve` read. Each
// setting is declared once, here: its key in the config file (yaml), its
// environment variable (env) and, for the few a command line may override,
// its flag (flag, with help). config.example.yaml documents each one; a
// test walks this struct and checks that all of them work.
type config struct {
	Token             string   `yaml:"token" env:"TANKBOT_TOKEN"`
	AppID             string   `yaml:"application_id" env:"TANKBOT_APP_ID"`
	GuildID           string   `yaml:"guild_id" env:"TANKBOT_GUILD_ID"`
	Database          string   `yaml:"database" env:"TANKBOT_DB" flag:"db" help:"the SQLite FILE, or a postgres:// URL"` // log it with store.RedactDSN
	DefaultClocks     clockMap `yaml:"default_clocks" env:"TANKBOT_DEFAULT_CLOCKS"`
	ChallengeExpiry   duration `yaml:"challenge_expiry" env:"TANKBOT_CHALLENGE_EXPIRY"`
	SchedulerInterval duration `yaml:"scheduler_interval" env:"TANKBOT_SCHEDULER_INTERVAL"`
	LogLevel          string   `yaml:"log_level" env:"TANKBOT_LOG_LEVEL" flag:"log-level" help:"LEVEL: debug, info, warn or error"`
	LogFormat         string   `yaml:"log_format" env:"TANKBOT_LOG_FORMAT"`
	Language          string   `yaml:"default_language" env:"TANKBOT_LANGUAGE"`
	ThreadPerGame     bool     `yaml:"thread_per_game" env:"TANKBOT_THREAD_PER_GAME"`
	// Scale-out settings: the HTTP interactions endpoint (serve), the REST
	// base URL and the gateway shard (run).
	PublicKey  string     `yaml:"public_key" env:"TANKBOT_PUBLIC_KEY"`
	Listen     string     `yaml:"listen" env:"TANKBOT_LISTEN" flag:"listen" help:"ADDRESS to listen on, e.g. :8080"`
	RESTURL    string     `yaml:"discord_rest_url" env:"TANKBOT_DISCORD_REST_URL"`
	ShardID    int        `yaml:"shard_id" env:"TANKBOT_SHARD_ID" flag:"shard-id" help:"this process's gateway shard NUMBER, from 0 to shard_count-1"`
	ShardCount shardCount `yaml:"shard_count" env:"TANKBOT_SHARD_COUNT" flag:"shard-count" help:"COUNT of gateway shards, or auto for Discord's recommendation"`
	// Board orientation: always White at the bottom (default: the side to move).
	WhiteAtBottom bool `yaml:"board_white_at_bottom" env:"TANKBOT_BOARD_WHITE_AT_BOTTOM"`
	// The web viewer (docs/web.md): its address for run and play (serve
	// mounts it on listen) and its public URL for the links in games.
	WebListen  string `yaml:"web_listen" env:"TANKBOT_WEB_LISTEN" flag:"web-listen" help:"ADDRESS of the web viewer, e.g. 127.0.0.1:8081 (run; serve uses --listen)"`
	WebBaseURL string `yaml:"web_base_url" env:"TANKBOT_WEB_BASE_URL"`
	// AIWorkers bounds the computer opponent's searches at once (0: one
	// per core).
	AIWorkers int `yaml:"ai_workers" env:"TANKBOT_AI_WORKERS"`
	// MaxRenders bounds the replays and stored boards drawn at once, by
	// the bot and the web viewer together (0: one per core).
	MaxRenders int `yaml:"max_renders" env:"TANKBOT_MAX_RENDERS"`
	// MaxRequests caps the interactions `serve` handles at once (and, apart,
	// the viewer's requests): beyond it the answer is 503 at once.
	MaxRequests int `yaml:"max_requests" env:"TANKBOT_MAX_REQUESTS"`
	// The viewer's live streams have their own limits (serve and run
	// alike): in all, per client address, and how long one lasts without
	// an update.
	MaxStreams          int      `yaml:"max_streams" env:"TANKBOT_MAX_STREAMS"`
	MaxStreamsPerClient int      `yaml:"max_streams_per_client" env:"TANKBOT_MAX_STREAMS_PER_CLIENT"`
	StreamIdle          duration `yaml:"stream_idle" env:"TANKBOT_STREAM_IDLE"`
	// MetricsListen serves /metrics, /healthz and /readyz for run and
	// serve ("": off); the public listeners never do.
	MetricsListen string `yaml:"metrics_listen" env:"TANKBOT_METRICS_LISTEN" flag:"metrics-listen" help:"ADDRESS for /metrics, /healthz and /readyz (run and serve), e.g. 127.0.0.1:9090 (empty: off)"`
}

// setting is one field of config with its names, read from the tags.
type setting struct {
	index           int
	yaml, env, flag string
	help            string
}

// settings lists config's fields in declaration order.
func settings() []setting {
	t := reflect.TypeFor[config]()
	out := make([]setting, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		out = append(out, setting{index: i, yaml: f.Tag.Get("yaml"), env: f.Tag.Get("env"), flag: f.Tag.Get("flag"), help: f.Tag.Get("help")})
	}
	return out
}

// stringSetter is a setting type with its own text form (durations, shard
// counts, clock lists).
type stringSetter interface{ Set(string) error }

// set parses v into the setting's field of c, as the environment and flags
// give it.
func (s setting) set(c *config, v string) error {
	f := reflect.ValueOf(c).Elem().Field(s.index)
	if ss, ok := f.Addr().Interface().(stringSetter); ok {
		return ss.Set(v)
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString(v)
	case reflect.Int:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("bad number %s (a whole number)", shown(v))
		}
		f.SetInt(int64(n))
	case reflect.Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("bad boolean %s (true or false)", shown(v))
		}
		f.SetBool(b)
	default:
		return fmt.Errorf("%s: no text form for %s", s.yaml, f.Type())
	}
	return nil
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

func (n *shardCount) Set(s string) error {
	c, err := parseShardCount(s)
	if err == nil {
		*n = c
	}
	return err
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

func (d *duration) Set(s string) error {
	v, err := parseDuration(s)
	if err == nil {
		*d = duration(v)
	}
	return err
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
		return 0, fmt.Errorf("bad duration %s (examples: 90s, 15m, 24h, 3d; at most %s)", shown(s), fmtDays(maxDuration))
	}
	if v < 0 || v > maxDuration {
		return 0, fmt.Errorf("duration %s: must be from 0 to %s", shown(s), fmtDays(maxDuration))
	}
	return v, nil
}

// maxDuration bounds every duration setting (3650 days, as "d" does):
// far beyond any sensible value, far below time.Duration's overflow.
const maxDuration = 3650 * 24 * time.Hour

// maxChallengeExpiry: a challenge waits at most 30 days.
const maxChallengeExpiry = 30 * 24 * time.Hour

// fmtDays writes a whole number of days as "30d".
func fmtDays(d time.Duration) string { return strconv.Itoa(int(d/(24*time.Hour))) + "d" }

func defaultConfig() config {
	return config{
		Database:            defaultDatabase(),
		ChallengeExpiry:     duration(24 * time.Hour),
		SchedulerInterval:   duration(time.Second),
		LogLevel:            "info",
		LogFormat:           "text",
		Language:            "en",
		ThreadPerGame:       true,
		Listen:              ":8080",
		MaxRequests:         256,
		MaxStreams:          1000,
		MaxStreamsPerClient: 8,
		StreamIdle:          duration(30 * time.Minute),
	}
}

// defaultDatabase is in the user's data folder (store.DefaultPath), the
// same wherever the bot is started from, and never next to the binary:
// under `go run` that is a temporary folder deleted on exit.
func defaultDatabase() string { return store.DefaultPath() }

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

// clockMap is default_clocks: clock preset by variant or game. The
// environment writes it as "basic16=15m+10s,camelot=1d".
type clockMap map[string]string

func (m *clockMap) Set(s string) error {
	v, err := parseClocks(s)
	if err == nil {
		*m = v
	}
	return err
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
	for _, s := range settings() {
		v, ok := lookup(s.env)
		if !ok || v == "" {
			continue
		}
		if err := s.set(c, v); err != nil {
			return fmt.Errorf("%s: %w", s.env, err)
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
	if c.ChallengeExpiry < duration(time.Minute) || c.ChallengeExpiry > duration(maxChallengeExpiry) {
		return fmt.Errorf("challenge_expiry %v: must be from 1m to %s", time.Duration(c.ChallengeExpiry), fmtDays(maxChallengeExpiry))
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
	if c.MaxRenders < 0 || c.MaxRenders > 256 {
		return fmt.Errorf("max_renders %d: must be from 0 (one per core) to 256", c.MaxRenders)
	}
	if c.MaxRequests < 1 || c.MaxRequests > 65536 {
		return fmt.Errorf("max_requests %d: must be from 1 to 65536", c.MaxRequests)
	}
	if c.MaxStreams < 1 || c.MaxStreams > 100000 {
		return fmt.Errorf("max_streams %d: must be from 1 to 100000", c.MaxStreams)
	}
	if c.MaxStreamsPerClient < 1 || c.MaxStreamsPerClient > c.MaxStreams {
		return fmt.Errorf("max_streams_per_client %d: must be from 1 to max_streams (%d)", c.MaxStreamsPerClient, c.MaxStreams)
	}
	if c.StreamIdle < duration(time.Minute) || c.StreamIdle > duration(24*time.Hour) {
		return fmt.Errorf("stream_idle %v: must be from 1m to 24h", time.Duration(c.StreamIdle))
	}
	if c.ShardCount == 0 && c.ShardID != 0 {
		return fmt.Errorf("shard_id %d: set shard_count too", c.ShardID)
	}
	if c.RESTURL != "" {
		if u, err := url.Parse(c.RESTURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errors.New("discord_rest_url: want http(s)://host[:port][/path]")
		}
	}
	if c.WebBaseURL != "" {
		if u, err := url.Parse(c.WebBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
			return errors.New("web_base_url: want the viewer's public address, http(s)://host[:port][/path]")
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

// configPlaces are where run and serve look for the config file when no
// --config names one, in this order; the first that exists is read (README,
// "Configuration").
func configPlaces() []string {
	places := []string{"config.yaml"}
	if dir, err := os.UserConfigDir(); err == nil {
		places = append(places, filepath.Join(dir, "tankbot", "config.yaml"))
	}
	return places
}

// findConfig is the first of configPlaces that exists, or "".
func findConfig() string {
	for _, p := range configPlaces() {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// loadConfig reads path (a missing file is fine unless it was asked for;
// "" reads none), applies the environment and validates.
func loadConfig(path string, explicit bool, lookup func(string) (string, bool)) (config, error) {
	c := defaultConfig()
	data, err := os.ReadFile(path)
	if path == "" && !explicit {
		err = os.ErrNotExist
	}
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

// valueName is an upper-case word of a flag's help.
var valueName = regexp.MustCompile(`\b[A-Z]{2,}\b`)

// configFlags are the settings a command lets its flags override (the
// flag tags), applied over the file and the environment.
type configFlags struct{ apply []func(*config) error }

// addConfigFlags adds the flags of the settings named to fs. A bad value is
// refused while parsing (a usage error).
func addConfigFlags(fs *flag.FlagSet, names ...string) *configFlags {
	cf := &configFlags{}
	for _, name := range names {
		var s setting
		for _, x := range settings() {
			if x.flag == name {
				s = x
			}
		}
		if s.flag == "" {
			panic("tankbot: no setting has the flag " + name)
		}
		// The help's upper-case word names the value in the usage
		// ("-db FILE"), as flag.PrintDefaults does with `quoted` words.
		help := s.help
		if w := valueName.FindString(help); w != "" {
			help = strings.Replace(help, w, "`"+w+"`", 1)
		}
		fs.Func(s.flag, fmt.Sprintf("%s (overrides %s in the config file and %s)", help, s.yaml, s.env), func(v string) error {
			var scratch config
			if err := s.set(&scratch, v); err != nil {
				return err
			}
			cf.apply = append(cf.apply, func(c *config) error { return s.set(c, v) })
			return nil
		})
	}
	return cf
}

func (cf *configFlags) set(c *config) error {
	for _, f := range cf.apply {
		if err := f(c); err != nil {
			return err
		}
	}
	return nil
}
