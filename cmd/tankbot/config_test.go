package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func noEnv(string) (string, bool) { return "", false }

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestExampleConfigParses(t *testing.T) {
	c, err := loadConfig("../../config.example.yaml", true, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Token != "" {
		t.Errorf("example config carries a token: %q", c.Token)
	}
	if time.Duration(c.ChallengeExpiry) != 24*time.Hour || time.Duration(c.SchedulerInterval) != time.Second {
		t.Errorf("example durations: %v %v", c.ChallengeExpiry, c.SchedulerInterval)
	}
}

func TestConfigFileAndEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	yaml := "token: filetoken\napplication_id: \"123\"\ndatabase: /tmp/x.db\nchallenge_expiry: 3d\nlog_format: json\ndefault_clocks:\n  basic16: 15m+10s\n"
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(path, true, envOf(map[string]string{
		"TANKBOT_TOKEN": "envtoken", "TANKBOT_GUILD_ID": "456", "TANKBOT_THREAD_PER_GAME": "false",
		"TANKBOT_SCHEDULER_INTERVAL": "500ms", "TANKBOT_LANGUAGE": "th",
		"TANKBOT_BOARD_WHITE_AT_BOTTOM": "true",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Token != "envtoken" || c.AppID != "123" || c.GuildID != "456" || c.Database != "/tmp/x.db" {
		t.Errorf("ids: %+v", c)
	}
	if time.Duration(c.ChallengeExpiry) != 72*time.Hour || time.Duration(c.SchedulerInterval) != 500*time.Millisecond {
		t.Errorf("durations: %v %v", c.ChallengeExpiry, c.SchedulerInterval)
	}
	if c.ThreadPerGame || !c.WhiteAtBottom || c.LogFormat != "json" || c.Language != "th" || c.DefaultClocks["basic16"] != "15m+10s" {
		t.Errorf("settings: %+v", c)
	}
}

func TestConfigMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.yaml")
	if _, err := loadConfig(missing, false, noEnv); err != nil {
		t.Errorf("implicit missing config: %v", err)
	}
	if _, err := loadConfig(missing, true, noEnv); err == nil {
		t.Error("explicit missing config accepted")
	}
}

func TestConfigErrorsAreSpecific(t *testing.T) {
	cases := []struct {
		yaml string
		env  map[string]string
		want string
	}{
		{yaml: "tokn: x\n", want: "field tokn not found"},
		{yaml: "challenge_expiry: soon\n", want: `bad duration "soon"`},
		{yaml: "challenge_expiry: 2x\n", want: "line 1"},
		{yaml: "scheduler_interval: 5m\n", want: "scheduler_interval"},
		{yaml: "log_level: loud\n", want: "log_level"},
		{yaml: "log_format: xml\n", want: "log_format"},
		{yaml: "default_language: fr\n", want: "default_language"},
		{yaml: "application_id: abc\n", want: "application_id"},
		{yaml: "thread_per_game: maybe\n", want: `"maybe" into bool`},
		{yaml: "", env: map[string]string{"TANKBOT_BOARD_WHITE_AT_BOTTOM": "sometimes"}, want: "TANKBOT_BOARD_WHITE_AT_BOTTOM"},
		{yaml: "", env: map[string]string{"TANKBOT_CHALLENGE_EXPIRY": "forever"}, want: "TANKBOT_CHALLENGE_EXPIRY"},
		{yaml: "", env: map[string]string{"TANKBOT_THREAD_PER_GAME": "yes please"}, want: "TANKBOT_THREAD_PER_GAME"},
		{yaml: "", env: map[string]string{"TANKBOT_DEFAULT_CLOCKS": "basic16"}, want: "TANKBOT_DEFAULT_CLOCKS"},
		{yaml: "- a\n- b\n", want: "config"},
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := loadConfig(path, true, envOf(tc.env))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %v: got %v, want an error containing %q", tc.yaml, tc.env, err, tc.want)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "token: x\n", "challenge_expiry: 3d\n", "default_clocks:\n  a: b\n", "log: [", "challenge_expiry: 99999999999d", "scheduler_interval: -1s"} {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile("../../config.example.yaml"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig(data)
		if err != nil {
			return
		}
		if err := c.validate(); err == nil && c.ChallengeExpiry < duration(time.Minute) {
			t.Fatalf("validated a bad expiry: %v", c.ChallengeExpiry)
		}
	})
}

// A secret pasted into the wrong setting (or the wrong variable) never
// appears in the error, whichever check refuses it.
func TestConfigErrorsHideSecrets(t *testing.T) {
	const secret = "MTAxNzQ5NTQ2NzY4MjM0NTY3OA.GhXyZa.abcdefghijklmnopqrstuvwxyz0123456789AB"
	cases := []struct {
		yaml string
		env  map[string]string
	}{
		{yaml: "challenge_expiry: " + secret + "\n"},
		{yaml: "thread_per_game: " + secret + "\n"},
		{yaml: "log_level: " + secret + "\n"},
		{yaml: "log_format: " + secret + "\n"},
		{yaml: "default_language: " + secret + "\n"},
		{yaml: "application_id: " + secret + "\n"},
		{yaml: "guild_id: " + secret + "\n"},
		{yaml: secret + ": x\n"},
		{yaml: "default_clocks: " + secret + "\n"},
		{env: map[string]string{"TANKBOT_SCHEDULER_INTERVAL": secret}},
		{env: map[string]string{"TANKBOT_THREAD_PER_GAME": secret}},
		{env: map[string]string{"TANKBOT_DEFAULT_CLOCKS": secret}},
		{env: map[string]string{"TANKBOT_APP_ID": secret}},
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := loadConfig(path, true, envOf(tc.env))
		if err == nil {
			t.Errorf("%q %v accepted", tc.yaml, tc.env)
			continue
		}
		if strings.Contains(err.Error(), secret[:20]) || strings.Contains(err.Error(), secret[30:50]) {
			t.Errorf("error echoes the value: %v", err)
		}
	}
}

func TestDatabaseDSN(t *testing.T) {
	dsn := "postgres://bot:hunter2@db.internal:5432/tankbot?sslmode=require"
	c, err := loadConfig(filepath.Join(t.TempDir(), "none.yaml"), false, envOf(map[string]string{"TANKBOT_DB": dsn}))
	if err != nil || c.Database != dsn {
		t.Fatalf("TANKBOT_DB=postgres://…: %q %v", c.Database, err)
	}
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("database: \"postgres://bot:hunter2%zz@db/tankbot\"\n"), 0o600)
	_, err = loadConfig(path, true, noEnv)
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "postgres:// URL") {
		t.Fatalf("bad DSN: %v", err)
	}
}

// TestDurationsBounded: every duration setting has an upper bound that the
// refusal states; a value that would overflow time.Duration is refused,
// never wrapped.
func TestDurationsBounded(t *testing.T) {
	for _, c := range []struct{ yaml, says string }{
		{"challenge_expiry: 2562047h", "from 0 to 3650d"},
		{"challenge_expiry: 31d", "to 30d"},
		{"challenge_expiry: 9999999h", "at most 3650d"},
		{"scheduler_interval: 2562047h", "from 0 to 3650d"},
		{"stream_idle: 25h", "from 1m to 24h"},
		{"stream_idle: 3651d", "up to 3650"},
	} {
		cfg, err := parseConfig([]byte(c.yaml + "\n"))
		if err == nil {
			err = cfg.validate()
		}
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want a refusal saying %q", c.yaml, err, c.says)
		}
	}
	c, err := parseConfig([]byte("challenge_expiry: 30d\nstream_idle: 24h\n"))
	if err == nil {
		err = c.validate()
	}
	if err != nil || time.Duration(c.ChallengeExpiry) != 720*time.Hour {
		t.Fatalf("the bounds themselves: %v %v", c.ChallengeExpiry, err)
	}
}
