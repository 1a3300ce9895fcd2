package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
)

// TestReminderNeverZero: a reminder sent with less than a second left says
// 0:01, not 0:00; one claimed after the flag fell is not sent, the
// flag-fall is.
func TestReminderNeverZero(t *testing.T) {
	h := newHarness(t, Config{})
	h.StartGame("clock=10m+5s")
	h.clk.Advance(10*time.Minute - 400*time.Millisecond)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps := h.n.all()
	if len(ps) != 1 || !strings.Contains(ps[0].Reply.Content, "you have 0:01 left") {
		t.Fatalf("reminder 0.4 s before the flag: %+v", ps)
	}

	// The scheduler is late: the reminder and the flag are both due.
	h = newHarness(t, Config{})
	h.StartGame("clock=10m+5s")
	h.clk.Advance(10*time.Minute + time.Second)
	if err := h.b.Tick(h.ctx); err != nil {
		t.Fatal(err)
	}
	ps = h.n.all()
	if len(ps) != 1 || !strings.Contains(text([]view.Reply{ps[0].Reply}), "ran out of time") {
		t.Fatalf("late pass: want the flag-fall alone, got %+v", ps)
	}
}
