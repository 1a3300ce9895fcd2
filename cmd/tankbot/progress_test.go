package main

import (
	"bytes"
	"strings"
	"testing"
)

// Into a file or a pipe, progress is a line at each tenth and at the end,
// never a carriage return.
func TestProgressNotTerminal(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b)
	for i := 0; i <= 200; i++ {
		p.report(i, 200, "positions")
	}
	out := b.String()
	if strings.Contains(out, "\r") {
		t.Errorf("carriage return: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 11 || lines[0] != "0/200 positions" || lines[10] != "200/200 positions" {
		t.Errorf("%d lines: %q", len(lines), out)
	}
}
