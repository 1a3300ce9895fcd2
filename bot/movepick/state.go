package movepick

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Limits of the state encoding. They keep every valid state within
// MaxStateLen characters, so "g:<19 digits>:<5 digits>:<action>:<state>"
// stays within Discord's 100 characters for actions of up to 8 characters.
const (
	MaxStateLen = 60
	maxDepth    = 8    // levels; the games use at most 4
	maxIndex    = 9999 // options of one level; real levels have < 100
	maxPage     = 999
)

// Errors of Decode and Open. Test with errors.Is; the wrapped message says
// what exactly is wrong.
var (
	// ErrMalformed: the state string is not a picker state at all.
	ErrMalformed = errors.New("malformed picker state")
	// ErrStale: the state is well formed but does not fit the position (an
	// index past the end of its menu, a page that does not exist, more
	// choices than the moves have steps). The bot should reopen the picker.
	ErrStale = errors.New("picker state does not fit the position")
	// ErrNoMoves: the position has no legal move (the game is over).
	ErrNoMoves = errors.New("no legal moves to pick from")
	// ErrSteps: the engine gave two legal moves the same Steps, so the
	// picker cannot tell them apart. This is an engine bug.
	ErrSteps = errors.New("two legal moves have the same picker steps")
)

// State is the picker's position in its menus: the index of the option
// chosen at each level so far (indices into that level's full sorted option
// list, not into a page), and the page shown of the next level.
//
// Encoded, the choices are decimal indices joined by '.', followed by
// "p<page>" when the page is not 0: "" is the first menu, "3.12" two
// choices made, "3.12p1" the same with the second page of the third menu
// shown, "p2" the third page of the first menu. Numbers have no leading
// zeros, so every state has exactly one encoding.
type State struct {
	Choices []int
	Page    int
}

// Encode writes the state in its compact form.
func (s State) Encode() string {
	var b strings.Builder
	for i, c := range s.Choices {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.Itoa(c))
	}
	if s.Page != 0 {
		b.WriteByte('p')
		b.WriteString(strconv.Itoa(s.Page))
	}
	return b.String()
}

// Decode reads an encoded state. It checks the syntax and the limits only;
// Open checks that the state fits a position.
func Decode(s string) (State, error) {
	var st State
	if len(s) > MaxStateLen {
		return st, fmt.Errorf("%w: %d characters, at most %d", ErrMalformed, len(s), MaxStateLen)
	}
	body := s
	if i := strings.IndexByte(s, 'p'); i >= 0 {
		n, err := number(s[i+1:], maxPage)
		if err != nil {
			return State{}, fmt.Errorf("%w: page %q: %v", ErrMalformed, s[i+1:], err)
		}
		st.Page = n
		if n == 0 {
			return State{}, fmt.Errorf("%w: page 0 is written by leaving the page out", ErrMalformed)
		}
		body = s[:i]
	}
	if body == "" {
		return st, nil
	}
	parts := strings.Split(body, ".")
	if len(parts) > maxDepth {
		return State{}, fmt.Errorf("%w: %d choices, at most %d", ErrMalformed, len(parts), maxDepth)
	}
	st.Choices = make([]int, len(parts))
	for i, p := range parts {
		n, err := number(p, maxIndex)
		if err != nil {
			return State{}, fmt.Errorf("%w: choice %d %q: %v", ErrMalformed, i+1, p, err)
		}
		st.Choices[i] = n
	}
	return st, nil
}

// number reads a canonical decimal number (no sign, no leading zero) up to
// max.
func number(s string, max int) (int, error) {
	switch {
	case s == "":
		return 0, errors.New("empty number")
	case len(s) > 1 && s[0] == '0':
		return 0, errors.New("leading zero")
	case len(s) > len(strconv.Itoa(max)):
		return 0, errors.New("too large")
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("unexpected %q", c)
		}
		n = n*10 + int(c-'0')
	}
	if n > max {
		return 0, errors.New("too large")
	}
	return n, nil
}
