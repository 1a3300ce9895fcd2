package main

import (
	"bytes"
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
