package gungi

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

func TestGFENErrors(t *testing.T) {
	empty := "........./........./........./........./........./........./........./........./........."
	hands := "M1G6L4S4Y2K2B1T1W2F2C2N2P9/M1G6L4S4Y2K2B1T1W2F2C2N2P9"
	cases := []struct{ s, code string }{
		{"", CodeGFENEmpty},
		{" \t", CodeGFENEmpty},
		{empty + " b -", CodeGFENFields},
		{"......../ b - " + hands, CodeGFENRanks},
		{strings.Replace(empty, ".........", "........", 1) + " b - " + hands, CodeGFENRankWidth},
		{strings.Replace(empty, ".........", "..........", 1) + " b - " + hands, CodeGFENRankWidth},
		{strings.Replace(empty, ".........", "....x....", 1) + " b - " + hands, CodeGFENChar},
		{strings.Replace(empty, ".........", "....(PPPP)....", 1) + " b - " + hands, CodeGFENTower},
		{strings.Replace(empty, ".........", "....()....", 1) + " b - " + hands, CodeGFENTower},
		{strings.Replace(empty, ".........", "....(P....", 1) + " b - " + hands, CodeGFENTower},
		{empty + " x - " + hands, CodeGFENSide},
		{empty + " b q " + hands, CodeGFENReady},
		{empty + " b - M1G6", CodeGFENHands},
		{empty + " b - M1G6M1/-", CodeGFENHands},
		{empty + " b - m1/-", CodeGFENHands},
		{empty + " b - M0/-", CodeGFENHands},
		{empty + " b - " + hands + " 0", CodeGFENNumber},
		{empty + " b - " + hands + " x", CodeGFENNumber},
		{board("a1=MP", "i9=m") + " w wb -/-", CodeGFENUnderMarshal},
		{board("a1=M", "b1=PF", "i9=m") + " w wb -/-", CodeGFENFortress},
		{board("a5=M", "i9=m") + " w - -/-", CodeGFENDraftZone},
		{board("a1=M", "i9=m") + " w wb M1/-", CodeGFENCount},
		{board("a1=M", "i9=m") + " w wb P10/-", CodeGFENCount},
		{board("i9=m") + " w wb -/-", CodeGFENNoMarshal},
		{board("a1=P", "i9=m") + " w - M1/-", CodeGFENMarshalFirst},
		{board("a1=M", "i9=m") + " w w -/-", CodeGFENReadyTurn},
		{board("a1=M", "a2=m") + " w wb -/-", CodeGFENOppInCheck},
	}
	for _, c := range cases {
		_, err := Decode(c.s)
		wantCode(t, err, c.code)
		if _, err := Rules.Decode(c.s); err == nil {
			t.Errorf("Rules.Decode accepted %q", c.s)
		}
	}
	// The real fault is named, and non-ASCII input is quoted as characters.
	for _, c := range []struct{ s, code, contains string }{
		{strings.Replace(empty, ".........", "........", 1) + " b - " + hands, CodeGFENRankWidth, "rank 9 of the GFEN board has 8 cells"},
		{strings.Replace(empty, ".........", "................", 1) + " b - " + hands, CodeGFENRankWidth, "has 16 cells, but the board is 9×9"},
		{strings.Replace(empty, ".........", "....é....", 1) + " b - " + hands, CodeGFENChar, "unexpected character 'é' in rank 9"},
		{strings.Replace(empty, ".........", "....(Pช)...", 1) + " b - " + hands, CodeGFENChar, "unexpected character 'ช' in rank 9"},
		{strings.Replace(empty, ".........", "....(Pé", 1) + " b - " + hands, CodeGFENTower, `bad tower "(Pé"`},
	} {
		_, err := Decode(c.s)
		if e := wantCode(t, err, c.code); !strings.Contains(e.Msg, c.contains) {
			t.Errorf("Decode(%q) = %v, want %q in it", c.s, e, c.contains)
		}
	}
	q, _ := Rules.Start("quick")
	if _, err := q.ParseMove("Pe3-e4 ++"); err == nil || !strings.Contains(err.Error(), `end with "++"`) {
		t.Errorf("++ suffix: %v", err)
	}
	// Both orders of the hands field and an explicit turn number.
	p := mustDecode(t, StartGFEN+" 7")
	if p.Number() != 7 || p.Encode() != StartGFEN+" 7" {
		t.Errorf("turn number: %s", p.Encode())
	}
}

