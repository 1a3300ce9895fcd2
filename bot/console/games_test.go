package console

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
)

// cfen builds a Camelot position from pieces like "F14=M" (rank lists per
// §5: 2, 8, 10, then 12 squares, ..., 10, 8, 2).
func cfen(t *testing.T, side string, pieces ...string) string {
	t.Helper()
	widths := []int{2, 8, 10, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 10, 8, 2} // ranks 16..1
	rows := make([][]byte, 16)
	for i, w := range widths {
		rows[i] = []byte(strings.Repeat(".", w))
	}
	for _, p := range pieces {
		sq, pc, _ := strings.Cut(p, "=")
		file := int(sq[0] - 'A')
		rank := 0
		for _, c := range sq[1:] {
			rank = rank*10 + int(c-'0')
		}
		row := 16 - rank
		first := (12 - widths[row]) / 2 // the first file the rank holds
		rows[row][file-first] = pc[0]
	}
	var parts []string
	for _, r := range rows {
		parts = append(parts, string(r))
	}
	return strings.Join(parts, "/") + " " + side + " 00 1"
}

// script plays the given moves (both sides, in order) and fails at the
// first one the bot does not play.
func (s *session) script(moves ...string) string {
	s.t.Helper()
	var all strings.Builder
	for _, m := range moves {
		out := s.run(m)
		all.WriteString(out)
		if !strings.Contains(out, "played "+m) {
			s.t.Fatalf("move %q not played:\n%s", m, out)
		}
	}
	return all.String()
}

// Camelot, won by occupying both squares of the enemy castle. Black's two
// Men are far away and only shuffle.
func TestConsoleCamelotCastleWin(t *testing.T) {
	s := newSession(t)
	start := cfen(t, "w", "F14=M", "G14=M", "A5=m", "A6=m")
	if err := s.c.HotSeat(s.ctx, "camelot", start, "untimed"); err != nil {
		t.Fatal(err)
	}
	if out := s.out.String(); !strings.Contains(out, "Castle moves left: White 2, Black 2.") {
		t.Fatalf("start board:\n%s", out)
	}
	out := s.script("F14-F15", "A5-B5", "G14-G15", "B5-A5", "F15-F16", "A5-B5", "G15-G16")
	if !strings.Contains(out, "White (white) wins — two pieces in the enemy castle") {
		t.Fatalf("no castle win:\n%s", out)
	}
	if n := s.checkPNGs(out); n != 7 {
		t.Fatalf("%d boards for 7 moves", n)
	}
	hist := s.run("white: /history")
	if !strings.Contains(hist, "G15-G16") || !strings.Contains(hist, "1-0") {
		t.Fatalf("history:\n%s", hist)
	}
}

// Camelot, won by capturing the last enemy piece while keeping two: the
// bot first tells White it must capture.
func TestConsoleCamelotAllCaptured(t *testing.T) {
	s := newSession(t)
	start := cfen(t, "b", "E6=M", "A4=M", "E8=m")
	if err := s.c.HotSeat(s.ctx, "camelot", start, "untimed"); err != nil {
		t.Fatal(err)
	}
	out := s.script("E8-E7")
	if !strings.Contains(out, "MUST CAPTURE: white must jump") {
		t.Fatalf("no compulsory capture announced:\n%s", out)
	}
	// A plain move is refused with the captures it must make instead.
	if out := s.run("A4-A5"); !strings.Contains(out, "E6xE8") {
		t.Fatalf("refusal without the capture:\n%s", out)
	}
	out = s.script("E6xE8")
	if !strings.Contains(out, "White (white) wins — all pieces captured") {
		t.Fatalf("no win by capture:\n%s", out)
	}
	s.checkPNGs(out)
	pos, _ := camelot.Rules.Decode(start)
	if pos.Status().Over() {
		t.Fatal("the test position is already over")
	}
}

// Gungi from the real draft: Black places its Marshal in the corner, both
// declare ready, White builds two towers topped by tier-3 Archers (Ring-3,
// leaping) and mates while Black only drops far away.
func TestConsoleGungiDraftToCheckmate(t *testing.T) {
	s := newSession(t)
	if err := s.c.HotSeat(s.ctx, "gungi", "draft", "untimed"); err != nil {
		t.Fatal(err)
	}
	if out := s.out.String(); !strings.Contains(out, "Draft: Black places a piece.") {
		t.Fatalf("draft start:\n%s", out)
	}
	// The draft's rules are enforced: the first placement is the Marshal.
	if out := s.run("G*d8"); !strings.Contains(out, "Marshal") || strings.Contains(out, "played") {
		t.Fatalf("a first placement other than the Marshal was not refused:\n%s", out)
	}
	out := s.script(
		"M*a9", "M*e1", "ready", "ready", // the draft
		"G*c5", "N*i9", "G*c5", "N*h9", "Y*c5", "C*i8",
		"G*d6", "C*h8", "L*d6", "F*i7", "Y*d6",
	)
	if !strings.Contains(out, "CHECK: ") || !strings.Contains(out, "White (white) wins — by checkmate") {
		t.Fatalf("no checkmate:\n%s", out)
	}
	s.checkPNGs(out)
	// The engine agrees, replaying the record from the empty board.
	start, _ := gungi.Rules.Start("draft")
	gm, err := engine.Replay(start, []string{"M*a9", "M*e1", "ready", "ready", "G*c5", "N*i9", "G*c5", "N*h9", "Y*c5", "C*i8", "G*d6", "C*h8", "L*d6", "F*i7", "Y*d6"})
	if err != nil {
		t.Fatal(err)
	}
	if o := gm.Outcome(); o.Reason != gungi.ReasonCheckmate || o.Result != engine.WhiteWins {
		t.Fatalf("engine outcome %+v", o)
	}
}
