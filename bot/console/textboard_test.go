package console

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/games"
)

// column is the file letter printed under the token that ends at byte
// index end of a board line.
func column(files string, end int) byte {
	if end >= len(files) {
		return 0
	}
	return files[end]
}

// Camelot's short rows list only their squares: the castle squares F and
// G of ranks 1 and 16 stand under files f and g, the other short rows
// under theirs, as on the PNG.
func TestTextBoardCamelotColumns(t *testing.T) {
	// A piece on each castle square, so that the rows have tokens to place.
	rk := []string{"kk", "........", ".........."}
	for range 10 {
		rk = append(rk, "............")
	}
	rk = append(rk, "..........", "........", "MM")
	p, err := camelot.Rules.Decode(strings.Join(rk, "/") + " w 00")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(TextBoard("camelot", p.Encode()), "\n"), "\n")
	var files string
	for _, l := range lines {
		if strings.HasPrefix(l, "     ") && strings.Contains(l, "a   b") {
			files = l
		}
	}
	if files == "" {
		t.Fatalf("no file line:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		rank := strings.TrimSpace(l[:min(3, len(l))])
		if rank != "16" && rank != "1" {
			continue
		}
		var got []byte
		for i := 4; i < len(l); i++ {
			if l[i] != ' ' && (i+1 == len(l) || l[i+1] == ' ') {
				got = append(got, column(files, i))
			}
		}
		if string(got) != "fg" {
			t.Errorf("rank %s: castle squares under files %q, want \"fg\"\n%s", rank, got, strings.Join(lines, "\n"))
		}
	}
	// Every row's squares under the files the rules give them.
	for _, l := range lines {
		if strings.TrimSpace(l[:min(3, len(l))]) == "15" {
			first := strings.IndexAny(l[4:], ".kmKM") + 4
			if c := column(files, first); c != 'c' {
				t.Errorf("rank 15 starts under file %c, want c:\n%s", c, l)
			}
		}
	}
}

// Every game's text board comes with a key to its letters and the fields
// under it, printed under the first board of a session.
func TestTextBoardLegend(t *testing.T) {
	for _, g := range games.Names() {
		l := Legend(g)
		if l == "" {
			t.Errorf("%s: no legend", g)
		}
		if !strings.Contains(l, "White") || !strings.Contains(l, "move") && !strings.Contains(l, "turn") {
			t.Errorf("%s: legend %q explains neither sides nor the fields under the board", g, l)
		}
	}
	if !strings.Contains(Legend("tank"), "wreck") || !strings.Contains(Legend("tank"), "# obstacle") || !strings.Contains(Legend("tank"), "facing") {
		t.Errorf("tank legend: %q", Legend("tank"))
	}
	s := newSession(t)
	out := s.run("alice: /challenge bob color:white thread:false", "bob: /accept")
	if strings.Count(out, "key: ") != 1 {
		t.Errorf("the first board's key is printed %d times:\n%s", strings.Count(out, "key: "), out)
	}
	if out := s.run("alice: /board"); strings.Contains(out, "key: ") {
		t.Errorf("the key again with a later board:\n%s", out)
	}
}

// /help is shown as Discord draws it: no bold, underline or code markers.
func TestHelpHasNoRawMarkdown(t *testing.T) {
	s := newSession(t)
	out := s.run("alice: /help")
	if out == "" {
		t.Fatal("no help")
	}
	for _, raw := range []string{"**", "__", "~~", "`"} {
		if strings.Contains(out, raw) {
			t.Errorf("raw %q in /help:\n%s", raw, out)
		}
	}
	c := &Console{Clock: NewClock(s.c.Clock.Now())}
	if got := c.readable("**bold** `P*e5` \\*star\\* __u__"); got != "bold P*e5 *star* u" {
		t.Errorf("readable: %q", got)
	}
}
