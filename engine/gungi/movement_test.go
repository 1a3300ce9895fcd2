package gungi

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// lone builds a bare position with a White piece of kind k on top of a
// tower of height tier on sq, the tower below made of Black pawns... and
// both Marshals out of the way (a position not reachable in play but
// valid for counting reach).
func lone(k Kind, tier int, sq Square, below Kind) *Position {
	p := emptyPosition()
	p.ready = [2]bool{true, true}
	for i := 1; i < tier; i++ {
		p.push(sq, mkPiece(below, engine.Black))
	}
	p.push(sq, mkPiece(k, engine.White))
	return p
}

func reachCount(p *Position, from Square) int {
	n := 0
	for to := Square(0); to < 81; to++ {
		if to != from && p.reachable(from, to) {
			n++
		}
	}
	return n
}

func TestReachTableFromE5(t *testing.T) {
	// §3's check of the table.
	want := map[Kind][3]int{
		Pawn: {1, 3, 3}, Spy: {1, 4, 32}, Cannon: {4, 8, 16}, Fortress: {8, 0, 0},
		Samurai: {4, 4, 16}, Musketeer: {1, 2, 4}, Knight: {4, 4, 8}, Archer: {8, 16, 24},
		General: {6, 8, 11}, LtGeneral: {5, 6, 8}, MajGeneral: {2, 5, 6}, Marshal: {8, 8, 8},
	}
	e5, _ := ParseSquare("e5")
	for k, counts := range want {
		for tier := 1; tier <= 3; tier++ {
			if k == Fortress && tier > 1 {
				continue
			}
			for _, side := range []engine.Side{engine.White, engine.Black} {
				p := lone(k, tier, e5, Pawn)
				if side == engine.Black {
					p = emptyPosition()
					for i := 1; i < tier; i++ {
						p.push(e5, mkPiece(Pawn, engine.White))
					}
					p.push(e5, mkPiece(k, engine.Black))
				}
				if got := reachCount(p, e5); got != counts[tier-1] {
					t.Errorf("%s %s tier %d reaches %d squares from e5, want %d", side, k, tier, got, counts[tier-1])
				}
			}
		}
	}
}

// dests lists the squares reached by the top of from, sorted by square.
func dests(p *Position, from string) string {
	f, _ := ParseSquare(from)
	var out []string
	for to := Square(0); to < 81; to++ {
		if to != f && p.reachable(f, to) {
			out = append(out, to.String())
		}
	}
	return strings.Join(out, " ")
}

