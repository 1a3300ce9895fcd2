package camelot

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// movesFrom lists the legal moves starting on sq, sorted.
func movesFrom(p *Position, sq string) []string {
	var out []string
	for _, m := range moveList(p) {
		if strings.HasPrefix(m, sq) && !isDigit(m[len(sq)]) {
			out = append(out, m)
		}
	}
	return out
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func wantMoves(t *testing.T, got []string, want ...string) {
	t.Helper()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("moves = %v\nwant    %v", got, want)
	}
}

func TestCanterNeverEndsOnStart(t *testing.T) {
	p := build(t, "w", "00", "MD4 MD5 mA13 mB13")
	wantMoves(t, movesFrom(p, "D4"), "D4-C3", "D4-C4", "D4-C5", "D4-D3", "D4-E3", "D4-E4", "D4-E5", "D4^D6")
}

func TestCanterRoutesWithOneResultAreOneMove(t *testing.T) {
	// Pivots around a ring: D4 can reach F6 through D6 or through F4; the
	// chain may not come back to D4.
	p := build(t, "w", "00", "MD4 MD5 ME6 MF5 ME4 mA13 mB13")
	var canters []string
	for _, m := range movesFrom(p, "D4") {
		if strings.Contains(m, "^") {
			canters = append(canters, m)
		}
	}
	wantMoves(t, canters, "D4^D6", "D4^F4", "D4^F4^F6")
	// The other route is accepted and names the same move.
	m1, err := p.ParseMove("d4^d6^f6")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.FormatMove(m1); got != "D4^F4^F6" {
		t.Errorf("other route parsed to %s", got)
	}
}

func TestManMayStopAfterCanteringNextToEnemy(t *testing.T) {
	p := build(t, "w", "00", "MD4 MD5 mE7 mA13")
	ms := moveList(p)
	if !has(ms, "D4^D6") || !has(ms, "D4-C4") {
		t.Errorf("a Man may canter next to an enemy and stop; moves %v", ms)
	}
	if slices.ContainsFunc(ms, func(s string) bool { return strings.Contains(s, "x") }) {
		t.Errorf("a Man never combines canters and jumps: %v", ms)
	}
}

func TestKnightClauseAndCharge(t *testing.T) {
	p := build(t, "w", "00", "KD4 MD5 mE7 mA13")
	ms := moveList(p)
	if has(ms, "D4^D6") {
		t.Error("a Knight that canters next to a jumpable enemy must capture")
	}
	if !has(ms, "D4^D6xF8") {
		t.Errorf("charge missing: %v", ms)
	}
	// A capture reachable only by a charge does not make capturing compulsory.
	if !has(ms, "D4-C4") || !has(ms, "D5-D6") {
		t.Errorf("plain moves must stay legal: %v", ms)
	}
	if ann := p.Announcements(); len(ann) != 0 {
		t.Errorf("no duty expected, got %v", ann)
	}
	_, err := p.ParseMove("D4^D6")
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != codeKnightClause || !strings.Contains(e.Msg, "D4^D6xF8") {
		t.Errorf("want the Knight's clause error naming D4^D6xF8, got %v", err)
	}
}

func TestKnightClauseAnotherRoute(t *testing.T) {
	// F6 can be reached via D6 (next to E7, jumpable) or via F4 (safe): the
	// canter to F6 is legal by the safe route, which is its notation.
	p := build(t, "w", "00", "KD4 MD5 ME6 MF5 ME4 mC7 mA13")
	ms := moveList(p)
	if has(ms, "D4^D6") {
		t.Errorf("D6 is next to a jumpable enemy: %v", ms)
	}
	if !has(ms, "D4^F4^F6") {
		t.Errorf("safe route missing: %v", ms)
	}
}

func TestCompulsoryCaptureWithChoice(t *testing.T) {
	p := build(t, "w", "00", "ME5 MH5 KA4 mE6 mH6 mA13")
	wantMoves(t, moveList(p), "E5xE7", "H5xH7")
	ann := p.Announcements()
	if len(ann) != 1 || ann[0].Kind != engine.AnnounceMustCapture || ann[0].Side != engine.White {
		t.Errorf("announcements = %v", ann)
	}
	_, err := p.ParseMove("A4-A5")
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != codeMustCapture || e.Msg != "you must capture: E5xE7 or H5xH7" {
		t.Errorf("got %v", err)
	}
}

