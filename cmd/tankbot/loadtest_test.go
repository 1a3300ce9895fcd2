package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLoadtestCommand runs the real binary's loadtest with tiny numbers
// (4 games, 2 instances on SQLite, 3 plies each) and reads its --json
// report: every figure present, every move played and none lost.
func TestLoadtestCommand(t *testing.T) {
	bin := tankbotBinary(t)
	cmd := exec.Command(bin, "loadtest", "--games", "4", "--instances", "2", "--moves", "3", "--seed", "7", "--drain", "10s", "--json")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TANKBOT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tankbot loadtest: %v\n%s", err, stderr.String())
	}
	var rep map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("the --json output is not JSON: %v\n%s", err, stdout.String())
	}
	for _, k := range []string{"moves", "seconds", "moves_per_second", "answer_p50_ms", "answer_p99_ms", "board_p50_ms", "board_p99_ms",
		"bot_token_requests", "interaction_requests", "bot_token_requests_per_move", "bot_token_routes", "429_received", "global_429",
		"faults_injected", "interaction_failures", "lost", "doubled", "loadavg_before", "errors", "fake_errors"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("the report lacks %q", k)
		}
	}
	if rep["moves"] != 12.0 || rep["game_errors"] != 0.0 {
		t.Errorf("%v moves played, %v games stopped; want 12 and 0\n%s", rep["moves"], rep["game_errors"], stdout.String())
	}
	lost, _ := rep["lost"].(map[string]any)
	for _, k := range []string{"boards", "pings", "store", "total"} {
		if v, ok := lost[k]; !ok || v != 0.0 {
			t.Errorf("lost %s = %v, want 0\n%s", k, v, stdout.String())
		}
	}
	if p50, p99 := num(rep["answer_p50_ms"]), num(rep["answer_p99_ms"]); p50 <= 0 || p99 < p50 || num(rep["moves_per_second"]) <= 0 {
		t.Errorf("answer p50 %v ms, p99 %v ms, %v moves/s: not measured", p50, p99, rep["moves_per_second"])
	}
	if fe, _ := rep["fake_errors"].([]any); len(fe) > 0 {
		t.Errorf("the fake Discord saw protocol errors: %v", fe)
	}
}

// TestLoadtestFlags: --help exits 0 with the flags, a wrong value exits 2
// before anything starts.
func TestLoadtestFlags(t *testing.T) {
	var out, errw bytes.Buffer
	if code := runMain([]string{"loadtest", "--help"}, &out, &errw); code != exitOK || !strings.Contains(out.String(), "-global-limit") || !strings.Contains(out.String(), "-rest-delay") {
		t.Errorf("--help: exit %d, output %q", code, out.String())
	}
	for _, args := range [][]string{
		{"--games", "0"},
		{"--instances", "0"},
		{"--moves", "-1"},
		{"--global-limit", "maybe"},
		{"--faults", "101"},
		{"--rest-delay", "-1s"},
		{"--db", "some.db"},
		{"extra"},
	} {
		out.Reset()
		errw.Reset()
		if code := runMain(append([]string{"loadtest"}, args...), &out, &errw); code != exitUsage || !strings.Contains(errw.String(), "usage: tankbot loadtest") {
			t.Errorf("loadtest %v: exit %d, stderr %q; want 2 and the usage", args, code, errw.String())
		}
	}
}
