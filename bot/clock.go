package bot

import (
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
)

// timeControl is a parsed clock preset: real-time (Initial, Increment) or
// correspondence (PerMove), or neither (untimed).
type timeControl struct {
	Initial, Increment, PerMove time.Duration
}

func (tc timeControl) untimed() bool { return tc.Initial == 0 && tc.PerMove == 0 }

// clockPresets are the choices /challenge offers (autocomplete).
var clockPresets = []string{"30m", "45m", "10m+5s", "1d", "3d", "7d", "untimed"}

// parseClock reads "30m", "10m+5s", "1d", "12h", "untimed".
func parseClock(s string) (timeControl, bool) {
	s = strings.ToLower(strings.ReplaceAll(s, " ", ""))
	switch s {
	case "untimed", "none", "-":
		return timeControl{}, true
	case "rapid":
		s = "10m+5s"
	}
	base, inc, hasInc := strings.Cut(s, "+")
	num := func(v, unit string) (time.Duration, bool) {
		n, err := strconv.Atoi(strings.TrimSuffix(v, unit))
		if err != nil || n <= 0 || n > 10000 || !strings.HasSuffix(v, unit) {
			return 0, false
		}
		return time.Duration(n), true
	}
	switch {
	case strings.HasSuffix(base, "d") && !hasInc:
		if n, ok := num(base, "d"); ok && n <= 30 {
			return timeControl{PerMove: n * 24 * time.Hour}, true
		}
	case strings.HasSuffix(base, "h") && !hasInc:
		if n, ok := num(base, "h"); ok && n <= 720 {
			return timeControl{PerMove: n * time.Hour}, true
		}
	case strings.HasSuffix(base, "m"):
		n, ok := num(base, "m")
		if !ok || n > 600 {
			return timeControl{}, false
		}
		tc := timeControl{Initial: n * time.Minute}
		if hasInc {
			i, ok := num(inc, "s")
			if !ok || i > 600 {
				return timeControl{}, false
			}
			tc.Increment = i * time.Second
		}
		return tc, true
	}
	return timeControl{}, false
}

// describe writes the time control for players.
func (tc timeControl) describe(loc string) string {
	switch {
	case tc.untimed():
		return i18n.T(loc, "clock.untimed")
	case tc.PerMove > 0 && tc.PerMove%(24*time.Hour) == 0:
		d := int(tc.PerMove / (24 * time.Hour))
		if d == 1 {
			return i18n.T(loc, "clock.corr.day")
		}
		return i18n.T(loc, "clock.corr.days", strconv.Itoa(d))
	case tc.PerMove > 0:
		return i18n.T(loc, "clock.corr.hours", strconv.Itoa(int(tc.PerMove/time.Hour)))
	case tc.Increment > 0:
		return i18n.T(loc, "clock.increment", strconv.Itoa(int(tc.Initial/time.Minute)), strconv.Itoa(int(tc.Increment/time.Second)))
	}
	return i18n.T(loc, "clock.realtime", strconv.Itoa(int(tc.Initial/time.Minute)))
}

// deadline is when the side to move runs out of time; zero when untimed.
func (g *gameRec) deadline(tc timeControl) time.Time {
	switch {
	case tc.PerMove > 0:
		return g.TurnStart.Add(tc.PerMove)
	case tc.Initial > 0:
		return g.TurnStart.Add(g.Remaining[g.Turn])
	}
	return time.Time{}
}

// remaining is a side's time left at now (real-time clocks only run for the
// side to move).
func (g *gameRec) remaining(tc timeControl, side int, now time.Time) time.Duration {
	if tc.PerMove > 0 {
		if side == g.Turn {
			return max(0, g.TurnStart.Add(tc.PerMove).Sub(now))
		}
		return tc.PerMove
	}
	left := g.Remaining[side]
	if side == g.Turn && g.Status == gmActive {
		left -= now.Sub(g.TurnStart)
	}
	return max(0, left)
}

// fmtDuration writes a clock reading: "29:58", "1:02:03", "2d 3h".
func fmtDuration(d time.Duration) string {
	if d >= 48*time.Hour {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d " + strconv.Itoa(int(d%(24*time.Hour)/time.Hour)) + "h"
	}
	s := int(d / time.Second)
	h, m, sec := s/3600, s/60%60, s%60
	two := func(n int) string {
		if n < 10 {
			return "0" + strconv.Itoa(n)
		}
		return strconv.Itoa(n)
	}
	if h > 0 {
		return strconv.Itoa(h) + ":" + two(m) + ":" + two(sec)
	}
	return strconv.Itoa(m) + ":" + two(sec)
}

func discordTime(t time.Time) string { return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":R>" }
