package tank

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// The diagrams of rules §8, verbatim: the shipped TFENs must say the same.
const diagram16 = `
 16  . . . h . . m . c . m . . h . .
 15  . # . . # # . . . . . . . . . .
 14  . # . l # # l . m . l # # l . .
 13  . # . . # . . . . . . . . . . .
 12  . . . . . . . # # . . . . . . .
 11  . . . . . . # # # # # . . # # .
 10  . . # # . . . . . . . . . . # .
  9  . . # # # . . . . . . . . . . .
  8  . . . . . . . . . . . # # # . .
  7  . # . . . . . . . . . . # # . .
  6  . # # . . # # # # # . . . . . .
  5  . . . . . . . # # . . . . . . .
  4  . . . . . . . . . . . # . . # .
  3  . . L # # L . M . L # # L . # .
  2  . . . . . . . . . . # # . . # .
  1  . . H . . M . C . M . . H . . .
     a b c d e f g h i j k l m n o p
`

const diagram20 = `
 20  . . h . r . m . . . c . . m . r . h . .
 19  . # . . d . . . # # . . . . . d . . . .
 18  . # l . . . l . # . m . . l . . . l . .
 17  . # . . . # . . . . . # # . . . . . . .
 16  . . . . . # . . . . . . . . . # . . . .
 15  . . # . . . . # # . . . . . . # . . . .
 14  . . # . . . . . . . . . # # # . . . # .
 13  . . . # # . . . . . . . . . . . . # # .
 12  . . . # . . # # . . . . . . . . . . . .
 11  . . . . . . . . . # # . . . . . . . . .
 10  . . . . . . . . . # # . . . . . . . . .
  9  . . . . . . . . . . . . # # . . # . . .
  8  . # # . . . . . . . . . . . . # # . . .
  7  . # . . . # # # . . . . . . . . . # . .
  6  . . . . # . . . . . . # # . . . . # . .
  5  . . . . # . . . . . . . . . # . . . . .
  4  . . . . . . . # # . . . . . # . . . # .
  3  . . L . . . L . . M . # . L . . . L # .
  2  . . . . D . . . . . # # . . . D . . # .
  1  . . H . R . M . . C . . . M . R . H . .
     a b c d e f g h i j k l m n o p q r s t
`

// diagramTFEN turns a §8 diagram into a TFEN: '#' obstacle, upper case a
// White piece facing N, lower case a Black piece facing S.
func diagramTFEN(d string) string {
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(d), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] == "a" {
			continue
		}
		var sb strings.Builder
		for _, c := range f[1:] {
			switch {
			case c == "." || c == "#":
				sb.WriteString(c)
			case c == strings.ToUpper(c):
				sb.WriteString(c + "n")
			default:
				sb.WriteString(c + "s")
			}
		}
		rows = append(rows, sb.String())
	}
	return strings.Join(rows, "/") + " w 1"
}

