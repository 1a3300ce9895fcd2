package describe

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/describe/describetest"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// The reconstruction test reads only the English alt text: a parser that
// knows the catalog's words (not the describer's code, describetest)
// rebuilds the position's encoding from it, and it must equal the real
// position's.

// randomGame plays seeded random legal moves from the start until the game
// ends or plies moves were played, calling visit with every position.
func randomGame(t *testing.T, game, variant string, seed uint64, plies int, visit func(b Board)) {
	t.Helper()
	rules := map[string]engine.Rules{"tank": tank.Rules, "camelot": camelot.Rules, "gungi": gungi.Rules}[game]
	pos, err := rules.Start(variant)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 42))
	b := Board{Game: game, Number: 7, Variant: variant, Pos: pos}
	visit(b)
	for i := 0; i < plies && !pos.Status().Over(); i++ {
		ms := pos.LegalMoves()
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		next, err := pos.Play(m)
		if err != nil {
			t.Fatalf("%s: %v", pos.FormatMove(m), err)
		}
		b = Board{Game: game, Number: 7, Variant: variant, Pos: next, Prev: pos, Last: m}
		pos = next
		visit(b)
	}
}

// TestAltReconstructsEveryPosition plays a random game of every game and
// rebuilds every position from its English alt text alone; a text that
// does not hold the whole position must say so. Every locale's alt text
// stays within Discord's 1,024 characters.
func TestAltReconstructsEveryPosition(t *testing.T) {
	// A whole game: random play ends every game of the three well within
	// this (Gungi is the longest); the fast tier plays the first plies.
	plies := 3000
	if testing.Short() {
		plies = 60
	}
	for _, tc := range []struct{ game, variant string }{
		{"tank", "basic16"}, {"tank", "basic20"}, {"camelot", ""}, {"gungi", ""},
	} {
		t.Run(tc.game+tc.variant, func(t *testing.T) {
			rules := map[string]engine.Rules{"tank": tank.Rules, "camelot": camelot.Rules, "gungi": gungi.Rules}[tc.game]
			terrain, err := rules.Start(tc.variant)
			if err != nil {
				t.Fatal(err)
			}
			full, cut, n := 0, 0, 0
			cutIn := map[string]int{}
			var last Board
			randomGame(t, tc.game, tc.variant, 1, plies, func(b Board) {
				n++
				last = b
				for _, loc := range i18n.Locales {
					alt, err := Alt(loc, b)
					if err != nil {
						t.Fatal(err)
					}
					if c := utf8.RuneCountInString(alt); c > AltLimit || c == 0 {
						t.Fatalf("%s: alt text of %d characters", loc, c)
					}
					if strings.Contains(alt, "a11y.") {
						t.Fatalf("%s: untranslated key in %q", loc, alt)
					}
					if !Complete(loc, alt) {
						cutIn[loc]++
					}
				}
				alt, _ := Alt(i18n.English, b)
				if !Complete(i18n.English, alt) {
					cut++
					if !strings.Contains(alt, "/board text:true") {
						t.Fatalf("cut alt text does not point to the text board: %q", alt)
					}
					return
				}
				full++
				got, err := describetest.Reconstruct(tc.game, alt, terrain)
				if err != nil {
					t.Fatalf("%v\nalt: %s", err, alt)
				}
				rp, err := rules.Decode(got)
				if err != nil {
					t.Fatalf("reconstructed %q does not decode: %v\nalt: %s", got, err, alt)
				}
				if rp.Encode() != b.Pos.Encode() {
					t.Fatalf("reconstructed\n %s\nwant\n %s\nfrom alt text:\n%s", rp.Encode(), b.Pos.Encode(), alt)
				}
			})
			t.Logf("%s %s: %d positions (game over: %v), %d rebuilt from the alt text, %d cut; cut by locale %v", tc.game, tc.variant, n, last.Pos.Status().Over(), full, cut, cutIn)
			if full == 0 {
				t.Fatal("no position was rebuilt")
			}
		})
	}
}

func TestAltStatesTheFacts(t *testing.T) {
	pos, err := tank.Rules.Start("basic16")
	if err != nil {
		t.Fatal(err)
	}
	m := pos.LegalMoves()[0]
	next, _ := pos.Play(m)
	alt, err := Alt(i18n.English, Board{Game: "tank", Number: 12, Variant: "basic16", Pos: next, Prev: pos, Last: m})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Tank Chess, game #12, move", "Black to move.", "Last move: White ", "White: command tank", "Black: command tank"} {
		if !strings.Contains(alt, want) {
			t.Errorf("alt text lacks %q:\n%s", want, alt)
		}
	}
	over := engine.Win(engine.White, engine.ReasonResignation)
	alt, _ = Alt(i18n.English, Board{Game: "tank", Pos: next, Outcome: &over})
	if !strings.Contains(alt, "Game over: White wins, by resignation.") || strings.Contains(alt, "to move") {
		t.Errorf("resigned game: %s", alt)
	}
	if _, err := Alt(i18n.English, Board{Game: "tank"}); err == nil {
		t.Error("no position: no error")
	}
}

