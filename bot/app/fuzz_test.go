package app

import (
	"testing"

	"github.com/tankbot/tankbot/bot/view"
)

func FuzzCustomID(f *testing.F) {
	for _, s := range []string{"g:1:0:move:e3>e5n", "c:7:accept", "g:42:17:resign", "g::", "c:-1:x", "g:1:2:3:4:5:6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := view.ParseCustomID(s)
		if !ok {
			return
		}
		if id.ID <= 0 || id.Seq < 0 || (id.Kind != 'g' && id.Kind != 'c') {
			t.Fatalf("%q parsed to %+v", s, id)
		}
		// Round trip: formatting what was parsed parses back the same.
		var again string
		if id.Kind == 'c' {
			again = view.ChallengeCustomID(id.ID, id.Action)
		} else {
			again = view.GameID(id.ID, id.Seq, id.Action, id.Arg)
		}
		if id2, ok := view.ParseCustomID(again); ok && id2 != id && id.Arg != "" {
			t.Fatalf("%q -> %+v -> %q -> %+v", s, id, again, id2)
		}
	})
}

func FuzzParseClock(f *testing.F) {
	for _, s := range ClockPresets {
		f.Add(s)
	}
	f.Add("10m + 5s")
	f.Add("99999999999d")
	f.Fuzz(func(t *testing.T, s string) {
		tc, ok := ParseClock(s)
		if !ok {
			return
		}
		if tc.Initial < 0 || tc.Increment < 0 || tc.PerMove < 0 || tc.PerMove > 0 && tc.Initial > 0 {
			t.Fatalf("%q parsed to %+v", s, tc)
		}
		_ = DescribeClock("en", tc)
	})
}
