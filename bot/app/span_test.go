package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
)

// TestSpanBounded: /tournament create's signup and roundlength stop at 60
// days in either spelling (2562047h used to overflow the stored deadline),
// and the refusal states the bound in every language.
func TestSpanBounded(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{{"2562047h", false}, {"1441h", false}, {"61d", false}, {"1440h", true}, {"60d", true}, {"90m", true}, {"0s", false}, {"-1h", false}} {
		if d, ok := ParseSpan(c.in); ok != c.ok || ok && (d <= 0 || d > 60*24*time.Hour) {
			t.Errorf("parseSpan(%q) = %v, %v; want ok=%v", c.in, d, ok, c.ok)
		}
	}
	for _, loc := range i18n.Locales {
		if msg := i18n.T(loc, "tournament.err.span", "9999h"); !strings.Contains(msg, "60d") {
			t.Errorf("%s: the refusal %q does not state the bound", loc, msg)
		}
	}
}
