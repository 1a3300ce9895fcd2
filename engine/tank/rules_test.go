package tank

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// Hand-built positions, one rule each, asserting exact move sets or exact
// outcomes. Boards are 8×8 unless said otherwise; squares in comments are
// as in the rules (a1 = White's left corner).

// fileB is a wall of obstacles on file b, so a piece on file a can only go
// straight along it.
var fileB = []string{"b1=#", "b2=#", "b3=#", "b4=#", "b5=#", "b6=#", "b7=#", "b8=#"}

func turnDist(a, b Dir) int {
	d := int((a - b) & 7)
	return min(d, 8-d)
}

// TestSpeedLimits drives each piece type up the a-file corridor from a1
// facing N: it reaches a(1+k) facing f exactly when k forward steps plus
// the turns from N to f fit in its speed.
func TestSpeedLimits(t *testing.T) {
	for _, k := range Kinds {
		st := k.Stats()
		p := mustParse(t, build(8, "w", append([]string{"a1=" + string(st.Code) + "n"}, fileB...)...))
		var want []string
		for fwd := 0; fwd < 8; fwd++ {
			for d := Dir(0); d < 8; d++ {
				if fwd+turnDist(d, N) <= st.Speed && !(fwd == 0 && d == N) {
					want = append(want, fmt.Sprintf("A1 > A%d%s", fwd+1, d))
				}
			}
		}
		sameSet(t, st.Short, notations(p), want)
	}
}

func TestHeavyTankCorridorByHand(t *testing.T) {
	p := mustParse(t, build(8, "w", append([]string{"a1=Hn"}, fileB...)...))
	sameSet(t, "HT", notations(p), []string{
		"A1 > A1NW", "A1 > A1W", "A1 > A1SW", "A1 > A1NE", "A1 > A1E", "A1 > A1SE",
		"A1 > A2N", "A1 > A2NW", "A1 > A2NE", "A1 > A2W", "A1 > A2E",
		"A1 > A3N", "A1 > A3NW", "A1 > A3NE",
		"A1 > A4N",
	})
}

// TestTurnsAndReverse: a boxed HT (speed 3) can only turn (not to S, which
// takes 4 turns) or reverse one square, keeping its facing; the reverse
// cannot be combined with turns or a second step, and the start pose is
// not a move.
func TestTurnsAndReverse(t *testing.T) {
	p := mustParse(t, build(8, "w", "c3=Hn", "b2=#", "b3=#", "b4=#", "c4=#", "d4=#", "d3=#", "d2=#", "b1=#", "d1=#"))
	sameSet(t, "boxed HT", notations(p), []string{
		"C3 > C3NE", "C3 > C3E", "C3 > C3SE", "C3 > C3NW", "C3 > C3W", "C3 > C3SW", "C3 > C2N",
	})
	if _, err := p.ParseTankMove("C3 > C3N"); errCode(err) != CodeSamePose {
		t.Errorf("no-op move: got %v, want %s", err, CodeSamePose)
	}
	if _, err := p.ParseTankMove("C3 > C1N"); errCode(err) != CodeOutOfReach {
		t.Errorf("double reverse: got %v, want %s", err, CodeOutOfReach)
	}
	// A diagonal reverse keeps the diagonal facing.
	q := mustParse(t, build(8, "w", "d4=Hne"))
	if !hasMove(q, "D4 > C3NE") {
		t.Error("diagonal reverse D4 > C3NE missing")
	}
	// Reverse into a blocked square is refused.
	r := mustParse(t, build(8, "w", "d4=Hn", "d3=#"))
	if hasMove(r, "D4 > D3N") {
		t.Error("reverse onto an obstacle allowed")
	}
}

// TestLeftRightNoOp: turning left then right is no move, but it may be part
// of a longer drive that changes the pose.
func TestLeftRightNoOp(t *testing.T) {
	p := mustParse(t, build(8, "w", "d4=Ln"))
	for _, m := range p.Moves() {
		if m.From == m.To && m.Facing == N && !m.Escape {
			t.Errorf("start pose offered as a move: %s", m)
		}
	}
}

// TestMovementBlocked: obstacles, wrecks, own and enemy pieces all stop a
// drive.
func TestMovementBlocked(t *testing.T) {
	for _, blocker := range []string{"#", "xls", "Ln", "ls"} {
		p := mustParse(t, build(8, "w", append([]string{"a1=Ln", "a4=" + blocker}, fileB...)...))
		if !hasMove(p, "A1 > A3N") || hasMove(p, "A1 > A4N") || hasMove(p, "A1 > A5N") {
			t.Errorf("blocker %s on a4: moves %v", blocker, movesFrom(p, "A1"))
		}
	}
}

