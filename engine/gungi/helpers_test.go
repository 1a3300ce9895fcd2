package gungi

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// board writes a GFEN board from "square=tower" specs, the tower bottom to
// top with GFEN letters (upper case White).
func board(specs ...string) string {
	var cells [81]string
	for _, sp := range specs {
		sq, tower, _ := strings.Cut(sp, "=")
		s, ok := ParseSquare(sq)
		if !ok {
			panic("bad square in spec " + sp)
		}
		cells[s] = tower
	}
	var b strings.Builder
	for r := 8; r >= 0; r-- {
		for f := range 9 {
			switch c := cells[Sq(f, r)]; len(c) {
			case 0:
				b.WriteByte('.')
			case 1:
				b.WriteString(c)
			default:
				b.WriteString("(" + c + ")")
			}
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// game decodes a game-phase position (both ready) with empty hands unless
// hands is given.
func game(t testing.TB, turn, hands string, specs ...string) *Position {
	t.Helper()
	if hands == "" {
		hands = "-/-"
	}
	if !strings.Contains(hands, "/") {
		hands += "/-" // White's hand only
	}
	return mustDecode(t, board(specs...)+" "+turn+" wb "+hands)
}

// notes lists the legal moves in notation, sorted.
func notes(p *Position) []string {
	var out []string
	for _, m := range p.legalMoves() {
		out = append(out, m.String())
	}
	sort.Strings(out)
	return out
}

// movesFrom lists the legal moves of the piece on sq, sorted.
func movesFrom(p *Position, sq string) []string {
	var out []string
	for _, n := range notes(p) {
		if len(n) > 3 && n[1:3] == sq && n[3] != '*' {
			out = append(out, n)
		}
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wantCode checks err is an *engine.Error with code, listed in Messages.
func wantCode(t testing.TB, err error, code string) *engine.Error {
	t.Helper()
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("want *engine.Error %s, got %v", code, err)
	}
	if e.Code != code {
		t.Fatalf("want code %s, got %s (%s)", code, e.Code, e.Msg)
	}
	if Messages[code] == "" {
		t.Fatalf("code %s missing from Messages", code)
	}
	if strings.Contains(e.Msg, "{") {
		t.Fatalf("unfilled placeholder in %q", e.Msg)
	}
	return e
}

// parsePlay parses and plays a move, failing the test on error.
func parsePlay(t testing.TB, p *Position, s string) *Position {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatalf("parse %q in %s: %v", s, p.Encode(), err)
	}
	next, err := p.Play(m)
	if err != nil {
		t.Fatalf("play %q: %v", s, err)
	}
	return next.(*Position)
}

// refuse parses s and wants the given error code.
func refuse(t testing.TB, p *Position, s, code string) *engine.Error {
	t.Helper()
	_, err := p.ParseMove(s)
	return wantCode(t, err, code)
}
