package app

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

func TestDailySlot(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		now  string
		hour int
		want string
	}{
		{"2026-01-02T15:04:05Z", 16, "2026-01-01T16:00:00Z"},
		{"2026-01-02T16:00:00Z", 16, "2026-01-02T16:00:00Z"},
		{"2026-01-02T16:00:01Z", 16, "2026-01-02T16:00:00Z"},
		{"2026-01-01T00:30:00Z", 0, "2026-01-01T00:00:00Z"},
		{"2026-01-01T00:30:00Z", 23, "2025-12-31T23:00:00Z"},
		// Another zone is read in UTC.
		{"2026-01-02T10:00:00+07:00", 3, "2026-01-02T03:00:00Z"},
	} {
		if got := dailySlot(at(c.now), c.hour); !got.Equal(at(c.want)) || got.Location() != time.UTC {
			t.Errorf("dailySlot(%s, %d) = %s, want %s", c.now, c.hour, got, c.want)
		}
	}
}

func TestGuildRef(t *testing.T) {
	if got := guildRef("777"); got != 777 {
		t.Errorf("snowflake: %d", got)
	}
	for _, g := range []string{"", "g1", "-5", "0", "99999999999999999999999"} {
		if r := guildRef(g); r <= 0 {
			t.Errorf("guildRef(%q) = %d", g, r)
		}
	}
	if guildRef("g1") == guildRef("g2") {
		t.Error("two servers share a ref")
	}
}

// The day's puzzle depends on the server and the day only, and skips
// the server's recent ones.
func TestChooseDaily(t *testing.T) {
	ps, err := puzzle.Shipped("tank")
	if err != nil || len(ps) < 10 {
		t.Fatalf("%d puzzles, %v", len(ps), err)
	}
	a := chooseDaily(ps, "g1", "2026-01-02", nil)
	if b := chooseDaily(ps, "g1", "2026-01-02", nil); a.ID != b.ID {
		t.Fatalf("not deterministic: %s, %s", a.ID, b.ID)
	}
	differ := false
	for d := 3; d < 10; d++ {
		if chooseDaily(ps, "g1", "2026-01-0"+strconv.Itoa(d), nil).ID != a.ID {
			differ = true
		}
	}
	if !differ {
		t.Error("every day the same puzzle")
	}
	recent := map[string]bool{a.ID: true}
	if c := chooseDaily(ps, "g1", "2026-01-02", recent); c.ID == a.ID {
		t.Error("a recent puzzle was chosen again")
	}
	all := map[string]bool{}
	for _, p := range ps {
		all[p.ID] = true
	}
	if c := chooseDaily(ps, "g1", "2026-01-02", all); c == nil {
		t.Error("nothing chosen when every puzzle was recent")
	}
}

// The results name at most maxSolversNamed solvers, count the rest, and
// stay within Discord's 2,000 characters whatever the names.
func TestDailyResultsClipped(t *testing.T) {
	posted := time.Date(2026, 1, 2, 16, 0, 0, 0, time.UTC)
	prev := &store.DailyPost{Day: "2026-01-02", Posted: posted}
	var ss []store.DailySolver
	for i := range 100 {
		ss = append(ss, store.DailySolver{Player: strconv.Itoa(i), Name: strings.Repeat("名", 80), Misses: i % 3,
			Solved: posted.Add(time.Duration(i) * time.Minute)})
	}
	got := view.ClipRunes(dailyResults("en", prev, ss), 2000)
	if n := utf8.RuneCountInString(got); n > 2000 {
		t.Fatalf("%d characters", n)
	}
	full := dailyResults("en", prev, ss)
	if !strings.Contains(full, "solved by 100") || !strings.Contains(full, "and 70 more") {
		t.Errorf("results: %.200s … %s", full, full[len(full)-40:])
	}
	if got := dailyResults("en", prev, nil); !strings.Contains(got, "Nobody solved") {
		t.Errorf("no solver: %s", got)
	}
	one := dailyResults("en", prev, []store.DailySolver{{Player: "1", Name: "", Solved: posted.Add(65 * time.Second)}})
	if !strings.Contains(one, "1 in 1:05") {
		t.Errorf("a nameless solver: %s", one)
	}
}