// TestDiagonalPastCorners: a diagonal step needs only its destination free.
func TestDiagonalPastCorners(t *testing.T) {
	p := mustParse(t, build(8, "w", "b2=Lne", "b3=#", "c2=#"))
	for _, m := range []string{"B2 > C3NE", "B2 > D4NE"} {
		if !hasMove(p, m) {
			t.Errorf("%s missing", m)
		}
	}
	// And diagonal fire past blocked corners: c3 is the empty square
	// between b2 and d4.
	q := mustParse(t, build(8, "w", "b2=Ln", "b3=#", "c2=#", "d4=lne"))
	if !hasMove(q, "B2 > B2NE (D4)") {
		t.Errorf("diagonal shot past corners missing: %v", movesFrom(q, "B2"))
	}
}

// TestShotDirections fires at a target on e5 from each of the 8 directions
// (shooter two squares away, turning left so the shot leaves on its right
// ray) and checks which armour counts.
func TestShotDirections(t *testing.T) {
	cases := []struct {
		shooter, target string // TFEN tokens
		kills           string // directions of travel that destroy
	}{
		{"L", "mn", "N"},                    // gun 1 vs MT 2/1/0: only the rear
		{"M", "mn", "N NE E SE SW W NW"},    // gun 2 vs MT: all but the front
		{"M", "hn", "N"},                    // gun 2 vs HT 3/2/1: only the rear
		{"H", "hn", "N NE E SE SW W NW"},    // gun 3 vs HT: all but the front
		{"L", "mne", "NE"},                  // diagonal facing: rear is NE
		{"M", "hsw", "SW"},                  // HT facing SW: rear shot travels SW
		{"H", "msw", "N NE E SE S SW W NW"}, // gun 3 beats MT everywhere
		{"L", "ls", "NE E SE S SW W NW"},    // gun 1 vs LT facing S: all but the front (N-travelling shots)
	}
	target := Square{4, 4}
	for _, c := range cases {
		for d := Dir(0); d < 8; d++ {
			df, dr := d.Delta()
			from := Square{target.File - 2*df, target.Rank - 2*dr}
			p := mustParse(t, build(8, "w", lowerSquare(from)+"="+c.shooter+facingNames[d], "e5="+c.target))
			mv := fmt.Sprintf("%s > %s%s (E5)", squareName(from), squareName(from), d.Left())
			want := strings.Contains(" "+c.kills+" ", " "+d.String()+" ")
			if got := hasMove(p, mv); got != want {
				t.Errorf("%s vs %s, shot travelling %s: legal=%v, want %v", c.shooter, c.target, d, got, want)
			}
			if !want {
				_, err := p.ParseTankMove(mv)
				if errCode(err) != CodeWeakShot {
					t.Errorf("%s: got %v, want %s", mv, err, CodeWeakShot)
				}
			}
		}
	}
	// The message names guns and armour as the rules' example does.
	p := mustParse(t, build(8, "w", "e7=Ms", "e5=hn"))
	_, err := p.ParseTankMove("E7 > E7SE (E5)")
	if err == nil || !strings.HasPrefix(err.Error(), "MT gun 2 does not beat HT front armour 3") {
		t.Errorf("weak shot message: %v", err)
	}
}

// TestAdjacentRefused: an adjacent enemy cannot be fired at, but the square
// the shooter left is empty for its own shot, so a reverse step makes room.
func TestAdjacentRefused(t *testing.T) {
	p := mustParse(t, build(8, "w", "d4=Ln", "d5=ln"))
	if hasMove(p, "D4 > D4NE (D5)") {
		t.Error("adjacent target offered")
	}
	if _, err := p.ParseTankMove("D4 > D4NE (D5)"); errCode(err) != CodeAdjacent {
		t.Errorf("got %v, want %s", err, CodeAdjacent)
	}
	if !hasMove(p, "D4 > D3N (D5)") {
		t.Errorf("shot over the vacated square missing: %v", movesFrom(p, "D4"))
	}
}