func TestForgivingNotation(t *testing.T) {
	q, _ := Rules.Start("quick")
	p := q.(*Position)
	cases := []struct{ in, out, code string }{
		{"Pe3-e4", "Pe3-e4", ""},
		{"pe3-e4", "Pe3-e4", ""},
		{"e3-e4", "Pe3-e4", ""},
		{"E3E4", "Pe3-e4", ""},
		{" e3 e4 ", "Pe3-e4", ""},
		{"Pe3-e4+", "Pe3-e4", ""},
		{"Pe3-e4 #", "Pe3-e4", ""},
		{"Pe3-e4++", "", CodeSuffix},
		{"Pe3-e4+-+-", "", CodeSuffix},
		{"Pe3-e4zz", "", CodeSuffix},
		{"Pe3-e4!", "", CodeSuffix},
		{"Ya2:b3", "Ya2-b3", ""},
		{"ya2-b3", "Ya2-b3", ""},
		{"t*e4", "T*e4", ""},
		{"Lc1^c2", "", CodeWrongPiece},
		{"Cc2^c3", "Cc2^c3", ""},
		{"c2c3", "Cc2^c3", ""},
		{"Cc2-c3", "", CodeOccupied},
		{"Cc2xc3", "", CodeNoEnemy},
		{"Pe3-e5", "", CodeOutOfReach},
		{"Pe5-e6", "", CodeNoPiece},
		{"Pe7-e6", "", CodeNoPiece},
		{"Y*e4", "", CodeNotInHand},
		{"P*e7", "", CodeDropZone},
		{"ready", "", CodeReadyNotDraft},
		{"hello", "", CodeSyntax},
		{"", "", CodeSyntax},
		{"Pe3-e4-e5", "", CodeSyntax},
		{"Xe3-e4", "", CodeSyntax},
		{"*e4", "", CodeAmbiguous},
		{"ready:nope", "", CodeFormationUnknown},
	}
	for _, c := range cases {
		m, err := p.ParseMove(c.in)
		if c.code != "" {
			e := wantCode(t, err, c.code)
			if c.code != CodeSyntax && c.code != CodeSuffix && c.code != CodeReadyNotDraft && c.code != CodeFormationUnknown && len(e.Alternatives) == 0 {
				t.Errorf("%q: no alternatives in %v", c.in, e)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := p.FormatMove(m); got != c.out {
			t.Errorf("%q parsed as %s, want %s", c.in, got, c.out)
		}
	}
	// Alternatives are close to what was written.
	e := refuse(t, p, "Pe3-e5", CodeOutOfReach)
	if e.Alternatives[0] != "Pe3-e4" {
		t.Errorf("alternatives %v", e.Alternatives)
	}
	if !strings.Contains(e.Error(), "try Pe3-e4") {
		t.Errorf("error text %q", e.Error())
	}
	// Steps of each kind.
	for in, want := range map[string]string{"Pe3-e4": "Pe3|e4|-", "Cc2^c3": "Cc2|c3|^", "T*e4": "*T|e4"} {
		m, _ := p.ParseMove(in)
		if got := strings.Join(m.Steps(), "|"); got != want {
			t.Errorf("steps of %s: %s", in, got)
		}
	}
	if got := ReadyMove.Steps(); len(got) != 1 || got[0] != "ready" {
		t.Errorf("ready steps %v", got)
	}
	// Play refuses foreign and illegal moves with *engine.Error.
	_, err := p.Play(Move{KindMove, Pawn, Sq(4, 2), Sq(4, 4)})
	wantCode(t, err, CodeOutOfReach)
	_, err = p.Play(nil)
	wantCode(t, err, CodeForeignMove)
}

func TestMessagesCoverEveryCode(t *testing.T) {
	// Every Code constant appears in Messages and its template is English
	// text with no unknown placeholder beyond the arguments used.
	for code, tmpl := range Messages {
		if !strings.HasPrefix(code, "gungi.") || tmpl == "" {
			t.Errorf("bad message %q: %q", code, tmpl)
		}
	}
	src := []string{CodeSyntax, CodeNoSuchMove, CodeAmbiguous, CodeGameOver, CodeForeignMove, CodeNoPiece, CodeWrongPiece, CodeOutOfReach, CodeOccupied, CodeNoEnemy, CodeNothingToStack, CodeTowerFull, CodeOntoMarshal, CodeFortressStack, CodeFortressAttack, CodeSelfCheck, CodeNotInHand, CodeDropLimit, CodeDropZone, CodePawnFile, CodePawnDropMate, CodeDraftOnly, CodeDraftZone, CodeMarshalFirst, CodeDraftCheck, CodeReadyNotDraft, CodeReadyNoMarshal, CodeAlreadyReady, CodeFormation, CodeFormationUnknown, CodeUnknownVariant, CodeSuffix, CodeGFENEmpty, CodeGFENFields, CodeGFENRanks, CodeGFENRankWidth, CodeGFENChar, CodeGFENTower, CodeGFENSide, CodeGFENReady, CodeGFENHands, CodeGFENNumber, CodeGFENUnderMarshal, CodeGFENFortress, CodeGFENDraftZone, CodeGFENCount, CodeGFENTooMany, CodeGFENNoMarshal, CodeGFENMarshalFirst, CodeGFENReadyTurn, CodeGFENOppInCheck}
	if len(src) != len(Messages) {
		t.Errorf("%d codes, %d messages", len(src), len(Messages))
	}
	for _, c := range src {
		if Messages[c] == "" {
			t.Errorf("no message for %s", c)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(StartGFEN)
	f.Add(quickGFEN)
	f.Add(quickGFEN + " 12")
	f.Add(board("a1=MP", "i9=m") + " w wb -/-")
	f.Add("(PPP)(pt)(M)/ w wb P1/-")
	f.Add("(Pé)ช/ w wb P1/-")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Decode(s)
		if err != nil {
			if e := engine.CheckInputError(s, err); e != nil {
				t.Fatal(e)
			}
			return
		}
		enc := p.Encode()
		back, err := Decode(enc)
		if err != nil {
			t.Fatalf("re-decode %q: %v", enc, err)
		}
		if back.Encode() != enc {
			t.Fatalf("round trip %q -> %q", enc, back.Encode())
		}
		if len(p.legalMoves()) > 0 {
			_ = p.Status()
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"Pe3-e4", "Pe3xe4", "Ke2^d4", "P*e5", "ready", "e3e4", "*e5", "ready:quick", "b*", "((", "Xa1-a2", "a1a1a1", "Pe3-e4+-", "é*e5"} {
		f.Add(s)
	}
	q, _ := Rules.Start("quick")
	start := mustDecode(f, StartGFEN)
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []*Position{q.(*Position), start} {
			m, err := p.ParseMove(s)
			if err != nil {
				if e := engine.CheckInputError(s, err); e != nil {
					t.Fatal(e)
				}
				continue
			}
			if _, err := p.Play(m); err != nil {
				t.Fatalf("%q parsed to %v but play failed: %v", s, m, err)
			}
		}
	})
}
