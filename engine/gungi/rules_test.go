package gungi

import (
	"testing"

	"github.com/tankbot/tankbot/engine"
)

func TestAttackAndStackAreDistinct(t *testing.T) {
	p := game(t, "w", "", "a1=M", "i9=m", "e5=C", "e6=p", "d5=P")
	got := movesFrom(p, "e5")
	for _, w := range []string{"Ce5xe6", "Ce5^e6", "Ce5^d5", "Ce5-e4", "Ce5-f5"} {
		if !has(got, w) {
			t.Errorf("missing %s in %v", w, got)
		}
	}
	if has(got, "Ce5xd5") || has(got, "Ce5-e6") {
		t.Errorf("attack on own piece or move onto occupied square: %v", got)
	}
	// Attack: the victim leaves the game, the attacker takes its tier.
	p = game(t, "w", "", "a1=M", "i9=m", "e5=C", "e6=pp")
	q := parsePlay(t, p, "Ce5xe6")
	if tw := q.Tower(Square(5*9 + 4)); len(tw) != 2 || tw[0] != (Piece{Pawn, engine.Black}) || tw[1] != (Piece{Cannon, engine.White}) {
		t.Errorf("after attack e6 = %v", tw)
	}
	if q.OnBoard(engine.Black) != 2 || q.Hand(engine.Black, Pawn) != 0 {
		t.Errorf("captured piece must leave the game: on board %d", q.OnBoard(engine.Black))
	}
	// Stack: the mover gets its new tier's movement at once.
	q = parsePlay(t, game(t, "w", "", "a1=M", "i9=m", "e5=C", "e6=p"), "Ce5^e6")
	if got := dests(q, "e6"); got != "e4 e5 c6 d6 f6 g6 e7 e8" {
		t.Errorf("cannon stacked to tier 2 reaches %q", got)
	}
	// A tower of any height can be attacked; a tower of 3 not stacked on.
	p = game(t, "w", "", "a1=M", "i9=m", "e5=C", "e6=ppp")
	if got := movesFrom(p, "e5"); !has(got, "Ce5xe6") || has(got, "Ce5^e6") {
		t.Errorf("tower of 3: %v", got)
	}
	refuse(t, p, "Ce5^e6", CodeTowerFull)
}

func TestMarshalAndFortressRestrictions(t *testing.T) {
	// Nothing stacks on a Marshal, of either colour; the Marshal itself may stack.
	p := game(t, "w", "G1", "e4=M", "e5=G", "g6=m", "d5=P")
	if got := movesFrom(p, "e5"); has(got, "Ge5^e4") || !has(got, "Ge5^d5") {
		t.Errorf("general next to its marshal: %v", got)
	}
	refuse(t, p, "Ge5^e4", CodeOntoMarshal)
	refuse(t, p, "G*g6", CodeOntoMarshal)
	if got := movesFrom(p, "e4"); !has(got, "Me4^d5") {
		t.Errorf("marshal cannot stack: %v", got)
	}
	// Fortress: never stacks; attacks only a lone piece.
	p = game(t, "w", "", "a1=M", "i9=m", "e5=F", "e6=pp", "d6=p", "f6=P")
	got := movesFrom(p, "e5")
	if has(got, "Fe5xe6") || has(got, "Fe5^e6") || has(got, "Fe5^f6") || !has(got, "Fe5xd6") {
		t.Errorf("fortress: %v", got)
	}
	refuse(t, p, "Fe5xe6", CodeFortressAttack)
	refuse(t, p, "Fe5^f6", CodeFortressStack)
	// Other pieces may stack onto a Fortress; a Fortress is not dropped on a tower.
	p = game(t, "w", "F1G1", "a1=M", "i9=m", "e5=F", "e4=G")
	if !has(movesFrom(p, "e4"), "Ge4^e5") {
		t.Errorf("general cannot stack on fortress")
	}
	refuse(t, p, "F*e5", CodeFortressStack)
	if !has(notes(p), "G*e5") || !has(notes(p), "F*e6") {
		t.Errorf("drops: %v", notes(p))
	}
	refuse(t, p, "G*a1", CodeOntoMarshal)
}