// TestFireBlocked: obstacles, wrecks, own pieces and a nearer enemy block a
// direct shot.
func TestFireBlocked(t *testing.T) {
	open := mustParse(t, build(8, "w", "d2=Ln", "d6=mn"))
	if !hasMove(open, "D2 > D2NE (D6)") {
		t.Fatalf("control: open line missing: %v", movesFrom(open, "D2"))
	}
	for _, blocker := range []string{"#", "xMn", "xmn", "Cn", "ls"} {
		p := mustParse(t, build(8, "w", "d2=Ln", "d6=mn", "d4="+blocker))
		if hasMove(p, "D2 > D2NE (D6)") {
			t.Errorf("blocker %s: shot through it allowed", blocker)
		}
		_, err := p.ParseTankMove("D2 > D2NE (D6)")
		if errCode(err) != CodeBlocked || !strings.Contains(err.Error(), "D4") {
			t.Errorf("blocker %s: got %v, want %s naming D4", blocker, err, CodeBlocked)
		}
	}
}

// TestTankDestroyerForwardOnly: a TD fires along its facing only; a
// turreted tank also 45° to either side.
func TestTankDestroyerForwardOnly(t *testing.T) {
	p := mustParse(t, build(8, "w", "d2=Dn", "d7=ln"))
	var targets []string
	for _, m := range p.Moves() {
		if m.HasTarget {
			targets = append(targets, m.String())
		}
	}
	sameSet(t, "TD shots", targets, []string{"D2 > D3N (D7)", "D2 > D4N (D7)", "D2 > D5N (D7)", "D2 > D1N (D7)"})
	if _, err := p.ParseTankMove("D2 > D2NE (D7)"); errCode(err) != CodeOutOfArc {
		t.Errorf("TD off-axis: got %v, want %s", err, CodeOutOfArc)
	}
	q := mustParse(t, build(8, "w", "d2=Ln", "d7=ln"))
	if !hasMove(q, "D2 > D2NE (D7)") || !hasMove(q, "D2 > D2NW (D7)") {
		t.Errorf("turret side rays missing: %v", movesFrom(q, "D2"))
	}
	if hasMove(q, "D2 > D2E (D7)") {
		t.Error("turret fires 90° to the side")
	}
}

// TestMortarRange: exactly 3, 4 or 5 squares ahead, over anything.
func TestMortarRange(t *testing.T) {
	p := mustParse(t, build(8, "w", "d1=Rnw", "d2=#", "d3=ls", "d4=ls", "d5=xLs", "d6=hn", "d7=ls", "d8=cs", "e2=#", "c2=#"))
	var targets []string
	for _, m := range p.Moves() {
		if m.HasTarget && m.To == (Square{3, 0}) && m.Facing == N {
			targets = append(targets, squareName(m.Target))
		}
	}
	sameSet(t, "mortar targets from D1 facing N", targets, []string{"D4", "D6"})
	for mv, code := range map[string]string{
		"D1 > D1N (D3)": CodeMortarRange, // 2 squares
		"D1 > D1N (D7)": CodeMortarRange, // 6 squares
		"D1 > D1N (D5)": CodeWreckTarget,
		"D1 > D1N (D2)": CodeNoTarget,
	} {
		if _, err := p.ParseTankMove(mv); errCode(err) != code {
			t.Errorf("%s: got %v, want %s", mv, err, code)
		}
	}
}

