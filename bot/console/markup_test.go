package console

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// Discord markup is shown as Discord draws it, never raw.
func TestReadableMarkup(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c := &Console{Clock: NewClock(now)}
	in := now.Add(24 * time.Hour).Unix()
	ago := now.Add(-5 * time.Minute).Unix()
	got := c.readable("<@alice> challenges <@!bob> in <#table>. Expires <t:" + itoa(in) + ":R>; sent <t:" + itoa(ago) + ":R>, at <t:" + itoa(in) + ":f>.")
	want := "@alice challenges @bob in #table. Expires in 24 hours; sent 5 minutes ago, at " + time.Unix(in, 0).Local().Format("2006-01-02 15:04 MST") + "."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if strings.ContainsAny(got, "<>") {
		t.Errorf("markup left: %q", got)
	}
	for d, w := range map[time.Duration]string{30 * time.Second: "in 30 seconds", time.Minute: "in 60 seconds", 10 * time.Minute: "in 10 minutes", 3 * time.Hour: "in 3 hours", 72 * time.Hour: "in 3 days", -time.Hour: "60 minutes ago"} {
		if got := relative(d); got != w {
			t.Errorf("relative(%v) = %q, want %q", d, got, w)
		}
	}
	if got := c.readable(`tankbot \(level 1\) vs \*bob\*`); got != "tankbot (level 1) vs *bob*" {
		t.Errorf("escapes: %q", got)
	}
	// Text that only looks like markup stays.
	if got := c.readable("a <b> c < @d >"); got != "a <b> c < @d >" {
		t.Errorf("plain text changed: %q", got)
	}
}

// A session prints no raw markup: the challenge ping and its expiry read
// as text.
func TestSessionPrintsNoMarkup(t *testing.T) {
	s := newSession(t)
	out := s.run("alice: /challenge bob clock:10m color:white")
	if strings.Contains(out, "<@") || strings.Contains(out, "<t:") || !strings.Contains(out, "@bob") || !strings.Contains(out, "in 24 hours") {
		t.Errorf("markup in:\n%s", out)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