func TestDropRestrictions(t *testing.T) {
	p := game(t, "w", "P2G1", "a1=M", "i9=m", "e2=GP", "c5=p")
	// Zone: never into the opponent's home ranks; ranks 1-6 for White.
	refuse(t, p, "G*e7", CodeDropZone)
	if !has(notes(p), "G*e6") {
		t.Error("G*e6 missing")
	}
	// Pawn file: a buried pawn counts; an enemy pawn does not.
	refuse(t, p, "P*e5", CodePawnFile)
	if !has(notes(p), "P*c4") {
		t.Error("P*c4 missing")
	}
	// Only unused pieces: no Knight in hand.
	refuse(t, p, "K*d4", CodeNotInHand)
	// A drop may go on a tower of either colour.
	if !has(notes(p), "G*c5") || !has(notes(p), "G*e2") {
		t.Error("drops onto towers missing")
	}
	// 26 pieces on the board: no drops at all.
	// A legal mix: 1 M + 6 G + 4 L + 4 S + 2 Y + 2 K + 2 W + 2 C + 2 N + 1 B = 26
	letters := "MGGGGGGLLLLSSSSYYKKWWCCNNB"
	specs := []string{"i9=m"}
	for i := range 26 {
		specs = append(specs, Square(i).String()+"="+string(letters[i]))
	}
	p = game(t, "w", "P1", specs...)
	refuse(t, p, "P*e5", CodeDropLimit)
	for _, m := range p.legalMoves() {
		if m.Kind == KindDrop {
			t.Fatalf("drop %s allowed with 26 on board", m)
		}
	}
	// Captures bring the count down again.
	p = game(t, "w", "P1", append(specs[:26], "i5=b")...)
	if p.OnBoard(engine.White) != 25 || !has(notes(p), "P*h5") {
		t.Errorf("25 on board: drops expected")
	}
}

func TestPawnDropCheckButNotMate(t *testing.T) {
	// White Marshal a1 boxed by its own full towers on a2 and b1. A Black
	// pawn dropped onto the Black General on b2 stands at tier 2 and
	// attacks a1 (forward is down for Black). The Black Major General on
	// c3 defends b2, so the drop would be mate.
	// Black Marshal on a5 boxed by full Black towers on a6, b6, b5, b4
	// whose tops cannot reach a4; a White Pawn dropped on a4 checks it and
	// the White Knight on b2 defends a4: the drop would be mate.
	box := []string{"a5=m", "a6=ggp", "b6=llp", "b5=ssb", "b4=ggy", "i1=M"}
	p := game(t, "w", "P1", append(box, "b2=K")...)
	refuse(t, p, "P*a4", CodePawnDropMate)
	if has(notes(p), "P*a4") {
		t.Error("P*a4 listed")
	}
	// Without the defender the same drop is check, not mate: allowed.
	p = game(t, "w", "P1", box...)
	q := parsePlay(t, p, "P*a4")
	if !q.InCheck() || q.Status().Over() {
		t.Errorf("pawn drop check: in check %v, status %v", q.InCheck(), q.Status())
	}
	if a := q.Announcements(); len(a) != 1 || a[0].Kind != engine.AnnounceCheck || a[0].Side != engine.White || a[0].Lines[0] != [2]string{"a4", "a5"} {
		t.Errorf("announcements %+v", a)
	}
	// Another piece may give that mate.
	p = game(t, "w", "G1", append(box, "b2=K")...)
	q = parsePlay(t, p, "G*a4")
	if o := q.Status(); o != engine.Win(engine.White, ReasonCheckmate) {
		t.Errorf("general drop mate: %v", o)
	}
}

func TestUncoveringCheck(t *testing.T) {
	// A White General stands on a Black Cannon that would attack e1 once
	// uncovered (tier 1 cannon on e2 attacks e1).
	p := game(t, "w", "", "e1=M", "e2=cG", "i9=m")
	for _, m := range movesFrom(p, "e2") {
		if m[3] != 'x' && m[3] != '^' && m[0] == 'G' {
			t.Errorf("uncovering move %s allowed", m)
		}
	}
	refuse(t, p, "Ge2-e3", CodeSelfCheck)
	// Opening a line: a White piece between a Black tier-3 Cannon and e1.
	p = game(t, "w", "", "e1=M", "e4=S", "e8=ppc", "i9=m")
	refuse(t, p, "Se4-d5", CodeSelfCheck)
	// The Marshal may not step into an attack.
	p = game(t, "w", "", "e1=M", "d3=c", "i9=m")
	refuse(t, p, "Me1-d2", CodeSelfCheck)
	if !has(notes(p), "Me1-f2") {
		t.Errorf("Me1-f2 missing: %v", notes(p))
	}
}