func TestFitCutsWithNotice(t *testing.T) {
	tr := tr(i18n.English)
	var parts []part
	for i := 0; i < 100; i++ {
		parts = append(parts, part{fmt.Sprintf("group %d of pieces a1, b2, c3;", i)})
	}
	s := fit(tr, []string{"Head."}, parts, AltLimit)
	if utf8.RuneCountInString(s) > AltLimit || !strings.HasPrefix(s, "Head. group 0") || Complete(i18n.English, s) {
		t.Errorf("cut text %d chars: %q", utf8.RuneCountInString(s), s)
	}
	if s := fit(tr, []string{"Head."}, parts[:2], AltLimit); !Complete(i18n.English, s) {
		t.Errorf("short text cut: %q", s)
	}
}

// TestQueries asks the blind-mode questions about a Tank Chess position
// and checks the answers against the engine.
func TestQueries(t *testing.T) {
	var pos *tank.Position
	randomGame(t, "tank", "basic16", 5, 30, func(b Board) { pos = b.Pos.(*tank.Position) })
	var clt tank.Square
	var shots = map[string]map[string]bool{} // target → shooters
	for r := 0; r < pos.Height(); r++ {
		for f := 0; f < pos.Width(); f++ {
			sq := tank.Square{File: f, Rank: r}
			if pc := pos.At(sq).Piece; pc.Kind == tank.CLT && pc.Side == pos.Turn() && !pc.Wreck {
				clt = sq
			}
		}
	}
	for _, m := range pos.Moves() {
		if m.HasTarget {
			if shots[m.Target.String()] == nil {
				shots[m.Target.String()] = map[string]bool{}
			}
			shots[m.Target.String()][m.From.String()] = true
		}
	}
	w, err := Where(i18n.English, pos, pos.Turn(), "CLT")
	if err != nil || !strings.Contains(w, clt.String()+" ") {
		t.Errorf("where CLT: %q, %v (CLT on %s)", w, err, clt)
	}
	if w2, _ := Where(i18n.English, pos, pos.Turn(), "command tank"); w2 != w {
		t.Errorf("by name %q, by code %q", w2, w)
	}
	if w3, _ := Where(i18n.English, pos, pos.Turn(), "c"); w3 != w {
		t.Errorf("by letter %q, by code %q", w3, w)
	}
	for _, k := range []string{"dragon", "Marshal", "P"} { // P: a Gungi letter, not a tank's
		if _, err := Where(i18n.English, pos, pos.Turn(), k); err == nil {
			t.Errorf("kind %q of no tank: no error", k)
		}
	}
	sq, _ := Square(i18n.English, pos, clt.String())
	if !strings.Contains(sq, "command tank") {
		t.Errorf("square %s: %q", clt, sq)
	}
	if _, err := Square(i18n.English, pos, "z99"); err == nil {
		t.Error("off-board square: no error")
	}
	if a, _ := Square(i18n.English, pos, clt.String()[:1]+"+"+clt.String()[1:]); a != sq {
		t.Errorf("square with a sign: %q, want %q", a, sq)
	}
	n := 0
	for _, m := range pos.Moves() {
		if m.From == clt {
			n++
		}
	}
	mv, _ := Moves(i18n.English, pos, clt.String())
	if n > 0 && !strings.Contains(mv, fmt.Sprintf(": %d legal moves: ", n)) {
		t.Errorf("moves of %s: %q, want %d", clt, mv, n)
	}
	for target, from := range shots {
		a, err := Attackers(i18n.English, pos, target)
		if err != nil {
			t.Fatal(err)
		}
		for f := range from {
			if !strings.Contains(a, f+" ") {
				t.Errorf("attackers of %s: %q lacks %s", target, a, f)
			}
		}
	}
	tb, err := TextBoard(i18n.English, pos)
	if err != nil || !strings.Contains(tb, "Rank 1: ") || !strings.Contains(tb, "obstacle") {
		t.Errorf("text board: %v\n%s", err, tb)
	}
	st := Standings(i18n.English, "Standings", []Standing{{1, "alice", "2", 2}, {2, "bob", "0", 2}}, 0)
	if st != "Standings\n1. alice, 2 points, 2 games\n2. bob, 0 points, 2 games" {
		t.Errorf("standings: %q", st)
	}
	var many []Standing
	for i := 1; i <= 100; i++ {
		many = append(many, Standing{i, strings.Repeat("x", 20), "1", 3})
	}
	if st := Standings(i18n.English, "T", many, AltLimit); utf8.RuneCountInString(st) > AltLimit || !strings.HasSuffix(st, "does not fit here.") {
		t.Errorf("long standings: %d chars", utf8.RuneCountInString(st))
	}
}
