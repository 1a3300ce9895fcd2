package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunWithoutTokenPointsToSetup(t *testing.T) {
	t.Setenv("TANKBOT_TOKEN", "")
	t.Setenv("TANKBOT_APP_ID", "")
	var out, errOut bytes.Buffer
	code := runMain([]string{"run", "--config", filepath.Join(t.TempDir(), "absent.yaml")}, &out, &errOut)
	if code == 0 {
		t.Fatal("run without a config file or token succeeded")
	}
	// The explicit missing file is the first problem reported.
	if !strings.Contains(errOut.String(), "absent.yaml") {
		t.Errorf("stderr: %s", errOut.String())
	}

	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte("log_level: info\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	code = runMain([]string{"run", "--config", path}, &out, &errOut)
	if code == 0 || !strings.Contains(errOut.String(), `"Set up on Discord"`) || !strings.Contains(errOut.String(), "TANKBOT_TOKEN") {
		t.Errorf("code %d, stderr: %s", code, errOut.String())
	}

	t.Setenv("TANKBOT_TOKEN", "x")
	errOut.Reset()
	code = runMain([]string{"run", "--config", path}, &out, &errOut)
	if code == 0 || !strings.Contains(errOut.String(), "TANKBOT_APP_ID") {
		t.Errorf("code %d, stderr: %s", code, errOut.String())
	}
}

func TestRunBadConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte("tokn: abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runMain([]string{"run", "--config", path}, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "tokn") {
		t.Errorf("code %d, stderr: %s", code, errOut.String())
	}
}

func TestNewLoggerRedactsToken(t *testing.T) {
	var b bytes.Buffer
	l := newLogger(config{Token: "tok-123", LogLevel: "debug", LogFormat: "json"}, &b)
	l.Debug("connecting with tok-123", "url", "/api/v9/interactions/1/itok/callback")
	if strings.Contains(b.String(), "tok-123") || strings.Contains(b.String(), "itok") || !strings.Contains(b.String(), `"level":"DEBUG"`) {
		t.Errorf("log: %s", b.String())
	}
}

// toServer sends every request to srv, whatever its host.
type toServer struct{ srv *httptest.Server }

func (s toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = "http", strings.TrimPrefix(s.srv.URL, "http://")
	return http.DefaultTransport.RoundTrip(r)
}

func TestServeReportsRefusedTokenAndKeepsItOutOfLogs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"message": "401: Unauthorized", "code": 0}`))
	}))
	defer srv.Close()
	cfg := defaultConfig()
	cfg.Token, cfg.AppID, cfg.LogLevel = "secret-token-xyz", "123", "debug"
	cfg.Database = filepath.Join(t.TempDir(), "t.db")
	var logs bytes.Buffer
	err := serveGateway(t.Context(), cfg, newLogger(cfg, &logs), &http.Client{Transport: toServer{srv}})
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("serve: %v", err)
	}
	if strings.Contains(err.Error()+logs.String(), "secret-token-xyz") {
		t.Errorf("token leaked: %v\n%s", err, logs.String())
	}
	if _, err := os.Stat(cfg.Database); err != nil {
		t.Errorf("database not created: %v", err)
	}
}