func TestMovementPatternsOpenBoard(t *testing.T) {
	// Exact squares for every piece and tier, White on e5 (forward = up).
	cases := []struct {
		k    Kind
		tier int
		want string
	}{
		{Marshal, 1, "d4 e4 f4 d5 f5 d6 e6 f6"},
		{General, 1, "e4 d5 f5 d6 e6 f6"},
		{General, 2, "d4 e4 f4 d5 f5 d6 e6 f6"},
		{General, 3, "d4 e4 f4 d5 f5 d6 e6 f6 d7 e7 f7"},
		{LtGeneral, 1, "d4 f4 d6 e6 f6"},
		{LtGeneral, 2, "d4 e4 f4 d6 e6 f6"},
		{LtGeneral, 3, "d4 e4 f4 d5 f5 d6 e6 f6"},
		{MajGeneral, 1, "d6 f6"},
		{MajGeneral, 2, "d4 f4 d6 e6 f6"},
		{MajGeneral, 3, "e4 d5 f5 d6 e6 f6"},
		{Archer, 1, "d4 e4 f4 d5 f5 d6 e6 f6"},
		{Archer, 2, "c3 d3 e3 f3 g3 c4 g4 c5 g5 c6 g6 c7 d7 e7 f7 g7"},
		{Knight, 1, "d5 f5 d7 f7"},
		{Knight, 2, "c6 g6 d7 f7"},
		{Knight, 3, "d3 f3 c4 g4 c6 g6 d7 f7"},
		{Musketeer, 1, "e6"},
		{Musketeer, 2, "e6 e7"},
		{Musketeer, 3, "e6 e7 e8 e9"},
		{Captain, 1, "d4 e4 f4 d5 f5 d6 e6 f6"},
		{Samurai, 1, "d4 f4 d6 f6"},
		{Samurai, 2, "c3 g3 c7 g7"},
		{Samurai, 3, "a1 i1 b2 h2 c3 g3 d4 f4 d6 f6 c7 g7 b8 h8 a9 i9"},
		{Fortress, 1, "d4 e4 f4 d5 f5 d6 e6 f6"},
		{Cannon, 1, "e4 d5 f5 e6"},
		{Cannon, 2, "e3 e4 c5 d5 f5 g5 e6 e7"},
		{Cannon, 3, "e1 e2 e3 e4 a5 b5 c5 d5 f5 g5 h5 i5 e6 e7 e8 e9"},
		{Spy, 1, "e6"},
		{Spy, 2, "d4 f4 d6 f6"},
		{Pawn, 1, "e6"},
		{Pawn, 2, "d6 e6 f6"},
		{Pawn, 3, "d6 e6 f6"},
	}
	e5, _ := ParseSquare("e5")
	for _, c := range cases {
		// The pieces below are Samurai: not Captains, so nothing changes
		// for non-Captains; the Captain at tier 1 has nothing below.
		if got := dests(lone(c.k, c.tier, e5, Samurai), "e5"); got != c.want {
			t.Errorf("%s tier %d: got %q, want %q", c.k, c.tier, got, c.want)
		}
	}
	// Black mirrors: a Black Pawn, Musketeer and Knight go towards rank 1.
	p := emptyPosition()
	p.push(e5, mkPiece(Knight, engine.Black))
	if got := dests(p, "e5"); got != "d3 f3 d5 f5" {
		t.Errorf("black knight tier 1: %q", got)
	}
}

func TestMovementWithBlockers(t *testing.T) {
	cases := []struct {
		name  string
		specs []string
		from  string
		want  string
	}{
		// Musketeer tier 2: Line2 blocked by e6; the blocker itself is reached.
		{"musketeer line2 blocked", []string{"e5=ppB", "e6=p"}, "e5", "e6"},
		{"musketeer slide stops", []string{"e5=ppB", "e8=p"}, "e5", "e6 e7 e8"},
		{"cannon line2 blocked", []string{"e5=pC", "e6=P", "d5=p"}, "e5", "e3 e4 d5 f5 g5 e6"},
		{"cannon slide stops", []string{"e5=ppC", "e3=p", "g5=P"}, "e5", "e3 e4 a5 b5 c5 d5 f5 g5 e6 e7 e8 e9"},
		{"general tier 3 forward two blocked", []string{"e5=ppG", "d6=p", "e6=p"}, "e5", "d4 e4 f4 d5 f5 d6 e6 f6 f7"},
		{"spy slide stops", []string{"e5=ppN", "e7=p", "g7=P", "c3=p"}, "e5", "e1 i1 e2 h2 c3 e3 g3 d4 e4 f4 a5 b5 c5 d5 f5 g5 h5 i5 d6 e6 f6 c7 e7 g7 b8 a9"},
		{"samurai slide stops", []string{"e5=ppW", "f6=p", "c3=P"}, "e5", "i1 h2 c3 g3 d4 f4 d6 f6 c7 b8 a9"},
		// Leapers ignore what lies between.
		{"samurai tier 2 leaps", []string{"e5=pW", "d4=p", "f4=p", "d6=p", "f6=p"}, "e5", "c3 g3 c7 g7"},
		{"knight leaps", []string{"e5=K", "e6=p", "d6=p", "f6=p"}, "e5", "d5 f5 d7 f7"},
		{"archer tier 3 leaps", []string{"e5=ppY", "d4=g", "e4=g", "f4=g", "d5=g", "f5=G", "d6=G", "e6=L", "f6=L"}, "e5", "b2 c2 d2 e2 f2 g2 h2 b3 h3 b4 h4 b5 h5 b6 h6 b7 h7 b8 c8 d8 e8 f8 g8 h8"},
	}
	for _, c := range cases {
		specs := append([]string{"a1=M", "i9=m"}, c.specs...)
		p := game(t, "w", "", specs...)
		// Normalise the expected order (by square index).
		var want []string
		for sq := Square(0); sq < 81; sq++ {
			if has(strings.Fields(c.want), sq.String()) {
				want = append(want, sq.String())
			}
		}
		if got := dests(p, c.from); got != strings.Join(want, " ") {
			t.Errorf("%s: got %q, want %q", c.name, got, strings.Join(want, " "))
		}
	}
}

