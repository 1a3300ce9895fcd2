package main

import (
	"fmt"
	"io"
	"os"
)

// progress reports done of total on w: on a terminal one line redrawn in
// place with a bar; into a file or a pipe a plain line at each tenth, so
// a log holds readable lines rather than one line of carriage returns.
type progress struct {
	w    io.Writer
	tty  bool
	last int // the tenth last printed (not a terminal)
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, tty: isTerminal(w), last: -1}
}

// isTerminal says whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// report shows done/total with what follows the count (e.g. "positions").
func (p *progress) report(done, total int, what string) {
	if p.tty {
		fmt.Fprintf(p.w, "\r%s %d/%d %s", bar(done, total, 30), done, total, what)
		if done == total {
			fmt.Fprintln(p.w)
		}
		return
	}
	tenth := 0
	if total > 0 {
		tenth = done * 10 / total
	}
	if tenth == p.last && done != total {
		return
	}
	p.last = tenth
	fmt.Fprintf(p.w, "%d/%d %s\n", done, total, what)
}
