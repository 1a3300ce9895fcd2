package app

import (
	"testing"
)

// TestErasureScrub: the erased side's legacy name key goes from a row's
// Extra, everything else stays; unreadable Extra is an error.
func TestErasureScrub(t *testing.T) {
	sc := ErasureScrub()
	out, err := sc.Game(`{"wn":"Alice","bn":"Bob","last":"e2","moves":[3,2]}`, 1)
	if err != nil || out != `{"last":"e2","moves":[3,2],"wn":"Alice"}` {
		t.Fatalf("scrubbed game extra %s (%v)", out, err)
	}
	if out, err := sc.Game(`{"last":"e2"}`, 0); err != nil || out != `{"last":"e2"}` {
		t.Fatalf("extra without a name changed: %s (%v)", out, err)
	}
	cout, err := sc.Challenge(`{"cn":"Alice","on":"Bob","rematch":7}`, 0)
	if err != nil || cout != `{"on":"Bob","rematch":7}` {
		t.Fatalf("scrubbed challenge extra %s (%v)", cout, err)
	}
	if out, err := sc.Game("", 0); err != nil || out != "" {
		t.Fatalf("empty extra: %q (%v)", out, err)
	}
	if _, err := sc.Game("{not json", 0); err == nil {
		t.Fatal("scrubbed unreadable extra")
	}
}