func TestCaptainCopiesThePieceBelow(t *testing.T) {
	e5, _ := ParseSquare("e5")
	tiers := map[Kind][3]int{
		Pawn: {1, 3, 3}, Spy: {1, 4, 32}, Cannon: {4, 8, 16}, Samurai: {4, 4, 16},
		Musketeer: {1, 2, 4}, Knight: {4, 4, 8}, Archer: {8, 16, 24}, General: {6, 8, 11},
		LtGeneral: {5, 6, 8}, MajGeneral: {2, 5, 6},
	}
	for k, counts := range tiers {
		for _, owner := range []engine.Side{engine.White, engine.Black} {
			// Captain at tier 2 on k, and at tier 3 on a Captain on k.
			p := emptyPosition()
			p.push(e5, mkPiece(k, owner))
			p.push(e5, mkPiece(Captain, engine.White))
			if got := reachCount(p, e5); got != counts[1] {
				t.Errorf("captain on %s %s: %d squares, want %d", owner, k, got, counts[1])
			}
			p.push(e5, mkPiece(Captain, engine.Black))
			if got := reachCount(p, e5); got != counts[2] {
				t.Errorf("captain on captain on %s %s: %d squares, want %d", owner, k, got, counts[2])
			}
		}
	}
	// A Black Captain on a White Pawn moves forward for Black (down).
	p := emptyPosition()
	p.push(e5, mkPiece(Pawn, engine.White))
	p.push(e5, mkPiece(Captain, engine.Black))
	if got := dests(p, "e5"); got != "d4 e4 f4" {
		t.Errorf("black captain on white pawn: %q", got)
	}
	// Nothing usable below: K8 at every tier.
	for _, below := range [][]Kind{nil, {Captain}, {Fortress}, {Fortress, Captain}} {
		p := emptyPosition()
		for _, k := range below {
			p.push(e5, mkPiece(k, engine.White))
		}
		p.push(e5, mkPiece(Captain, engine.White))
		if got := dests(p, "e5"); got != "d4 e4 f4 d5 f5 d6 e6 f6" {
			t.Errorf("captain on %v: %q", below, got)
		}
	}
}

func TestGeneratedMovesMatchReach(t *testing.T) {
	// Every board move generated goes to a reachable square with the right
	// kind, and every reachable target appears with each allowed kind.
	for _, p := range samplePositions(t, 150) {
		if p.InDraft() {
			continue
		}
		got := map[Move]bool{}
		for _, m := range p.legalMoves() {
			if got[m] {
				t.Fatalf("%s: %s generated twice", p.Encode(), m)
			}
			got[m] = true
			// No generated move leaves the mover's Marshal attacked (the
			// generator skips this test where it cannot matter).
			next := *p
			next.apply(m)
			if next.inCheck(p.turn) {
				t.Fatalf("%s: %s leaves the Marshal attacked", p.Encode(), m)
			}
			if m.Kind == KindDrop {
				continue
			}
			if !p.reachable(m.From, m.To) {
				t.Fatalf("%s: %s not reachable", p.Encode(), m)
			}
		}
		for from := Square(0); from < 81; from++ {
			if !p.tops[p.turn].has(from) {
				continue
			}
			for to := Square(0); to < 81; to++ {
				if to == from || !p.reachable(from, to) {
					continue
				}
				for _, k := range []MoveKind{KindMove, KindAttack, KindStack} {
					m := Move{k, p.top(from).kind(), from, to}
					if got[m] {
						continue
					}
					// Not generated: explain must give a real reason.
					e := p.explain(m)
					if e.Code == CodeNoSuchMove {
						t.Fatalf("%s: %s neither generated nor explained", p.Encode(), m)
					}
				}
			}
		}
	}
}