func TestEscapes(t *testing.T) {
	cases := []struct {
		name   string
		tfen   string
		escape bool
		exits  []Line // off-board squares reached, when escape
	}{
		{"forward on the 5th step", build(8, "w", "a4=Cn", "h1=cs"), true, []Line{{From: Square{0, 3}, To: Square{0, 8}}}},
		{"back rank on the last step", build(8, "w", "a3=Cn", "h1=cs"), false, nil},
		{"diagonal from a non-corner square", build(8, "w", "c4=Cne", "a1=cs"), true, []Line{{From: Square{2, 3}, To: Square{7, 8}}}},
		{"refused through the corner", build(8, "w", "d4=Cne", "a1=cs"), false, nil},
		{"refused across a side edge", build(8, "w", "e4=Ce", "a1=cs"), false, nil},
		{"refused across the own edge", build(8, "w", "c1=Cs", "h8=cs"), false, nil},
		{"black crosses rank 1", build(8, "b", "d5=cs", "h8=Cn"), true, []Line{{From: Square{3, 4}, To: Square{3, -1}}}},
		{"black refused across its own edge", build(8, "b", "d8=cn", "a1=Cn"), false, nil},
	}
	for _, c := range cases {
		p := mustParse(t, c.tfen)
		var esc []string
		for _, m := range notations(p) {
			if strings.HasSuffix(m, "> OFF") {
				esc = append(esc, m)
			}
		}
		if (len(esc) == 1) != c.escape || len(esc) > 1 {
			t.Errorf("%s: escape moves %v, want escape=%v", c.name, esc, c.escape)
		}
		// Announce looks from the other side's turn: flip it.
		flipped := mustParse(t, strings.Replace(c.tfen, map[bool]string{true: " w ", false: " b "}[p.Turn() == engine.White], map[bool]string{true: " b ", false: " w "}[p.Turn() == engine.White], 1))
		a := flipped.Announce()
		if a.Escape != c.escape || len(a.Escapes) != len(c.exits) {
			t.Errorf("%s: announce %+v, want exits %v", c.name, a, c.exits)
			continue
		}
		for i := range c.exits {
			if a.Escapes[i] != c.exits[i] {
				t.Errorf("%s: exit %v, want %v", c.name, a.Escapes[i], c.exits[i])
			}
		}
	}
	// Only the CLT escapes; an LT on the far rank facing off it may not.
	p := mustParse(t, build(8, "w", "a8=Ln", "h1=cs"))
	if _, err := p.ParseTankMove("A8 > OFF"); errCode(err) != CodeOnlyCLT {
		t.Errorf("LT escape: got %v, want %s", err, CodeOnlyCLT)
	}
	q := mustParse(t, build(8, "w", "a3=Cn", "h1=cs"))
	if _, err := q.ParseTankMove("A3 > OFF"); errCode(err) != CodeNoEscape {
		t.Errorf("out of reach: got %v, want %s", err, CodeNoEscape)
	}
	// The reverse step never leaves the board. On the far rank a CLT can
	// always turn and step off within its speed, so the rule cannot change
	// whether an escape exists there; here a boxed CLT on its own back rank
	// facing N, whose reverse would cross its own edge, has no escape.
	r := mustParse(t, build(8, "w", "c1=Cn", "b1=#", "b2=#", "c2=#", "d2=#", "d1=#", "h8=cs"))
	for _, m := range notations(r) {
		if strings.HasPrefix(m, "C1 > OFF") {
			t.Errorf("escape offered off the own edge: %s", m)
		}
	}
}

