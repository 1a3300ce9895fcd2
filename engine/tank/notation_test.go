package tank

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

func TestNotationForgiving(t *testing.T) {
	p := mustParse(t, build(8, "w", "d2=Ln", "d6=mn", "a4=Cn", "h8=cs", "b8=xls"))
	cases := map[string]string{
		"D2 > D2NE (D6)": "D2 > D2NE (D6)",
		"d2 > d2ne (d6)": "D2 > D2NE (D6)",
		"D2-D2NE xD6":    "D2 > D2NE (D6)",
		"d2 d2 ne d6":    "D2 > D2NE (D6)",
		"d2>d2nexd6":     "D2 > D2NE (D6)",
		"d2,d2ne,(d6) +": "D2 > D2NE (D6)",
		"  D2  >  D4  ":  "D2 > D4N",
		"d2-d4 +-":       "D2 > D4N",
		"d2 d1":          "D2 > D1N",
		"a4 > off":       "A4 > OFF",
		"A4-OFF -":       "A4 > OFF",
		"A4 > A5N":       "A4 > A5N",
	}
	for in, want := range cases {
		m, err := p.ParseTankMove(in)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", in, err)
			continue
		}
		if m.String() != want {
			t.Errorf("ParseMove(%q) = %s, want %s", in, m, want)
		}
	}
	m, _ := p.ParseTankMove("d2 d2ne d6")
	if got := m.Steps(); strings.Join(got, "|") != "D2|D2|NE|D6" {
		t.Errorf("steps %q", got)
	}
	e, _ := p.ParseTankMove("a4 off")
	if got := e.Steps(); strings.Join(got, "|") != "A4|OFF||" {
		t.Errorf("escape steps %q", got)
	}
	n, _ := p.ParseTankMove("d2 d4")
	if got := n.Steps(); strings.Join(got, "|") != "D2|D4|N|" {
		t.Errorf("steps %q", got)
	}
}

func TestNotationErrors(t *testing.T) {
	p := mustParse(t, build(8, "w",
		"d2=Ln", "d6=mn", "a4=Cn", "h8=cs", "b8=xls", "f2=Mn", "f5=hs",
		"b2=Dn", "b6=ln", "g6=xLn", "h2=Rn", "h3=ls", "c6=Hn"))
	cases := []struct {
		in, code, contains string
	}{
		{"", CodeSyntax, "empty"},
		{"9", CodeSyntax, "rank number"},
		{"off", CodeSyntax, "start with the square"},
		{"d2", CodeSyntax, "destination is missing"},
		{"d2 > ne", CodeSyntax, "destination"},
		{"d2 d4 zz", CodeSyntax, "zz"},
		{"d2 d4 n ne", CodeSyntax, "NE"},
		{"d2 d4 d6 d7", CodeSyntax, "d7"},
		{"d2 * d4", CodeSyntax, "'*'"},
		{"d2 > d4é", CodeSyntax, "unexpected character 'é'"},
		{"ช2 > d4", CodeSyntax, "unexpected character 'ช'"},
		{"d2 > d4n++", CodeSuffix, `end with "++"`},
		{"d2 > d4n +-+-", CodeSuffix, `"+-+-"`},
		{"d2 > d4n !", CodeSuffix, `"!"`},
		{"d2 > d4n-+", CodeSuffix, `"-+"`},
		{"d2 d12345", CodeSyntax, "too long"},
		{"i9 > i8", CodeBadSquare, "I9"},
		{"d2 d4 (z1)", CodeBadSquare, "Z1"},
		{"e5 > e6", CodeNoPiece, "E5"},
		{"b8 > b7", CodeWreckPiece, "B8"},
		{"h8 > h7", CodeNotYours, "H8"},
		{"d2 > off", CodeOnlyCLT, "LT"},
		{"a4 > off (h8)", CodeEscapeNoFire, ""},
		{"d2 > d8", CodeOutOfReach, "speed 5"},
		{"d2 > d2", CodeSamePose, "D2"},
		{"d2 d2ne (e5)", CodeNoTarget, "E5"},
		{"d2 d2ne (a4)", CodeOwnTarget, "A4"},
		{"d2 d2nw (h8)", CodeOutOfArc, "H8 is not on a line of fire of the LT on D2 facing NW"},
		{"c6 c7nw (h8)", CodeOutOfArc, ""},
		{"d2 d3n (d3)", CodeSelfTarget, ""},
		{"d2 d5n (d6)", CodeAdjacent, "adjacent"},
		{"f2 f3n (f5)", CodeWeakShot, "MT gun 2 does not beat HT front armour 3"},
		{"h2 h2nw (h3)", CodeMortarRange, "H3"},
		{"h2 h2n (h3)", CodeSamePose, ""},
		{"h2 h1n (h3)", CodeMortarRange, "H3"},
		{"b2 b3n (b8)", CodeWreckTarget, "B8"},
		{"c6 c6nw (b8)", CodeWreckTarget, ""},
		{"f2 f3ne (h5)", CodeNoTarget, "H5"},
	}
	for _, c := range cases {
		_, err := p.ParseTankMove(c.in)
		if errCode(err) != c.code || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("ParseMove(%q) = %v, want %s containing %q", c.in, err, c.code, c.contains)
		}
		if _, ok := Messages[errCode(err)]; !ok {
			t.Errorf("code %q missing from Messages", errCode(err))
		}
	}
	// Close alternatives come from the same piece first.
	_, err := p.ParseTankMove("d2 > d8")
	e := err.(*engine.Error)
	if len(e.Alternatives) != 5 || e.Alternatives[0] != "D2 > E6NE" {
		t.Errorf("alternatives %q", e.Alternatives)
	}
	for _, a := range e.Alternatives {
		if !strings.HasPrefix(a, "D2 > ") {
			t.Errorf("alternative %q is not a move of the same piece", a)
		}
	}
	// A blocked line names the blocker.
	_, err = p.ParseTankMove("b2 b3n (b6)")
	if errCode(err) != "" {
		t.Errorf("TD b3 > b6 with b4, b5 empty should be legal: %v", err)
	}
	// Play refuses foreign and off-board moves with a rules error.
	if _, err := p.Play(foreignMove{}); errCode(err) != CodeNotTankMove {
		t.Errorf("foreign move: %v", err)
	}
	if _, err := p.Play(Move{From: Square{30, 1}, To: Square{3, 2}}); errCode(err) != CodeIllegal {
		t.Errorf("off-board move: %v", err)
	}
	// A finished game takes no moves.
	w := mustParse(t, build(8, "w", "a1=Cn", "h8=xcs"))
	if _, err := w.ParseMove("a1 a2"); errCode(err) != CodeGameOver {
		t.Errorf("finished game: %v", err)
	}
}

