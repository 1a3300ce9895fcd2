package engine

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is a rules error a player can read: an illegal move, a malformed
// position. Code names the message in the bot's catalog ("tank.weak-shot"),
// Args fill its placeholders {0}, {1}, ... and Msg is the English text. Each
// game package exports its codes with their English templates in a
// Messages map so the bot can check that every code is translated.
type Error struct {
	Code         string
	Args         []string
	Msg          string
	Alternatives []string // close legal moves, in notation, best first
}

func (e *Error) Error() string {
	if len(e.Alternatives) == 0 {
		return e.Msg
	}
	return e.Msg + " (try " + strings.Join(e.Alternatives, ", ") + ")"
}

// Errorf builds an *Error from an English template with {0}, {1}, ...
// placeholders; the same template belongs in the game's Messages map.
func Errorf(code, template string, args ...string) *Error {
	return &Error{Code: code, Args: args, Msg: Fill(template, args)}
}

// Fill replaces {0}, {1}, ... in template with args.
func Fill(template string, args []string) string {
	if len(args) == 0 || !strings.Contains(template, "{") {
		return template
	}
	pairs := make([]string, 0, 2*len(args))
	for i, a := range args {
		pairs = append(pairs, "{"+itoa(i)+"}", a)
	}
	return strings.NewReplacer(pairs...).Replace(template)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// CheckInputError says what is wrong with err as the answer to a player's
// input s, or nil: it must be an *Error, and when s is valid UTF-8 so must
// its text be (a character is quoted whole, never split into bytes). The
// parsers' fuzz tests call it on every refusal.
func CheckInputError(s string, err error) error {
	if _, ok := err.(*Error); !ok {
		return fmt.Errorf("error %v for %q is not an *engine.Error", err, s)
	}
	if utf8.ValidString(s) && !utf8.ValidString(err.Error()) {
		return fmt.Errorf("the error for %q splits a character: %q", s, err.Error())
	}
	return nil
}
