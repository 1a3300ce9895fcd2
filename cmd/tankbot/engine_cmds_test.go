package main

import (
	"bytes"
	"sort"
	"strings"
	"testing"
	"time"
)

func runEngineCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runMain(args, &out, &errb)
	return code, out.String(), errb.String()
}

// fixedEngineClock makes perft's elapsed time 2 s.
func fixedEngineClock(t *testing.T) {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	calls := 0
	old := engineClock
	engineClock = func() time.Time {
		calls++
		return base.Add(time.Duration(calls-1) * 2 * time.Second)
	}
	t.Cleanup(func() { engineClock = old })
}

func TestPerftCommand(t *testing.T) {
	fixedEngineClock(t)
	code, out, errs := runEngineCmd(t, "perft", "--game", "tank", "--position", "basic16", "--depth", "2")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "301878\nelapsed 2s, 150939 leaves/s\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

func TestPerftDivide(t *testing.T) {
	fixedEngineClock(t)
	code, out, _ := runEngineCmd(t, "perft", "--position", "basic20", "--depth", "1", "--divide")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	moves := lines[:len(lines)-2]
	if len(moves) != 750 || lines[len(lines)-2] != "750" {
		t.Fatalf("divide: %d move lines, total %q", len(moves), lines[len(lines)-2])
	}
	if !sort.StringsAreSorted(moves) {
		t.Error("divide lines not sorted")
	}
	for _, l := range moves {
		if !strings.HasSuffix(l, " 1") {
			t.Errorf("depth-1 divide line %q", l)
		}
	}
}

func TestMovesCommand(t *testing.T) {
	tfen := ".......cs/......../......../......../......../......../#......./Cn....... w 1"
	code, out, _ := runEngineCmd(t, "moves", "--position", tfen)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !sort.StringsAreSorted(lines) || len(lines) == 0 || !strings.HasPrefix(lines[0], "A1 > ") {
		t.Errorf("moves output %q", out)
	}
	code, out, _ = runEngineCmd(t, "moves")
	if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 549 {
		t.Errorf("default position moves: exit %d, %d lines", code, len(strings.Split(out, "\n")))
	}
	// Given but blank, --position is an empty position, not the default map.
	code, out, errOut := runEngineCmd(t, "moves", "--position", " ")
	if code == 0 || out != "" || !strings.Contains(errOut, "empty") {
		t.Errorf("blank --position: exit %d, out %q, err %q", code, out, errOut)
	}
}

func TestCheckCommand(t *testing.T) {
	code, out, _ := runEngineCmd(t, "check", "--position", "basic16")
	if code != 0 || out != "none\n" {
		t.Errorf("start: exit %d %q", code, out)
	}
	// Black to move; White's LT on d4 can shoot the black CLT on d8 in the
	// rear, and White's CLT on a5 can escape.
	tfen := "...cn..../......../......../Cn......./...Ln..../......../......../......#. b 1"
	code, out, _ = runEngineCmd(t, "check", "--position", tfen)
	if code != 0 || !strings.HasPrefix(out, "CHECK white ") || !strings.Contains(out, "d4-d8") || !strings.Contains(out, "\nESCAPE white a5-a9") {
		t.Errorf("check: exit %d %q", code, out)
	}
}

func TestMapsCommand(t *testing.T) {
	code, out, _ := runEngineCmd(t, "maps")
	if code != 0 || !strings.Contains(out, "basic16\t16x16\t2 HT, 3 MT, 4 LT, 1 CLT\t") || !strings.Contains(out, "basic20\t20x20\t2 HT, 3 MT, 4 LT, 1 CLT, 2 TD, 2 HM\t") || !strings.Contains(out, "project's own layout") {
		t.Errorf("maps: %q", out)
	}
}

func TestEngineCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--game", "chess"}, `unknown game "chess" (known games: tank`},
		{[]string{"perft", "--position", "nowhere"}, `"nowhere" is neither a tank variant`},
		{[]string{"perft", "--position", "......../x w"}, "tank position: "},
		{[]string{"perft", "--depth", "x"}, `invalid value "x" for flag -depth`},
		{[]string{"perft", "--depth", "11"}, "--depth must be 0 to 10"},
		{[]string{"perft", "--depth", "0", "--divide"}, "--divide needs --depth 1"},
		{[]string{"moves", "extra"}, `unexpected argument "extra"`},
		{[]string{"check", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"maps", "x"}, `unexpected argument "x"`},
	}
	for _, c := range cases {
		code, out, errs := runEngineCmd(t, c.args...)
		if !oneErrorLine(code, errs, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want one line containing %q", c.args, code, out, errs, c.want)
		}
	}
}

// oneErrorLine: a failed command says what is wrong in one line; a wrong
// command line (exit 2) follows it with the command's usage.
func oneErrorLine(code int, stderr, want string) bool {
	first, rest, _ := strings.Cut(stderr, "\n")
	switch code {
	case exitFail:
		return strings.Contains(first, want) && rest == ""
	case exitUsage:
		return strings.Contains(first, want) && strings.HasPrefix(rest, "\nusage: tankbot ")
	}
	return false
}