type foreignMove struct{}

func (foreignMove) Steps() []string { return nil }

// checkNotationRoundTrip parses the notation of every legal move of p and
// expects the same move back, and checks the picker steps.
func checkNotationRoundTrip(t *testing.T, p *Position) {
	t.Helper()
	for _, m := range p.Moves() {
		s := p.FormatMove(m)
		back, err := p.ParseTankMove(s)
		if err != nil || back != m {
			t.Fatalf("%s: %q parses to %v, %v", p.Encode(), s, back, err)
		}
		lower, err := p.ParseTankMove(strings.ToLower(strings.ReplaceAll(s, " > ", "-")))
		if err != nil || lower != m {
			t.Fatalf("%s: lower-case %q: %v", p.Encode(), s, err)
		}
		st := m.Steps()
		if len(st) != 4 || st[0] != squareName(m.From) {
			t.Fatalf("steps %q of %s", st, s)
		}
	}
}

func TestNotationRoundTripStarts(t *testing.T) {
	for _, name := range []string{"basic16", "basic20"} {
		p, _ := StartPosition(name)
		checkNotationRoundTrip(t, p)
		// The engine.Position contract, on interface values.
		for _, m := range p.LegalMoves() {
			back, err := p.ParseMove(p.FormatMove(m))
			if err != nil || back != m {
				t.Fatalf("%s: ParseMove(FormatMove(%v)) = %v, %v", name, m, back, err)
			}
		}
	}
}

func FuzzParseMove(f *testing.F) {
	p, _ := ParseTFEN(build(8, "w", "d2=Ln", "d6=mn", "a4=Cn", "h8=cs", "b8=xls", "h2=Rn", "b2=Dn"))
	for _, s := range []string{"d2 > d2ne (d6)", "A4 > OFF", "d2-d4", "xk12", "e2e5n", "a4 off (h8)", "z99 > a0", "d2 d2 nex d6 +-"} {
		f.Add(s)
	}
	f.Add("d2 > d4 é++")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := p.ParseTankMove(s)
		if err != nil {
			if e := engine.CheckInputError(s, err); e != nil {
				t.Fatal(e)
			}
			return
		}
		back, err := p.ParseTankMove(m.String())
		if err != nil || back != m {
			t.Fatalf("%q -> %s does not round trip: %v", s, m, err)
		}
	})
}
