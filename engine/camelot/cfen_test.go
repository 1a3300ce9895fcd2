package camelot

import (
	"errors"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

func TestCFENErrors(t *testing.T) {
	rows := strings.Fields(StartCFEN)[0]
	cases := []struct {
		in, code, msg string
	}{
		{"", codeCFENEmpty, "empty"},
		{"  ", codeCFENEmpty, "empty"},
		{rows, codeCFENFields, "got 1 fields"},
		{"../.. w 00", codeCFENRanks, "got 2"},
		{strings.Replace(rows, "..kmmmmmmk..", "..kmmmmmmk.", 1) + " w 00", codeCFENRankLength, "rank 11 must list 12 squares, got 11"},
		{strings.Replace(rows, "...kmmmmk...", "...kmmqmk...", 1) + " w 00", codeCFENPiece, "rank 10, square G10: \"q\" is not a piece"},
		// A non-ASCII character counts as one square and is quoted whole.
		{strings.Replace(rows, "...kmmmmk...", "...kmmémk...", 1) + " w 00", codeCFENPiece, "rank 10, square G10: \"é\" is not a piece"},
		{strings.Replace(rows, "...kmmmmk...", "...kmmชk...", 1) + " w 00", codeCFENRankLength, "rank 10 must list 12 squares, got 11"},
		{rows + " x 00", codeCFENSide, "got x"},
		{rows + " w 3", codeCFENCastles, "got 3"},
		{rows + " w 30", codeCFENCastles, "got 30"},
		{rows + " w 00 0", codeCFENMoveNumber, "got 0"},
		{strings.Replace(rows, "............/............/..k", "MMMMMMMMMMMM/............/..k", 1) + " w 00", codeCFENTooMany, "white has 26 pieces"},
	}
	for _, c := range cases {
		_, err := Rules.Decode(c.in)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("Decode(%q) = %v, want %s containing %q", c.in, err, c.code, c.msg)
		}
		if e != nil && e.Msg != engine.Fill(Messages[e.Code], e.Args) {
			t.Errorf("%s: message does not come from Messages", e.Code)
		}
	}
}

func TestCFENDefaultsAndCase(t *testing.T) {
	rows := strings.Fields(StartCFEN)[0]
	p, err := ParseCFEN("  " + rows + "  B  12 ")
	if err != nil {
		t.Fatal(err)
	}
	if p.Turn() != engine.Black || p.CastleMovesUsed(engine.White) != 1 || p.CastleMovesUsed(engine.Black) != 2 {
		t.Errorf("parsed %s", p.Encode())
	}
	if p.Encode() != rows+" b 12 1" {
		t.Errorf("encode %q", p.Encode())
	}
}

func TestMoveErrors(t *testing.T) {
	p := start(t)
	cases := []struct{ in, code string }{
		{"", codeSyntax},
		{"E7", codeSyntax},
		{"E7--E8", codeSyntax},
		{"hello", codeSyntax},
		{"A1-A2", codeNoSquare},
		{"M7-M8", codeNoSquare},
		{"E5-E6", codeNoPiece},
		{"E10-E9", codeNotYours},
		{"E7-E9", codeIllegal},
		{"C6-C4", codeIllegal},
	}
	for _, c := range cases {
		_, err := p.ParseMove(c.in)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Errorf("ParseMove(%q) = %v, want %s", c.in, err, c.code)
			continue
		}
		if e.Msg != engine.Fill(Messages[e.Code], e.Args) {
			t.Errorf("%s: message does not come from Messages", e.Code)
		}
	}
	// Marks after the last square and stray characters are named.
	for _, c := range []struct{ in, code, contains string }{
		{"E7-E8+", codeTrailing, `"+" cannot follow it`},
		{"E7-E8++", codeTrailing, `"++" cannot follow it`},
		{"E7-E8 +-+-", codeTrailing, `"+-+-"`},
		{"E7-E8zz", codeTrailing, `"zz"`},
		{"E7-E8-", codeTrailing, `'-'`},
		{"E7-E8é", codeTrailing, `"é"`},
		{"Eé7-E8", codeBadChar, `'é' has no place`},
		{"E7+E8", codeBadChar, `'+' has no place`},
	} {
		_, err := p.ParseMove(c.in)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Msg, c.contains) {
			t.Errorf("ParseMove(%q) = %v, want %s containing %s", c.in, err, c.code, c.contains)
		}
	}
	// Forgiving input: case, spaces, other separators.
	for _, in := range []string{"e7-e8", " E7 - E8 ", "e7e8", "E7:E8", "d6^d8", "D6-F8", "F7 ^ D5 ^ B7"} {
		if _, err := p.ParseMove(in); err != nil {
			t.Errorf("ParseMove(%q): %v", in, err)
		}
	}
	// Alternatives name legal moves of the piece.
	_, err := p.ParseMove("C6-C4")
	var e *engine.Error
	if !errors.As(err, &e) || len(e.Alternatives) == 0 || e.Alternatives[0] != "C6-B5" {
		t.Errorf("alternatives: %v", err)
	}
}

func TestAmbiguousShortForm(t *testing.T) {
	// Two chains from F12 enter Black's castle on F16 with different
	// captures, so F12xF16 names no single move.
	p := build(t, "w", "00", "MF12 MA4 mF13 mF15 mG13 mG15 mL13")
	_, err := p.ParseMove("F12xF16")
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != codeAmbiguous || len(e.Alternatives) != 2 {
		t.Fatalf("got %v; moves %v", err, moveList(p))
	}
	for _, alt := range e.Alternatives {
		if _, err := p.ParseMove(alt); err != nil {
			t.Errorf("alternative %s: %v", alt, err)
		}
	}
}

func TestMessagesComplete(t *testing.T) {
	for code, tmpl := range Messages {
		if !strings.HasPrefix(code, "camelot.") || tmpl == "" {
			t.Errorf("bad message %q: %q", code, tmpl)
		}
	}
}