func TestChargeIsAmongCompulsoryCaptures(t *testing.T) {
	// E5 must capture; the Knight's charge is a capture and so a choice too.
	p := build(t, "w", "00", "ME5 KD4 MD5 mE6 mC7 mA13")
	ms := moveList(p)
	if !has(ms, "E5xE7") || !has(ms, "D4^D6xB8") {
		t.Errorf("moves %v", ms)
	}
	for _, m := range p.legal() {
		if !m.IsCapture() {
			t.Errorf("non-capture %s while capture is compulsory", m)
		}
	}
}

func TestJumpChainMustContinue(t *testing.T) {
	p := build(t, "w", "00", "ME5 MA4 mE6 mE8 mA13")
	wantMoves(t, moveList(p), "E5xE7xE9")
	_, err := p.ParseMove("E5xE7")
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != codeMustContinue {
		t.Errorf("want must-continue, got %v", err)
	}
	m, err := p.ParseMove("e5xe9")
	if err != nil || p.FormatMove(m) != "E5xE7xE9" {
		t.Errorf("short form: %v %v", m, err)
	}
}

func TestJumpChainRevisitsSquare(t *testing.T) {
	p := build(t, "w", "00", "MD4 MA4 mD5 mE6 mF7 mE8 mD7 mC6 mL13")
	found := false
	for _, m := range p.legal() {
		if m.from != sqOf(t, "D4") || len(m.Captured()) != 6 {
			continue
		}
		found = true
		seen := map[uint8]bool{}
		dup := false
		for _, l := range m.path {
			dup = dup || seen[l]
			seen[l] = true
		}
		if !dup {
			t.Errorf("%s captures all six without passing a square twice?", m)
		}
	}
	if !found {
		t.Fatalf("no six-capture chain: %v", moveList(p))
	}
	m, err := p.ParseMove("D4xD6xF6xF8xD8xD6xB6")
	if err != nil {
		t.Fatal(err)
	}
	if r := m.(Move).Route(); len(r) != 6 || r[5] != "B6" {
		t.Errorf("route %v", r)
	}
}

func sqOf(t testing.TB, s string) uint8 {
	sq, _, ok := parseSquare(s)
	if !ok || sq == noSq {
		t.Fatalf("bad square %s", s)
	}
	return uint8(sq)
}

func TestOwnCastleNoPlainOrCanterEntry(t *testing.T) {
	p := build(t, "w", "00", "MF2 MF3 MG3 mA13 mB13")
	for _, m := range moveList(p) {
		if strings.HasSuffix(m, "F1") || strings.HasSuffix(m, "G1") {
			t.Errorf("entered own castle without a jump: %s", m)
		}
	}
	for _, in := range []string{"F2-F1", "F2-G1", "F3^F1"} {
		_, err := p.ParseMove(in)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != codeOwnCastle {
			t.Errorf("ParseMove(%s) = %v, want own-castle", in, err)
		}
	}
}

func TestOwnCastleEnterByJumpAndLeave(t *testing.T) {
	p := build(t, "w", "00", "MF3 MA10 mF2 mA12 mB13")
	wantMoves(t, moveList(p), "F3xF1")
	p = mustPlay(t, p, "F3xF1")
	p = mustPlay(t, p, "B13-B14")
	// White's piece must leave F1; it cannot jump, so any move out will do,
	// and this outranks nothing else being compulsory here.
	wantMoves(t, moveList(p), "F1-E2", "F1-F2", "F1-G2")
	ann := p.Announcements()
	if len(ann) != 1 || ann[0].Kind != engine.AnnounceMustLeave {
		t.Errorf("announcements = %v", ann)
	}
	_, err := p.ParseMove("A10-A11")
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != codeMustLeave {
		t.Errorf("want must-leave, got %v", err)
	}
}