// TestEscapeEndsTheGame plays an escape: the escaper wins, the CLT is gone,
// the TFEN says so and reads back.
func TestEscapeEndsTheGame(t *testing.T) {
	p := mustParse(t, build(8, "w", "a4=Cn", "h1=cs"))
	m, err := p.ParseTankMove("a4 off")
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.PlayMove(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Status(); got != engine.Win(engine.White, ReasonEscape) {
		t.Errorf("status %+v", got)
	}
	if !strings.HasSuffix(q.Encode(), " b 1 escaped") {
		t.Errorf("encode %q", q.Encode())
	}
	r := mustParse(t, q.Encode())
	if r.Encode() != q.Encode() || r.Status() != q.Status() || len(r.Moves()) != 0 || r.Perft(1) != 0 {
		t.Errorf("escaped position does not read back as finished")
	}
	if q.At(Square{0, 3}).Piece.Kind != None {
		t.Error("escaped CLT still on the board")
	}
	if len(q.Announcements()) != 0 {
		t.Error("finished game announces")
	}
}

func TestAnnouncements(t *testing.T) {
	lt := "d4=Ln"                                           // white LT that can shoot the black CLT's rear on d8
	bclt := "d8=cn"                                         // black CLT facing N: rear towards White
	boxed := []string{"h8=cs", "g8=#", "g7=#", "h7=#"}      // a black CLT nobody can hit
	whiteBoxed := []string{"h1=Cs", "g1=#", "g2=#", "h2=#"} // a white CLT that cannot shoot
	cases := []struct {
		name          string
		items         []string
		check, escape bool
	}{
		{"check alone", []string{lt, bclt, "h1=Cs"}, true, false},
		{"escape alone", append([]string{"a5=Cn"}, boxed...), false, true},
		{"both", []string{lt, bclt, "a5=Cn"}, true, true},
		{"neither", append([]string{"a1=Cn"}, boxed...), false, false},
		// The TD on d1 aims at the CLT on d3 but must change its pose
		// first: forward makes it adjacent, turning loses the line and
		// there is no reverse off the board. No CHECK.
		{"aiming is not check", append([]string{"d1=Dn", "d3=cs"}, whiteBoxed...), false, false},
	}
	for _, c := range cases {
		p := mustParse(t, build(8, "b", c.items...))
		a := p.Announce()
		if a.Check != c.check || a.Escape != c.escape {
			t.Errorf("%s: check=%v escape=%v, want %v %v", c.name, a.Check, a.Escape, c.check, c.escape)
		}
		as := p.Announcements()
		var kinds []string
		for _, x := range as {
			kinds = append(kinds, x.Kind)
			if x.Side != engine.White || len(x.Lines) == 0 {
				t.Errorf("%s: announcement %+v", c.name, x)
			}
		}
		want := []string{}
		if c.check {
			want = append(want, engine.AnnounceCheck)
		}
		if c.escape {
			want = append(want, engine.AnnounceEscape)
		}
		if strings.Join(kinds, ",") != strings.Join(want, ",") {
			t.Errorf("%s: kinds %v, want %v", c.name, kinds, want)
		}
		if a.Suffix() != map[[2]bool]string{{false, false}: "", {true, false}: "+", {false, true}: "-", {true, true}: "+-"}[[2]bool{c.check, c.escape}] {
			t.Errorf("%s: suffix %q", c.name, a.Suffix())
		}
	}
	// Threat lines run from the square the shot is fired from to the CLT.
	p := mustParse(t, build(8, "b", lt, bclt, "h1=Cs"))
	a := p.Announce()
	found := map[Square]bool{}
	for _, l := range a.Threats {
		if l.To != (Square{3, 7}) || l.Indirect {
			t.Errorf("threat line %+v", l)
		}
		found[l.From] = true
	}
	for _, s := range []Square{{3, 3}, {3, 4}, {3, 5}, {3, 2}} { // d4 (turn), d5, d6 (drive), d3 (reverse)
		if !found[s] {
			t.Errorf("threat from %s missing in %+v", squareName(s), a.Threats)
		}
	}
	if got := p.Announcements()[0].Lines[0]; got[1] != "d8" {
		t.Errorf("line %v, want lower-case squares ending on d8", got)
	}
	// A mortar's threat is indirect.
	m := mustParse(t, build(8, "b", append([]string{"d1=Rnw", "d2=#", "d3=#", "d5=cs"}, whiteBoxed...)...))
	ma := m.Announce()
	if !ma.Check || !ma.Threats[0].Indirect {
		t.Errorf("mortar threat %+v", ma)
	}
}

func TestOutcomes(t *testing.T) {
	// Destroying the CLT ends the game.
	p := mustParse(t, build(8, "w", "d2=Ln", "d6=cn", "a1=Cn"))
	m, err := p.ParseTankMove("d2 d2ne xd6")
	if err != nil {
		t.Fatal(err)
	}
	before := p.Encode()
	next, err := p.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	if p.Encode() != before {
		t.Error("Play changed the receiver")
	}
	q := next.(*Position)
	if q.Status() != engine.Win(engine.White, ReasonCLTDestroyed) || len(q.LegalMoves()) != 0 || q.Perft(2) != 0 {
		t.Errorf("after destroying the CLT: %+v", q.Status())
	}
	if c := q.At(Square{3, 5}); !c.Piece.Wreck || c.Piece.Kind != CLT || c.Piece.Facing != N {
		t.Errorf("wreck %+v", c)
	}
	if _, err := q.Play(m); errCode(err) != CodeGameOver {
		t.Errorf("play after the end: %v", err)
	}
	// A TFEN holding a wrecked CLT is finished.
	w := mustParse(t, build(8, "b", "a1=xCn", "h8=cs"))
	if w.Status() != engine.Win(engine.Black, ReasonCLTDestroyed) {
		t.Errorf("wrecked white CLT: %+v", w.Status())
	}
	// A side with no active piece has no move and loses (custom armies).
	n := mustParse(t, build(8, "w", "a1=xLn", "h8=ls"))
	if n.Status() != engine.Win(engine.Black, engine.ReasonNoMoves) || len(n.Moves()) != 0 {
		t.Errorf("no pieces: %+v", n.Status())
	}
	// Illegal moves are refused with a rules error.
	if _, err := p.Play(Move{From: Square{3, 1}, To: Square{3, 7}, Facing: N}); errCode(err) != CodeOutOfReach {
		t.Errorf("illegal play: %v", err)
	}
	// The move number grows after Black's move.
	b := mustParse(t, build(8, "b", "a8=cs", "h1=Cn"))
	bm, _ := b.ParseTankMove("a8 a8se")
	nb, _ := b.PlayMove(bm)
	if nb.MoveNumber() != 2 || nb.Turn() != engine.White {
		t.Errorf("after black: move %d turn %v", nb.MoveNumber(), nb.Turn())
	}
}
