package names

import (
	"strings"
	"testing"
)

// Names are cleaned as they arrive (no control characters, no marks of
// their own, 32 runes) but not escaped; MarkedText finds them in output.
func TestNamesMarkedNotEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"alice":                 "alice",
		"john_doe":              "john_doe",
		"two\nlines":            "two lines",
		"a\u2069b":              "ab",
		strings.Repeat("x", 40): strings.Repeat("x", 31) + "…",
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
	s := "**" + MarkName("a_b") + "** vs " + MarkName("c*d")
	if got := MarkedText(s, func(n string) string { return "<" + n + ">" }); got != "**<a_b>** vs <c*d>" {
		t.Errorf("MarkedText: %q", got)
	}
	if got := PlainText(s); got != "**a_b** vs c*d" {
		t.Errorf("PlainText: %q", got)
	}
	// A mark cut by clipping runs to the end.
	if got := MarkedText("x "+string(nameStart)+"ab", strings.ToUpper); got != "x AB" {
		t.Errorf("open mark: %q", got)
	}
}