func TestCheckmateAndStalemate(t *testing.T) {
	// White Marshal a1 boxed; Black tier-3 Cannon on a9 checks down the
	// file; no White piece can block or capture and nothing in hand.
	p := game(t, "w", "", "a1=M", "b1=LLC", "b2=GGB", "a4=ppc", "i9=m")
	if !p.InCheck() || len(p.LegalMoves()) != 0 {
		t.Fatalf("want mate: check %v moves %v", p.InCheck(), notes(p))
	}
	if o := p.Status(); o != engine.Win(engine.Black, ReasonCheckmate) {
		t.Errorf("status %v", o)
	}
	refuse(t, p, "Ma1-a2", CodeGameOver)
	// With a piece in hand White can block on a2 or a3.
	p = game(t, "w", "G1", "a1=M", "b1=LLC", "b2=GGB", "a4=ppc", "i9=m")
	if got := notes(p); len(got) != 2 || got[0] != "G*a2" || got[1] != "G*a3" { // not on a4: tower of 3
		t.Errorf("blocks: %v", got)
	}
	// Stalemate: boxed, not attacked, no legal action.
	// The Marshal's three neighbours are attacked by the Cannon on i2 and
	// the Knight on c3; a1 is not.
	p = game(t, "w", "", "a1=M", "i2=ppc", "c3=k", "i9=m")
	if p.InCheck() || p.Status() != engine.Drawn(ReasonStalemate) {
		t.Errorf("stalemate: %v", p.Status())
	}
}

func TestDraft(t *testing.T) {
	p := mustDecode(t, StartGFEN)
	if p.Turn() != engine.Black || !p.InDraft() {
		t.Fatal("Black places first")
	}
	refuse(t, p, "P*e7", CodeMarshalFirst)
	refuse(t, p, "ready", CodeReadyNoMarshal)
	refuse(t, p, "M*e5", CodeDraftZone)
	p = parsePlay(t, p, "M*e9")
	if p.Turn() != engine.White {
		t.Fatal("alternate")
	}
	refuse(t, p, "M*e7", CodeDraftZone)
	p = parsePlay(t, p, "M*e1")
	refuse(t, p, "Me9-e8", CodeDraftOnly)
	refuse(t, p, "P*e9", CodeOntoMarshal)
	p = parsePlay(t, p, "P*e7")
	refuse(t, p, "F*e1", CodeOntoMarshal)
	p = parsePlay(t, p, "ready") // White ready
	if !p.Ready(engine.White) || p.Turn() != engine.Black {
		t.Fatal("after White's ready Black places")
	}
	p = parsePlay(t, p, "P*d7")
	if p.Turn() != engine.Black {
		t.Fatal("Black places alone once White is ready")
	}
	refuse(t, p, "P*d8", CodePawnFile)
	p = parsePlay(t, p, "ready")
	if p.InDraft() || p.Turn() != engine.White {
		t.Fatal("White moves first")
	}
	refuse(t, p, "ready", CodeReadyNotDraft)
	refuse(t, p, "P*e7", CodeDropZone)

	// The draft's check rules: a placement attacking the Marshal of a ready
	// player is refused; one attacking an unready player is allowed and must
	// be answered; ready is refused in check.
	p = mustDecode(t, board("e1=M", "e9=m", "e7=pp")+" b w -/N1")
	refuse(t, p, "N*e7", CodeDraftCheck)
	if has(notes(p), "N*e7") {
		t.Error("N*e7 listed")
	}
	p = mustDecode(t, board("e1=M", "e9=m", "e7=pp")+" b - G6/N1")
	q := parsePlay(t, p, "N*e7")
	if !q.InCheck() || q.Turn() != engine.White {
		t.Fatal("check in the draft")
	}
	refuse(t, q, "ready", CodeSelfCheck)
	for _, n := range notes(q) {
		if f := n[2:]; f != "e2" && f != "e3" {
			t.Errorf("only blocks answer the check, got %s", n)
		}
	}
	// 26 placed: ready is the only move.
	letters := "MGGGGGGLLLLSSSSYYKKWWCCNNB"
	var specs []string
	for i := range 26 {
		specs = append(specs, Square(i).String()+"="+string(letters[i]))
	}
	specs = append(specs, "e9=m")
	p = mustDecode(t, board(specs...)+" w - P9T1F2/G6")
	if got := notes(p); len(got) != 1 || got[0] != "ready" {
		t.Errorf("26 placed: %v", got)
	}
}

