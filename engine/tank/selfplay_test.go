package tank

import (
	"math/rand/v2"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// selfPlayGames is the number of random games per map. It is the same with
// and without -race; the test stays well under 20 s with -race on a 2-core
// machine.
const (
	selfPlayGames = 1000
	selfPlayPlies = 80
)

// TestRandomSelfPlay plays random games from both maps: they never panic,
// always end (won or capped), and replaying the notation from the start
// through engine.Replay gives the same final TFEN. Moves are chosen with a
// bias towards shots so games reach wrecks and CLT kills. Every 100th game
// is also checked against the reference generator and the notation round
// trip at a few of its positions.
func TestRandomSelfPlay(t *testing.T) {
	for _, name := range []string{"basic16", "basic20"} {
		start, err := StartPosition(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		results := map[engine.Reason]int{}
		for g := 0; g < selfPlayGames; g++ {
			p := start
			var notes []string
			deep := g%100 == 0
			for ply := 0; ply < selfPlayPlies && !p.Status().Over(); ply++ {
				if deep && ply%30 == 7 && ply < 60 {
					sameSet(t, p.Encode(), notations(p), refNotations(refFrom(p)))
					checkNotationRoundTrip(t, p)
					checkPlayRefusesNearMisses(t, rng, p)
					if q := mustParse(t, p.Encode()); q.Encode() != p.Encode() {
						t.Fatalf("TFEN round trip %s", p.Encode())
					}
				}
				m, ok := pick(rng, p)
				if !ok {
					t.Fatalf("%s game %d: ongoing position without moves: %s", name, g, p.Encode())
				}
				notes = append(notes, m.String())
				if p, err = p.PlayMove(m); err != nil {
					t.Fatalf("%s game %d: legal move %s refused: %v", name, g, m, err)
				}
			}
			results[p.Status().Reason]++
			game, err := engine.Replay(start, notes)
			if err != nil {
				t.Fatalf("%s game %d: replay: %v", name, g, err)
			}
			if got := game.Position().Encode(); got != p.Encode() {
				t.Fatalf("%s game %d: replay ends on %s, play on %s", name, g, got, p.Encode())
			}
		}
		t.Logf("%s: %d games, endings %v", name, selfPlayGames, results)
		if results[ReasonCLTDestroyed] == 0 {
			t.Errorf("%s: no game ended by destroying a CLT: %v", name, results)
		}
	}
}

// pick chooses a random piece of the side to move and one of its legal
// moves, a shot (or escape) two times in three when it has one. It works
// on the generator's own lists to keep the test fast; the moves are still
// played and replayed through the public API, and the deep checks compare
// whole move lists with the reference generator.
func pick(rng *rand.Rand, p *Position) (Move, bool) {
	b := p.b.work()
	defer b.release()
	var pieces []int
	for i, c := range b.cells {
		if isActive(c, b.turn) {
			pieces = append(pieces, i)
		}
	}
	if len(pieces) == 0 {
		return Move{}, false
	}
	from := pieces[rng.IntN(len(pieces))]
	ms := b.generatePiece(b.sc(), b.sc().list[:0], from, b.cells[from])
	b.sc().list = ms
	if rng.IntN(3) > 0 {
		var shots []imove
		for _, m := range ms {
			if m.tgt >= 0 || m.esc {
				shots = append(shots, m)
			}
		}
		if len(shots) > 0 {
			return b.export(shots[rng.IntN(len(shots))]), true
		}
	}
	return b.export(ms[rng.IntN(len(ms))]), true
}

// checkPlayRefusesNearMisses mutates legal moves one field at a time and
// expects PlayMove to accept exactly the candidates that are in the legal
// list (Play checks a single move without generating the whole list).
func checkPlayRefusesNearMisses(t *testing.T, rng *rand.Rand, p *Position) {
	t.Helper()
	legal := map[Move]bool{}
	ms := p.Moves()
	for _, m := range ms {
		legal[m] = true
	}
	n := p.Width()
	for i := 0; i < 300; i++ {
		m := ms[rng.IntN(len(ms))]
		switch rng.IntN(5) {
		case 0:
			m.To.File += rng.IntN(3) - 1
			m.To.Rank += rng.IntN(3) - 1
		case 1:
			m.Facing = Dir(rng.IntN(8))
		case 2:
			m.Target, m.HasTarget = Square{rng.IntN(n), rng.IntN(n)}, true
		case 3:
			m.HasTarget = !m.HasTarget
		case 4:
			m.Escape = !m.Escape
		}
		m = normalize(m)
		_, err := p.PlayMove(m)
		if (err == nil) != legal[m] {
			t.Fatalf("%s: PlayMove(%+v) err=%v, legal=%v", p.Encode(), m, err, legal[m])
		}
	}
}