func TestMustLeaveOutranksCaptureElsewhere(t *testing.T) {
	p := build(t, "w", "00", "MF1 MA10 mA11 mB13")
	wantMoves(t, moveList(p), "F1-E2", "F1-F2", "F1-G2")
}

func TestMustLeaveByJump(t *testing.T) {
	p := build(t, "w", "00", "MF1 MA10 mF2 mA11 mB13")
	wantMoves(t, moveList(p), "F1xF3")
	kinds := map[string]bool{}
	for _, a := range p.Announcements() {
		kinds[a.Kind] = true
	}
	if !kinds[engine.AnnounceMustLeave] || !kinds[engine.AnnounceMustCapture] {
		t.Errorf("announcements = %v", p.Announcements())
	}
}

func TestJumpContinuesOutOfOwnCastle(t *testing.T) {
	p := build(t, "w", "00", "MH3 MA4 mG2 mE2 mA13")
	ms := moveList(p)
	if !has(ms, "H3xF1xD3") || has(ms, "H3xF1") {
		t.Errorf("must continue out of the castle: %v", ms)
	}
}

func TestEnemyCastleEndsMove(t *testing.T) {
	p := build(t, "w", "00", "MF14 MA4 mF15 mE15 mA13")
	ms := moveList(p)
	if !has(ms, "F14xF16") {
		t.Errorf("moves %v", ms)
	}
	for _, m := range ms {
		if strings.HasPrefix(m, "F14xF16x") {
			t.Errorf("jumped on after entering the enemy castle: %s", m)
		}
	}
	// A canter may enter the enemy castle, and ends there.
	q := build(t, "w", "00", "KF14 MF15 MA4 mA13 mB13")
	if qs := moveList(q); !has(qs, "F14^F16") {
		t.Errorf("moves %v", qs)
	}
	// A Knight may canter into the castle even though, were it not the
	// castle, it could jump E15 from there: no jump is possible from it.
	k := build(t, "w", "00", "KF14 MF15 MD15 mE15 MA4 mA13")
	if ks := moveList(k); !has(ks, "F14^F16") {
		t.Errorf("Knight's canter into the enemy castle refused: %v", ks)
	}
}

func TestCastleMoves(t *testing.T) {
	p := build(t, "w", "00", "MF16 MA4 mA13 mB13")
	wantMoves(t, movesFrom(p, "F16"), "F16-G16")
	if f := p.Facts(); len(f) != 1 || f[0].Key != "camelot.castle-moves-left" || !slices.Equal(f[0].Args, []string{"2", "2"}) {
		t.Errorf("facts = %v", f)
	}
	p = mustPlay(t, p, "F16-G16")
	p = mustPlay(t, p, "A13-A12")
	if p.CastleMovesUsed(engine.White) != 1 || p.Facts()[0].Args[0] != "1" {
		t.Errorf("castle moves used = %d", p.CastleMovesUsed(engine.White))
	}
	p = mustPlay(t, p, "G16-F16")
	p = mustPlay(t, p, "A12-A13")
	if got := movesFrom(p, "F16"); len(got) != 0 {
		t.Errorf("third castle move allowed: %v", got)
	}
	_, err := p.ParseMove("F16-G16")
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != codeCastleMoves {
		t.Errorf("want castle-moves-used, got %v", err)
	}
	if _, err := p.ParseMove("F16-F15"); !errors.As(err, &e) || e.Code != codeStuckInCastle {
		t.Errorf("want stuck-in-castle, got %v", err)
	}
}

func TestCastleMoveNotWhileCaptureCompulsory(t *testing.T) {
	p := build(t, "w", "00", "MF16 MA10 mA11 mL13")
	wantMoves(t, moveList(p), "A10xA12")
}

func TestWinByCastle(t *testing.T) {
	p := build(t, "w", "00", "MF16 MG15 mA13 mB13")
	p = mustPlay(t, p, "G15-G16")
	if got := p.Status(); got != engine.Win(engine.White, ReasonCastle) {
		t.Errorf("status = %v", got)
	}
	if len(p.LegalMoves()) != 0 || p.Perft(1) != 0 {
		t.Error("a finished game has no moves")
	}
	b := build(t, "b", "00", "mF1 mG2 MA4 MB4")
	b = mustPlay(t, b, "G2-G1")
	if got := b.Status(); got != engine.Win(engine.Black, ReasonCastle) {
		t.Errorf("status = %v", got)
	}
}

