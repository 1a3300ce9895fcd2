package app

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
)

// The progress message changes at most once per interval of the injected
// clock, each time with a new percentage, never at 100 % (the answer
// follows at once) and not at all for a review shorter than one interval.
func TestProgressNotesCadence(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	var shown []int
	p := newProgressNotes(clk, 3*time.Second, func(pct int) { shown = append(shown, pct) })
	p.update(1, 10)
	clk.Advance(2 * time.Second)
	p.update(2, 10)
	if len(shown) != 0 {
		t.Fatalf("progress before the first interval: %v", shown)
	}
	clk.Advance(time.Second)
	p.update(3, 10) // 3 s: shown
	p.update(4, 10) // same instant: not
	clk.Advance(time.Second)
	p.update(5, 10) // 1 s later: not
	clk.Advance(2 * time.Second)
	p.update(6, 10) // 3 s after the last: shown
	clk.Advance(10 * time.Second)
	p.update(10, 10) // done: the answer replaces it
	if want := []int{30, 60}; !slices.Equal(shown, want) {
		t.Fatalf("shown %v, want %v", shown, want)
	}
	// A slow step that leaves the percentage unchanged shows nothing new.
	clk.Advance(time.Minute)
	p.update(601, 1000)
	clk.Advance(time.Minute)
	p.update(602, 1000)
	if want := []int{30, 60}; !slices.Equal(shown, want) {
		t.Fatalf("shown %v, want %v", shown, want)
	}
}

// With a transport's Interim in the context, a review that outlasts the
// cadence shows its progress in the reader's language, naming the game;
// without one, nothing is shown and the review still answers.
func TestReviewProgressMessages(t *testing.T) {
	h := newHarness(t, Config{})
	id, _ := resignedForReview(t, h, 6)
	g := h.game(id)
	rec, err := h.b.GameRecord(h.ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	// Every reading of the clock passes two seconds: each position after
	// the first two shows a new percentage.
	h.b.Clk = stepClock{clock.NewFake(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)), 2 * time.Second}
	var notes []string
	ctx := WithInterim(h.ctx, func(_ context.Context, s string) error {
		notes = append(notes, s)
		return nil
	})
	r := &Req{Loc: "pt-BR"}
	if _, _, err := h.b.RunReview(ctx, g, rec, h.b.ReviewProgress(ctx, r, g)); err != nil {
		t.Fatal(err)
	}
	if len(notes) < 2 {
		t.Fatalf("progress notes %q", notes)
	}
	for _, n := range notes {
		if !strings.Contains(n, "#1") || !strings.Contains(n, "Analisando") || !strings.HasSuffix(n, "%") {
			t.Fatalf("progress note %q", n)
		}
	}
	if h.b.ReviewProgress(h.ctx, r, g) != nil {
		t.Fatal("a progress callback without a transport's Interim")
	}
}

// stepClock is a fake clock that advances by step at every reading.
type stepClock struct {
	f    *clock.Fake
	step time.Duration
}

func (c stepClock) Now() time.Time { return c.f.Advance(c.step) }