func TestCompleteDraft(t *testing.T) {
	p := mustDecode(t, StartGFEN)
	p = parsePlay(t, p, "M*e9")
	p = parsePlay(t, p, "M*e1")
	p = parsePlay(t, p, "N*a7") // conflicts with the formation's a7 pawn: skipped
	q, err := p.CompleteDraft(engine.White, "quick")
	if err != nil {
		t.Fatal(err)
	}
	if !q.Ready(engine.White) || q.Turn() != engine.Black || q.OnBoard(engine.White) != 25 || q.Number() != p.Number()+1 {
		t.Errorf("after completion: %s", q.Encode())
	}
	if _, err := q.CompleteDraft(engine.White, "quick"); err == nil {
		t.Error("completing twice")
	}
	r, err := q.CompleteDraft(engine.Black, "quick")
	if err != nil {
		t.Fatal(err)
	}
	if r.InDraft() || r.Turn() != engine.White || r.OnBoard(engine.Black) != 25 {
		t.Errorf("both complete: %s", r.Encode())
	}
	// As a move: "ready:quick" replays through engine.Game.
	g, err := engine.Replay(mustDecode(t, StartGFEN), []string{"M*e9", "ready:quick", "Ready:Quick", "Pe3-e4"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Position().(*Position).InDraft() || g.Moves()[2] != "ready:quick" {
		t.Errorf("replay: %v %s", g.Moves(), g.Position().Encode())
	}
	_, err = p.CompleteDraft(engine.Black, "nope")
	wantCode(t, err, CodeNoSuchMove)
	_, err = p.CompleteDraft(engine.White, "nope")
	wantCode(t, err, CodeFormationUnknown)
	_, err = p.CompleteDraft(engine.White, "ppp/ppp/ppp")
	wantCode(t, err, CodeFormation)
	// A custom layout.
	q, err = p.CompleteDraft(engine.White, "(GT)......../........./....M....")
	if err != nil || len(q.Tower(Sq(0, 2))) != 2 {
		t.Errorf("custom layout: %v", err)
	}
	// The quick variant is the formation on both sides, White to move.
	v, _ := Rules.Start("quick")
	if v.Encode() != "fsglmlgsf/ykcgbgcky/p.pwpwp.p/........./........./........./P.PWPWP.P/YKCGBGCKY/FSGLMLGSF w wb G2L2S2T1N2P4/G2L2S2T1N2P4" {
		t.Errorf("quick: %s", v.Encode())
	}
}

func TestRulesAndFacts(t *testing.T) {
	if Rules.Name() != "gungi" || Rules.Variants()[0].Name != "draft" {
		t.Fatal("rules")
	}
	for _, v := range Rules.Variants() {
		p, err := Rules.Start(v.Name)
		if err != nil || p.Encode() != v.Position {
			t.Errorf("variant %s: %v", v.Name, err)
		}
	}
	_, err := Rules.Start("nope")
	wantCode(t, err, CodeUnknownVariant)
	p, _ := Rules.Start("")
	facts := p.(*Position).Facts()
	if len(facts) != 3 || facts[0].Key != "gungi.draft" || facts[1].Args[1] != "38" {
		t.Errorf("facts %+v", facts)
	}
	q, _ := Rules.Start("quick")
	if q.(*Position).RepetitionKey() == p.(*Position).RepetitionKey() {
		t.Error("keys")
	}
	// Repetition: shuffling back and forth draws by threefold repetition.
	g := engine.NewGame(q)
	for range 2 {
		for _, s := range []string{"Ya2-b3", "Ya8-b7", "Yb3-a2", "Yb7-a8"} {
			m, err := g.Position().ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if o := g.Outcome(); o != engine.Drawn(engine.ReasonRepetition) {
		t.Errorf("repetition: %v", o)
	}
}
