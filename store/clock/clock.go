// Package clock is the game-clock arithmetic: time-control settings, the
// clock state stored with a game, and an injectable source of the current
// time. It is pure: nothing here touches a database or sleeps.
package clock

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Kind tells the three families of time control apart.
type Kind int

const (
	// None is an untimed game.
	None Kind = iota
	// RealTime gives each side Initial time plus Increment after every move.
	RealTime
	// Correspondence gives the side to move PerMove for each move; the
	// allowance resets after every move.
	Correspondence
)

// Settings is a time control.
type Settings struct {
	Kind      Kind
	Initial   time.Duration // RealTime
	Increment time.Duration // RealTime
	PerMove   time.Duration // Correspondence
}

const maxSetting = 365 * 24 * time.Hour

// ParseSettings reads "none", real-time "30m", "45m", "10m+5s" (minutes,
// optional increment in seconds) and correspondence "12h", "1d", "3d", "7d"
// (hours or days per move).
func ParseSettings(s string) (Settings, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	if in == "none" || in == "untimed" || in == "" {
		return Settings{}, nil
	}
	base, inc, hasInc := strings.Cut(in, "+")
	b, unit, err := amount(base)
	if err != nil {
		return Settings{}, fmt.Errorf("clock %q: %w", s, err)
	}
	switch unit {
	case 'h', 'd':
		if hasInc {
			return Settings{}, fmt.Errorf("clock %q: correspondence clocks take no increment", s)
		}
		return Settings{Kind: Correspondence, PerMove: b}, nil
	case 'm':
		st := Settings{Kind: RealTime, Initial: b}
		if hasInc {
			i, u, err := amount(inc)
			if err != nil || u != 's' {
				return Settings{}, fmt.Errorf("clock %q: increment must be seconds, like 10m+5s", s)
			}
			st.Increment = i
		}
		return st, nil
	}
	return Settings{}, fmt.Errorf("clock %q: base time must be minutes, hours or days", s)
}

// amount reads "<positive integer><unit>" with unit s, m, h or d.
func amount(v string) (time.Duration, byte, error) {
	if len(v) < 2 {
		return 0, 0, fmt.Errorf("want a number and a unit (s, m, h, d)")
	}
	unit := v[len(v)-1]
	n, err := strconv.Atoi(v[:len(v)-1])
	if err != nil || n <= 0 {
		return 0, 0, fmt.Errorf("%q is not a positive whole number", v[:len(v)-1])
	}
	var per time.Duration
	switch unit {
	case 's':
		per = time.Second
	case 'm':
		per = time.Minute
	case 'h':
		per = time.Hour
	case 'd':
		per = 24 * time.Hour
	default:
		return 0, 0, fmt.Errorf("unknown unit %q", unit)
	}
	if time.Duration(n) > maxSetting/per {
		return 0, 0, fmt.Errorf("%s is longer than a year", v)
	}
	return time.Duration(n) * per, unit, nil
}

// String is the canonical form ParseSettings reads back.
func (s Settings) String() string {
	switch s.Kind {
	case RealTime:
		out := strconv.FormatInt(int64(s.Initial/time.Minute), 10) + "m"
		if s.Increment > 0 {
			out += "+" + strconv.FormatInt(int64(s.Increment/time.Second), 10) + "s"
		}
		return out
	case Correspondence:
		if s.PerMove%(24*time.Hour) == 0 {
			return strconv.FormatInt(int64(s.PerMove/(24*time.Hour)), 10) + "d"
		}
		return strconv.FormatInt(int64(s.PerMove/time.Hour), 10) + "h"
	}
	return "none"
}

// Timed reports whether the settings run a clock at all.
func (s Settings) Timed() bool { return s.Kind != None }

// State is what is stored for a running clock: each side's time at the start
// of the current turn, when that turn started and whose turn it is. Nothing
// needs writing while a clock runs; the remaining time is derived.
type State struct {
	Left      [2]time.Duration // each side's time at TurnStart
	TurnStart time.Time
	ToMove    int // 0 or 1
}

// Start is the state at the start of a game with side 0 to move at now.
func Start(s Settings, now time.Time) State {
	st := State{TurnStart: now}
	switch s.Kind {
	case RealTime:
		st.Left = [2]time.Duration{s.Initial, s.Initial}
	case Correspondence:
		st.Left = [2]time.Duration{s.PerMove, s.PerMove}
	}
	return st
}

// Remaining is side's time left at now; never negative. Only the side to
// move is running.
func (st State) Remaining(s Settings, side int, now time.Time) time.Duration {
	r := st.Left[side&1]
	if side&1 == st.ToMove && now.After(st.TurnStart) {
		r -= now.Sub(st.TurnStart)
	}
	return max(r, 0)
}

// Deadline is the exact instant the side to move flags; zero when untimed.
func (st State) Deadline(s Settings) time.Time {
	if !s.Timed() {
		return time.Time{}
	}
	return st.TurnStart.Add(st.Left[st.ToMove])
}

// Flagged reports whether the side to move has run out of time at now: true
// from the deadline instant on.
func (st State) Flagged(s Settings, now time.Time) bool {
	return s.Timed() && !now.Before(st.Deadline(s))
}

// Apply is the state after the side to move moves at now: its spent time is
// deducted (floored at zero), the increment added (real time) or the
// allowance reset (correspondence), and the turn passes. Spent is the time
// the move took.
func (st State) Apply(s Settings, now time.Time) (next State, spent time.Duration) {
	spent = max(now.Sub(st.TurnStart), 0)
	next = st
	side := st.ToMove
	switch s.Kind {
	case RealTime:
		next.Left[side] = max(st.Left[side]-spent, 0) + s.Increment
	case Correspondence:
		next.Left[side] = s.PerMove
	}
	next.ToMove = 1 - side
	next.TurnStart = now
	return next, spent
}

// Clock is the source of the current time; inject Fake in tests.
type Clock interface {
	Now() time.Time
}

// Real reads the system clock.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// Fake is a hand-driven clock, safe for concurrent use.
type Fake struct {
	mu sync.Mutex
	t  time.Time
}

// NewFake starts a Fake at t.
func NewFake(t time.Time) *Fake { return &Fake{t: t} }

// Now is the fake's time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

// Set moves the fake to t.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	f.t = t
	f.mu.Unlock()
}

// Advance moves the fake forward by d and returns the new time.
func (f *Fake) Advance(d time.Duration) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
	return f.t
}
