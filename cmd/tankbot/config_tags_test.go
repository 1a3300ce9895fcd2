package main

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// sampleValue is a text value for a setting's type that differs from the
// default, as an environment variable or flag would give it.
func sampleValue(t *testing.T, f reflect.Value) string {
	switch f.Interface().(type) {
	case duration:
		return "90s"
	case shardCount:
		return "auto"
	case clockMap:
		return "basic16=15m+10s"
	}
	switch f.Kind() {
	case reflect.String:
		return "x" + f.String() + "1"
	case reflect.Int:
		return "3"
	case reflect.Bool:
		if f.Bool() {
			return "false"
		}
		return "true"
	}
	t.Fatalf("no sample for %s", f.Type())
	return ""
}

// Every setting is declared once with a file key and an environment
// variable; both are documented in config.example.yaml, and the variable
// really sets the field.
func TestEverySettingFromItsTags(t *testing.T) {
	example, err := os.ReadFile("../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	ss := settings()
	if n := reflect.TypeFor[config]().NumField(); len(ss) != n || n < 18 {
		t.Fatalf("%d settings for %d fields", len(ss), n)
	}
	for _, s := range ss {
		for _, name := range []string{s.yaml, s.env, "--" + s.flag} {
			if name == "" || name == "--" {
				continue
			}
			if seen[name] {
				t.Errorf("%s named twice", name)
			}
			seen[name] = true
		}
		if s.yaml == "" || !strings.HasPrefix(s.env, "TANKBOT_") {
			t.Errorf("field %d: yaml %q env %q", s.index, s.yaml, s.env)
			continue
		}
		if !strings.Contains(string(example), s.yaml+":") || !strings.Contains(string(example), s.env) {
			t.Errorf("config.example.yaml does not document %s / %s", s.yaml, s.env)
		}
		if s.flag != "" && s.help == "" {
			t.Errorf("flag --%s has no help", s.flag)
		}
		def := defaultConfig()
		v := sampleValue(t, reflect.ValueOf(def).Field(s.index))
		c := defaultConfig()
		if err := applyEnv(&c, envOf(map[string]string{s.env: v})); err != nil {
			t.Errorf("%s=%s: %v", s.env, v, err)
			continue
		}
		if reflect.DeepEqual(reflect.ValueOf(c).Field(s.index).Interface(), reflect.ValueOf(def).Field(s.index).Interface()) {
			t.Errorf("%s=%s left %s unchanged", s.env, v, s.yaml)
		}
		// The same value through the file.
		y, err := parseConfig([]byte(s.yaml + ": " + yamlOf(s, v) + "\n"))
		if err != nil {
			t.Errorf("%s in the file: %v", s.yaml, err)
		} else if !reflect.DeepEqual(reflect.ValueOf(y).Field(s.index).Interface(), reflect.ValueOf(c).Field(s.index).Interface()) {
			t.Errorf("%s: the file and %s disagree", s.yaml, s.env)
		}
	}
}

// yamlOf writes an environment value as YAML.
func yamlOf(s setting, v string) string {
	if s.yaml == "default_clocks" {
		k, val, _ := strings.Cut(v, "=")
		return "{" + k + ": " + val + "}"
	}
	if f := reflect.ValueOf(config{}).Field(s.index); f.Kind() == reflect.Int || f.Kind() == reflect.Bool {
		return v
	}
	return `"` + v + `"`
}

// Flags override the file and the environment; a bad value is a usage
// error (exit 2).
func TestConfigFlags(t *testing.T) {
	fs := newFlags("x")
	cf := addConfigFlags(fs, "db", "shard-id", "shard-count", "listen")
	if err := parseFlags(fs, []string{"--db", "/srv/t.db", "--shard-id", "1", "--shard-count", "2", "--listen", ":9"}); err != nil {
		t.Fatal(err)
	}
	c := defaultConfig()
	if err := applyEnv(&c, envOf(map[string]string{"TANKBOT_DB": "/env.db", "TANKBOT_SHARD_ID": "0"})); err != nil {
		t.Fatal(err)
	}
	if err := cf.set(&c); err != nil {
		t.Fatal(err)
	}
	if c.Database != "/srv/t.db" || c.ShardID != 1 || c.ShardCount != 2 || c.Listen != ":9" {
		t.Errorf("%+v", c)
	}
	fs = newFlags("x")
	addConfigFlags(fs, "shard-count")
	var ue usageError
	if err := parseFlags(fs, []string{"--shard-count", "many"}); !errors.As(err, &ue) {
		t.Errorf("bad flag value: %v", err)
	}
	t.Setenv("TANKBOT_TOKEN", "")
	if code := runMainQuiet("run", "--shard-id", "x"); code != exitUsage {
		t.Errorf("run --shard-id x: exit %d", code)
	}
}

// Without --config, ./config.yaml wins over the user's config folder; a
// missing file named by --config is an error.
func TestConfigPlaces(t *testing.T) {
	cfgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	if got := findConfig(); got != "" {
		t.Errorf("found %q in empty places", got)
	}
	user := filepath.Join(cfgHome, "tankbot", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(user), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte("log_level: debug\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := findConfig(); got != user {
		t.Errorf("found %q, want %q", got, user)
	}
	if err := os.WriteFile("config.yaml", []byte("log_level: warn\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := findConfig(); got != "config.yaml" {
		t.Errorf("found %q, want ./config.yaml first", got)
	}
	if code := runMainQuiet("run", "--config", "absent.yaml"); code != exitFail {
		t.Errorf("missing --config file: exit %d", code)
	}
}

// The default database is in the user's data folder: the same from any
// working directory, never next to the binary (a deleted temporary folder
// under go run).
func TestDefaultDatabaseIsStable(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("XDG data folders are for Linux and other Unix systems")
	}
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	got := defaultConfig().Database
	if want := filepath.Join(data, "tankbot", "tankbot.db"); got != want {
		t.Errorf("default database %q, want %q", got, want)
	}
	exe, err := os.Executable()
	if err == nil && filepath.Dir(got) == filepath.Dir(exe) {
		t.Errorf("default database next to the binary: %s", got)
	}
	t.Setenv("XDG_DATA_HOME", "")
	home := t.TempDir()
	t.Setenv("HOME", home)
	if got, want := defaultConfig().Database, filepath.Join(home, ".local", "share", "tankbot", "tankbot.db"); got != want {
		t.Errorf("without XDG_DATA_HOME: %q, want %q", got, want)
	}
}

func runMainQuiet(args ...string) int {
	var out, errb strings.Builder
	return runMain(args, &out, &errb)
}
