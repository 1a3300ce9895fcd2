package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// Every command answers -h and --help with its usage on standard output
// and exit 0; a wrong flag gets the usage on standard error and exit 2.
func TestEveryCommandHelp(t *testing.T) {
	for _, c := range commands {
		for _, h := range []string{"-h", "--help", "-help"} {
			var out, errb bytes.Buffer
			code := runMain([]string{c.name, h}, &out, &errb)
			if code != 0 || !strings.Contains(out.String(), "usage: tankbot "+c.name) || errb.Len() != 0 {
				t.Errorf("%s %s: exit %d\nstdout: %s\nstderr: %s", c.name, h, code, out.String(), errb.String())
			}
			if strings.Contains(out.String()+errb.String(), "help requested") {
				t.Errorf("%s %s: says help requested", c.name, h)
			}
		}
		var out, errb bytes.Buffer
		code := runMain([]string{c.name, "--no-such-flag"}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "usage: tankbot "+c.name) || !strings.Contains(errb.String(), "no-such-flag") {
			t.Errorf("%s --no-such-flag: exit %d\nstderr: %s", c.name, code, errb.String())
		}
		out.Reset()
		if code := runMain([]string{"help", c.name}, &out, &errb); code != 0 || !strings.Contains(out.String(), "usage: tankbot "+c.name) {
			t.Errorf("help %s: exit %d, %s", c.name, code, out.String())
		}
	}
}

func TestNoArgumentsAndUnknownCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runMain(nil, &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "usage: tankbot <command>") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	for _, h := range []string{"help", "-h", "--help"} {
		out.Reset()
		if code := runMain([]string{h}, &out, &errb); code != 0 || !strings.Contains(out.String(), "usage: tankbot <command>") {
			t.Errorf("%s: exit %d, %s", h, code, out.String())
		}
	}
	errb.Reset()
	if code := runMain([]string{"frobnicate"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d, %s", code, errb.String())
	}
	// Every command is listed in the usage.
	out.Reset()
	usage(&out)
	for _, c := range commands {
		if !strings.Contains(out.String(), "  "+c.name+" ") {
			t.Errorf("usage misses %s", c.name)
		}
	}
}

// The same through the built binary and its exit status (tankbotBinary is
// the black-box tests' build, shared within the test process).
func TestBinaryHelpExitCodes(t *testing.T) {
	bin := tankbotBinary(t)
	status := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, out.String(), errb.String()
		case errors.As(err, &ee):
			return ee.ExitCode(), out.String(), errb.String()
		}
		t.Fatalf("%v: %v", args, err)
		return -1, "", ""
	}
	for _, c := range commands {
		if code, out, errs := status(c.name, "--help"); code != 0 || !strings.HasPrefix(out, "usage: tankbot "+c.name) || errs != "" {
			t.Errorf("tankbot %s --help: exit %d\n%s%s", c.name, code, out, errs)
		}
	}
	if code, out, errs := status(); code != 2 || out != "" || !strings.Contains(errs, "usage: tankbot <command>") {
		t.Errorf("tankbot: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := status("play", "--bogus"); code != 2 || !strings.Contains(errs, "usage: tankbot play") {
		t.Errorf("tankbot play --bogus: exit %d, stderr %q", code, errs)
	}
}