func TestMapsMatchDiagrams(t *testing.T) {
	for name, d := range map[string]string{"basic16": diagram16, "basic20": diagram20} {
		p, err := StartPosition(name)
		if err != nil {
			t.Fatal(err)
		}
		if want := diagramTFEN(d); p.Encode() != want {
			t.Errorf("%s:\n got %s\nwant %s", name, p.Encode(), want)
		}
		if err := ValidateMap(p); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestBasic16Facts checks the rules' text beside the diagram: 50
// obstacles, the listed squares, Black's CLT opposite White's.
func TestBasic16Facts(t *testing.T) {
	p, _ := StartPosition("basic16")
	obstacles := 0
	for r := 0; r < 16; r++ {
		for f := 0; f < 16; f++ {
			if p.At(Square{f, r}).Obstacle {
				obstacles++
			}
		}
	}
	if obstacles != 50 {
		t.Errorf("basic16 has %d obstacles, want 50", obstacles)
	}
	want := map[string]Kind{"c1": HT, "m1": HT, "f1": MT, "j1": MT, "h3": MT, "c3": LT, "f3": LT, "j3": LT, "m3": LT, "h1": CLT,
		"d16": HT, "n16": HT, "g16": MT, "k16": MT, "i14": MT, "d14": LT, "g14": LT, "k14": LT, "n14": LT, "i16": CLT}
	checkPieces(t, p, want)
}

func TestBasic20Facts(t *testing.T) {
	p, _ := StartPosition("basic20")
	want := map[string]Kind{"c1": HT, "r1": HT, "g1": MT, "n1": MT, "j3": MT, "c3": LT, "g3": LT, "n3": LT, "r3": LT, "j1": CLT, "e2": TD, "p2": TD, "e1": HM, "p1": HM}
	for sq, k := range want { // Black: the point mirror
		f, r := int(sq[0]-'a'), atoi(sq[1:])-1
		want[lowerSquare(Square{19 - f, 19 - r})] = k
	}
	checkPieces(t, p, want)
	obstacles := map[int]string{2: "k l s", 3: "l s", 4: "h i o s", 5: "e o", 6: "e l m r", 7: "b f g h r", 8: "b c p q", 9: "m n q", 10: "j k", 11: "j k", 12: "d g h", 13: "d e r s", 14: "c m n o s", 15: "c h i p", 16: "f p", 17: "b f l m", 18: "b i", 19: "b i j"}
	for r := 1; r <= 20; r++ {
		var got []string
		for f := 0; f < 20; f++ {
			if p.At(Square{f, r - 1}).Obstacle {
				got = append(got, string(rune('a'+f)))
			}
		}
		if strings.Join(got, " ") != obstacles[r] {
			t.Errorf("basic20 rank %d obstacles %v, want %q", r, got, obstacles[r])
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func checkPieces(t *testing.T, p *Position, want map[string]Kind) {
	t.Helper()
	n := 0
	for r := 0; r < p.Height(); r++ {
		for f := 0; f < p.Width(); f++ {
			pc := p.At(Square{f, r}).Piece
			if pc.Kind == None {
				continue
			}
			n++
			sq := lowerSquare(Square{f, r})
			wantSide := engine.White
			if r >= p.Height()/2 {
				wantSide = engine.Black
			}
			if want[sq] != pc.Kind || pc.Side != wantSide {
				t.Errorf("%s holds %v %v, want %v", sq, pc.Side, pc.Kind, want[sq])
			}
		}
	}
	if n != len(want) {
		t.Errorf("%d pieces, want %d", n, len(want))
	}
}

func TestTFENRoundTrip(t *testing.T) {
	for _, s := range []string{
		build(8, "w", "a1=Cn", "h8=cs", "d4=xMne", "e5=#", "c3=Rsw", "f6=dnw", "b7=xhse"),
		build(26, "b", "a1=Cn", "z26=cs"),
		build(9, "b", "a1=Ln", "i9=ls"),
	} {
		p := mustParse(t, s)
		if p.Encode() != s {
			t.Errorf("round trip:\n got %s\nwant %s", p.Encode(), s)
		}
	}
	// The move number is optional and defaults to 1.
	p := mustParse(t, strings.TrimSuffix(build(8, "w", "a1=Cn"), " 1"))
	if p.MoveNumber() != 1 || !strings.HasSuffix(p.Encode(), " w 1") {
		t.Errorf("default move number: %s", p.Encode())
	}
}

func TestTFENErrors(t *testing.T) {
	ok := build(8, "w", "a1=Cn", "h8=cs")
	rows := strings.Fields(ok)[0]
	cases := []struct {
		s, code, contains string
	}{
		{"", CodeTFENEmpty, "empty"},
		{" \t ", CodeTFENEmpty, "empty"},
		{rows, CodeTFENFields, ""},
		{rows + " w 1 escaped x", CodeTFENFields, ""},
		{strings.Repeat("......./", 6) + "....... w", CodeTFENSize, "7"},
		{strings.Repeat("......../", 6) + "........ w", CodeTFENRankCount, "7 ranks given, but the ranks have 8 squares and a 8×8 board needs 8 ranks"},
		{strings.Replace(ok, "......../", "........./", 1), CodeTFENRankWidth, "rank 7 has 9 squares, but a board of 8 ranks is 8×8"},
		{strings.Replace(ok, "/......../", "/......./", 1), CodeTFENRankWidth, "rank 7 has 7 squares"},
		// The wrong shape is named as such, not as a bad rank.
		{strings.Repeat("................/", 2) + "................ w 1", CodeTFENRankCount, "3 ranks given, but the ranks have 16 squares and a 16×16 board needs 16 ranks"},
		{strings.Repeat("................/", 8) + "................ w 1", CodeTFENRankCount, "9 ranks given"},
		{strings.Repeat("................/", 8) + "........ w 1", CodeTFENRankWidth, "rank 9 has 16 squares, but a board of 9 ranks is 9×9"},
		// Non-ASCII input is quoted as the characters it is.
		{strings.Replace(ok, "/......../", "/...é..../", 1), CodeTFENToken, `rank 7, column 4 (d): cannot read "é..."`},
		{strings.Replace(ok, "/......../", "/...ช/", 1), CodeTFENToken, `cannot read "ช"`},
		{strings.Replace(ok, "/......../", "/...Q..../", 1), CodeTFENToken, "rank 7, column 4 (d)"},
		{strings.Replace(ok, "/......../", "/...Lx.../", 1), CodeTFENToken, "rank 7, column 4 (d)"},
		{strings.Replace(ok, "/......../", "/...x..../", 1), CodeTFENToken, "rank 7, column 4"},
		{strings.Replace(ok, "/......../", "/.......L/", 1), CodeTFENToken, "rank 7, column 8 (h)"},
		{strings.Replace(ok, " w ", " x ", 1), CodeTFENSide, ""},
		{strings.Replace(ok, " w 1", " w 0", 1), CodeTFENMoveNumber, ""},
		{strings.Replace(ok, " w 1", " w 1 won", 1), CodeTFENField, "won"},
		{build(8, "w", "a1=Cn", "b1=Cn"), CodeTFENCLTCount, "white has 2"},
		{build(8, "w", "a1=xCn", "b8=xcs"), CodeTFENTwoWrecks, ""},
		{build(8, "b", "a1=xcn") + " escaped", CodeTFENEscapeWreck, ""},
		{build(8, "b", "a1=Cn") + " escaped", CodeTFENEscapeCLT, "white"},
	}
	for _, c := range cases {
		_, err := ParseTFEN(c.s)
		if errCode(err) != c.code || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("ParseTFEN(%q) = %v, want %s containing %q", c.s, err, c.code, c.contains)
		}
		if _, ok := Messages[c.code]; !ok {
			t.Errorf("code %s missing from Messages", c.code)
		}
	}
}

func TestValidateMap(t *testing.T) {
	sym := func(items ...string) []string { // add the point mirror of White's items
		out := append([]string(nil), items...)
		for _, it := range items {
			sq, tok, _ := strings.Cut(it, "=")
			f, r := int(sq[0]-'a'), atoi(sq[1:])-1
			m := lowerSquare(Square{7 - f, 7 - r})
			switch {
			case tok[0] == 'x':
				tok = "x" + strings.ToLower(tok[1:2]) + "s"
			case tok != "#":
				tok = strings.ToLower(tok[:1]) + "s"
			}
			out = append(out, m+"="+tok)
		}
		return out
	}
	good := build(8, "w", sym("d1=Cn", "c2=Ln", "e4=#")...)
	if err := ValidateMap(mustParse(t, good)); err != nil {
		t.Fatalf("good custom map refused: %v", err)
	}
	cases := []struct{ s, code string }{
		{build(8, "b", sym("d1=Cn")...), CodeMapTurn},
		{strings.Replace(good, " w 1", " w 3", 1), CodeMapMoveNo},
		{build(8, "w", sym("d1=Cn", "c2=xLn")...), CodeMapWreck},
		{build(8, "w", append(sym("d1=Cn"), "e4=#")...), CodeMapSymmetry},
		{build(8, "w", sym("d1=Cn", "c4=Ln")...), CodeMapZone},
		{build(8, "w", sym("d1=Cne")...), CodeMapFacing},
		{build(8, "w", sym("d1=Ln")...), CodeMapCLT},
		{build(16, "w", "h1=Cn", "i16=cs"), CodeMapArmy},
		{strings.Fields(build(8, "b", "a8=Ln"))[0] + " b 1 escaped", CodeMapEscaped},
	}
	for _, c := range cases {
		err := ValidateMap(mustParse(t, c.s))
		if errCode(err) != c.code {
			t.Errorf("ValidateMap(%s) = %v, want %s", c.s, err, c.code)
		}
	}
}

func TestUnknownMap(t *testing.T) {
	_, err := Rules.Start("basic99")
	if errCode(err) != CodeUnknownMap || !strings.Contains(err.Error(), "basic16, basic20") {
		t.Errorf("unknown map: %v", err)
	}
	p, err := Rules.Start("")
	if err != nil || p.Encode() != maps[0].tfen {
		t.Errorf("default map: %v", err)
	}
	if Rules.Name() != "tank" || len(Rules.Variants()) != 2 || Rules.Variants()[0].Name != "basic16" {
		t.Errorf("rules %s %v", Rules.Name(), Rules.Variants())
	}
	if _, err := Rules.Decode("nonsense"); errCode(err) != CodeTFENFields {
		t.Errorf("decode: %v", err)
	}
	// Start("") picks the default map; Decode("") is a mistake.
	if _, err := Rules.Decode(""); errCode(err) != CodeTFENEmpty {
		t.Errorf("decode of an empty string: %v", err)
	}
}

func TestMessagesComplete(t *testing.T) {
	for code, msg := range Messages {
		if !strings.HasPrefix(code, "tank.") || msg == "" {
			t.Errorf("bad message %q: %q", code, msg)
		}
	}
}

func FuzzParseTFEN(f *testing.F) {
	for _, m := range maps {
		f.Add(m.tfen)
	}
	f.Add(build(8, "w", "a1=Cn", "h8=cs", "d4=xMne"))
	f.Add(build(8, "b", "a1=Ln") + " escaped")
	f.Add("x/y z")
	f.Add("...é..../ช w")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseTFEN(s)
		if err != nil {
			if e := engine.CheckInputError(s, err); e != nil {
				t.Fatal(e)
			}
			return
		}
		enc := p.Encode()
		q, err := ParseTFEN(enc)
		if err != nil || q.Encode() != enc {
			t.Fatalf("re-parse of %q: %v", enc, err)
		}
		if p.Width() <= 10 {
			ms := p.Moves()
			if uint64(len(ms)) != p.Perft(1) {
				t.Fatalf("moves %d, perft(1) %d", len(ms), p.Perft(1))
			}
			_ = p.Announce()
		}
	})
}