func TestWinAllCaptured(t *testing.T) {
	p := build(t, "w", "00", "ME5 MA4 mE6")
	p = mustPlay(t, p, "E5xE7")
	if got := p.Status(); got != engine.Win(engine.White, ReasonAllCaptured) {
		t.Errorf("status = %v", got)
	}
}

func TestDrawOnePieceEach(t *testing.T) {
	// Capturing down to one against none (or one) is not a win.
	p := build(t, "w", "00", "ME5 mE6 mA13")
	if p.Status().Over() {
		t.Fatal("game should be on")
	}
	p = mustPlay(t, p, "E5xE7")
	if got := p.Status(); got != engine.Drawn(ReasonInsufficient) {
		t.Errorf("status = %v", got)
	}
	q := build(t, "b", "00", "MA4 mL13")
	if got := q.Status(); got != engine.Drawn(ReasonInsufficient) {
		t.Errorf("status = %v", got)
	}
}

func TestNoMovesWin(t *testing.T) {
	// Black's only piece sits in White's castle with both castle moves spent.
	p := build(t, "b", "02", "mF1 MA4 MB4")
	if got := p.Status(); got != engine.Win(engine.White, engine.ReasonNoMoves) {
		t.Errorf("status = %v", got)
	}
}

func TestNoMovesOutcome(t *testing.T) {
	// A stuck side facing one piece draws; facing two or more it loses.
	// (Building such a board needs most of a side's pieces, so the branch
	// is tested directly.)
	if got := noMovesOutcome(engine.White, 1); got != engine.Drawn(engine.ReasonNoMoves) {
		t.Errorf("got %v", got)
	}
	if got := noMovesOutcome(engine.White, 2); got != engine.Win(engine.Black, engine.ReasonNoMoves) {
		t.Errorf("got %v", got)
	}
}

func TestThreefoldRepetition(t *testing.T) {
	g := engine.NewGame(start(t))
	shuffle := []string{"C6-C5", "C11-C12", "C5-C6", "C12-C11"}
	for round := 0; round < 2; round++ {
		for i, s := range shuffle {
			if g.Outcome().Over() {
				t.Fatalf("over too early at round %d move %d", round, i)
			}
			m, err := g.Position().ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := g.Outcome(); got != engine.Drawn(engine.ReasonRepetition) {
		t.Errorf("outcome = %v", got)
	}
}

func TestRepetitionKeyCountsCastleMoves(t *testing.T) {
	a := build(t, "w", "00", "MF16 MA4 mA13 mB13")
	b := build(t, "w", "10", "MF16 MA4 mA13 mB13")
	c := build(t, "b", "00", "MF16 MA4 mA13 mB13")
	if a.RepetitionKey() == b.RepetitionKey() || a.RepetitionKey() == c.RepetitionKey() {
		t.Error("repetition key must include castle moves and side to move")
	}
	d, _ := ParseCFEN(strings.TrimSuffix(a.Encode(), " 1") + " 7")
	if d.RepetitionKey() != a.RepetitionKey() {
		t.Error("repetition key must ignore the move number")
	}
}

func TestKnightClauseWholeRoute(t *testing.T) {
	// The only route from D4 to D10 lands on D6, from where C7 could be
	// jumped: the Knight may not stop on D10 without capturing; a Man may.
	const rest = " MD5 MD7 MD9 MB7 mC7 mA13"
	k := moveList(build(t, "w", "00", "KD4"+rest))
	if has(k, "D4^D6^D8^D10") || !has(k, "D4^D6xB8") || !has(k, "D4-C4") {
		t.Errorf("Knight moves %v", k)
	}
	m := moveList(build(t, "w", "00", "MD4"+rest))
	if !has(m, "D4^D6^D8^D10") || has(m, "D4^D6xB8") {
		t.Errorf("Man moves %v", m)
	}
}
