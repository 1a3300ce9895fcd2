package camelot

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

func FuzzCFEN(f *testing.F) {
	f.Add(StartCFEN)
	f.Add("../......../........../............/............/............/............/............/............/............/............/............/............/........../......../M. b 21 9")
	f.Add(strings.Replace(StartCFEN, "w 00 1", "b 22", 1))
	f.Add("../.. w 00")
	f.Add("..é/.. w 00")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseCFEN(s)
		if err != nil {
			if e := engine.CheckInputError(s, err); e != nil {
				t.Fatal(e)
			}
			return
		}
		q, err := ParseCFEN(p.Encode())
		if err != nil || *q != *p {
			t.Fatalf("round trip of %q: %v", s, err)
		}
		p.Status()
		p.Announcements()
		for _, m := range p.legal() {
			if _, err := p.ParseMove(m.String()); err != nil {
				t.Fatalf("%s: own move %s refused: %v", p.Encode(), m, err)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"E7-E8", "d6^d8^f8", "C6^E8^C8xE10xC10", "E8xE10", "F16-G16", "e7 e8", "x", "A99-B1", "L16", "^^", "E7-E8++", "Eé7"} {
		f.Add(s)
	}
	p, err := ParseCFEN(StartCFEN)
	if err != nil {
		f.Fatal(err)
	}
	// A position where White must capture.
	mid := mustPlay(f, mustPlay(f, p, "E7-E8"), "E10-E9")
	f.Fuzz(func(t *testing.T, s string) {
		for _, pos := range []*Position{p, mid} {
			m, err := pos.ParseMove(s)
			if err != nil {
				if e := engine.CheckInputError(s, err); e != nil {
					t.Fatal(e)
				}
				continue
			}
			if _, err := pos.Play(m); err != nil {
				t.Fatalf("%q parsed to %s which does not play: %v", s, pos.FormatMove(m), err)
			}
		}
	})
}
