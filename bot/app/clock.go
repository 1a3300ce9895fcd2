package app

import (
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store/clock"
)

// Clock arithmetic (settings, state, deadlines) is store/clock's; this file
// holds what is the bot's own: the presets players pick from, their wording,
// and how a game record's clock moves on.

// ClockPresets are the choices /challenge offers (autocomplete).
var ClockPresets = []string{"30m", "45m", "10m+5s", "1d", "3d", "7d", "untimed"}

// ParseClock reads a preset or any clock.ParseSettings form; "rapid" is
// 10m+5s.
func ParseClock(s string) (clock.Settings, bool) {
	s = strings.ToLower(strings.ReplaceAll(s, " ", ""))
	switch s {
	case "-":
		s = "none"
	case "rapid":
		s = "10m+5s"
	}
	tc, err := clock.ParseSettings(s)
	return tc, err == nil
}

// DescribeClock writes the time control for players.
func DescribeClock(loc string, tc clock.Settings) string {
	switch {
	case !tc.Timed():
		return i18n.T(loc, "clock.untimed")
	case tc.Kind == clock.Correspondence && tc.PerMove%(24*time.Hour) == 0:
		return i18n.T(loc, "clock.corr.days", strconv.Itoa(int(tc.PerMove/(24*time.Hour))))
	case tc.Kind == clock.Correspondence:
		return i18n.T(loc, "clock.corr.hours", strconv.Itoa(int(tc.PerMove/time.Hour)))
	case tc.Increment > 0:
		return i18n.T(loc, "clock.increment", strconv.Itoa(int(tc.Initial/time.Minute)), strconv.Itoa(int(tc.Increment/time.Second)))
	}
	return i18n.T(loc, "clock.realtime", strconv.Itoa(int(tc.Initial/time.Minute)))
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

func DiscordTime(t time.Time) string { return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":R>" }

// clockEvents are the flag-fall and reminders of the side to move (none when
// untimed). They carry the ply: those of an earlier turn are dropped when
// claimed, and every change of turn cancels them and writes new ones in its
// own transaction (see effects).
func clockEvents(g *Game, tc clock.Settings) []Event {
	d := g.Deadline(tc)
	if d.IsZero() {
		return nil
	}
	evs := []Event{{Kind: evFlag, Ref: g.ID, Ply: g.Ply, Due: d}}
	if tc.Kind == clock.Correspondence {
		for _, before := range []time.Duration{24 * time.Hour, time.Hour} {
			if tc.PerMove > before {
				evs = append(evs, Event{Kind: evRemind, Ref: g.ID, Ply: g.Ply, Due: d.Add(-before)})
			}
		}
	} else if low := tc.Initial / 10; g.ClockState.Left[g.ClockState.ToMove] > low {
		evs = append(evs, Event{Kind: evRemind, Ref: g.ID, Ply: g.Ply, Due: d.Add(-low)})
	}
	return evs
}

// turnEffects drop the clock events of the turn that ended and schedule
// those of the new one (none when the game is over); in a game against the
// bot, the computer's turn is an evAI event of its own (see ai.go).
func turnEffects(g *Game, tc clock.Settings) Effects {
	e := Effects{Cancel: []CancelSpec{{Kinds: []string{evFlag, evRemind, evAI}}}}
	if g.Status == GmActive {
		e.Schedule = clockEvents(g, tc)
		if ev, ok := aiEvent(g); ok {
			e.Schedule = append(e.Schedule, ev)
		}
	}
	return e
}

// clockOf is g's time control (untimed when unreadable).
func clockOf(g *Game) clock.Settings {
	tc, _ := ParseClock(g.Clock)
	return tc
}
