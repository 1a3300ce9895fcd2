package record

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// randomGame plays random legal moves from a variant's start to the end of
// the game (or maxPly).
func randomGame(t testing.TB, game, variant string, seed int64, maxPly int) (*engine.Game, []engine.Position) {
	t.Helper()
	rules, err := games.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	start, err := rules.Start(variant)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(start)
	ps := []engine.Position{start}
	rng := rand.New(rand.NewSource(seed))
	for g.Ply() < maxPly && !g.Outcome().Over() {
		ms := g.Position().LegalMoves()
		if err := g.Play(ms[rng.Intn(len(ms))]); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, g.Position())
	}
	return g, ps
}

func TestRoundTripCompleteGames(t *testing.T) {
	date := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	for _, rules := range games.All() {
		for _, v := range rules.Variants() {
			for seed := int64(1); seed <= 3; seed++ {
				g, ps := randomGame(t, rules.Name(), v.Name, seed, 5000)
				if !g.Outcome().Over() {
					t.Fatalf("%s/%s seed %d: no result after %d plies", rules.Name(), v.Name, seed, g.Ply())
				}
				in := &Record{Game: rules.Name(), Variant: v.Name, White: `al "the" \ ice`, Black: "บ๊อบ", WhiteRating: "1523",
					BlackRating: "1500?", Clock: "10m+5s", Date: date, Outcome: g.Outcome(), Number: 12, Rated: true,
					Tags: [][2]string{{"Server", "Tank Club"}}, Moves: g.Moves()}
				text, err := Write(in)
				if err != nil {
					t.Fatal(err)
				}
				out, err := Parse(text)
				if err != nil {
					t.Fatalf("%s/%s seed %d: %v\n%s", rules.Name(), v.Name, seed, err, text)
				}
				in.Start = ps[0].Encode()
				if out.White != in.White || out.Black != in.Black || out.Start != in.Start || out.Variant != in.Variant || out.Outcome != in.Outcome ||
					!out.Date.Equal(date) || out.Number != 12 || !out.Rated || out.Clock != in.Clock || out.BlackRating != "1500?" ||
					len(out.Tags) != 1 || out.Tags[0] != in.Tags[0] || strings.Join(out.Moves, "\n") != strings.Join(in.Moves, "\n") {
					t.Fatalf("%s/%s seed %d: round trip differs:\nin  %+v\nout %+v", rules.Name(), v.Name, seed, in, out)
				}
				got, _, err := out.Positions()
				if err != nil || len(got) != len(ps) {
					t.Fatalf("positions: %d vs %d, %v", len(got), len(ps), err)
				}
				for i := range ps {
					if got[i].Encode() != ps[i].Encode() {
						t.Fatalf("%s ply %d: %s, want %s", rules.Name(), i, got[i].Encode(), ps[i].Encode())
					}
				}
				// Writing what was read gives the same text.
				again, err := Write(out)
				if err != nil || again != text {
					t.Fatalf("rewrite differs (%v):\n%s\n---\n%s", err, text, again)
				}
			}
		}
	}
}

// A custom start is written as a Position tag and read back.
func TestCustomStart(t *testing.T) {
	g, ps := randomGame(t, "tank", "basic16", 7, 6)
	mid := ps[len(ps)-1]
	text, err := Write(&Record{Game: "tank", Start: mid.Encode(), White: "a", Black: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `[Position "`+mid.Encode()+`"]`) || strings.Contains(text, "[Variant") {
		t.Fatalf("custom start not written:\n%s", text)
	}
	r, err := Parse(text)
	if err != nil || r.Start != mid.Encode() || r.Outcome.Over() || len(r.Moves) != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	_ = g
}

func TestParseErrors(t *testing.T) {
	g, _ := randomGame(t, "tank", "basic16", 3, 4)
	good, err := Write(&Record{Game: "tank", Variant: "basic16", White: "a", Black: "b", Moves: g.Moves()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(good); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(good, "\n")
	moveAt := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "2. ") {
			moveAt = i
		}
	}
	cases := map[string]string{
		"no game":        strings.Replace(good, `[Game "tank"]`, "", 1),
		"unknown game":   strings.Replace(good, `[Game "tank"]`, `[Game "chess"]`, 1),
		"bad variant":    strings.Replace(good, `basic16`, `nosuch`, 1),
		"dup tag":        strings.Replace(good, `[White "a"]`, `[White "a"]`+"\n"+`[White "b"]`, 1),
		"bare quote":     strings.Replace(good, `[White "a"]`, `[White "a"b"]`, 1),
		"wrong number":   strings.Replace(good, "\n2. ", "\n3. ", 1),
		"wrong side":     strings.Replace(good, "\n1... ", "\n1. ", 1),
		"illegal":        strings.Replace(good, lines[moveAt], "2. A1 > A2N", 1),
		"after result":   good + "1. x\n",
		"result differs": strings.Replace(good, "\n*\n", "\n1-0\n", 1),
		"tag after":      good[:len(good)-2] + "[X \"y\"]\n*\n",
		"bad date":       strings.Replace(good, `[Result`, `[Date "yesterday"]`+"\n[Result", 1),
	}
	for name, text := range cases {
		if _, err := Parse(text); err == nil {
			t.Errorf("%s: parsed\n%s", name, text)
		} else {
			var re *Error
			if !errors.As(err, &re) {
				t.Errorf("%s: %T %v is not a *record.Error", name, err, err)
			}
		}
	}
}

// A result the board decided must match the Result tag.
func TestResultMustMatchBoard(t *testing.T) {
	g, _ := randomGame(t, "camelot", "start", 2, 5000)
	o := g.Outcome()
	wrong := engine.Win(engine.White, "x")
	if o.Result == engine.WhiteWins {
		wrong = engine.Win(engine.Black, "x")
	}
	text, err := Write(&Record{Game: "camelot", Variant: "start", Outcome: wrong, Moves: g.Moves()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(text); err == nil {
		t.Fatal("a result contradicting the final position was accepted")
	}
}

func FuzzParse(f *testing.F) {
	for _, game := range []struct{ name, variant string }{{"tank", "basic16"}, {"camelot", "start"}, {"gungi", "quick"}} {
		g, _ := randomGame(f, game.name, game.variant, 1, 40)
		text, err := Write(&Record{Game: game.name, Variant: game.variant, White: "w", Black: "b", Outcome: g.Outcome(), Moves: g.Moves()})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Add("[Game \"tank\"]\n[Variant \"basic16\"]\n1. \n")
	f.Add("[Game \"gungi\"]\n[Position \"x\"]\n")
	f.Add("[Game \"camelot\"]\n[Variant \"start\"]\n; before\n1. F5-F7\n; +0.3 (52 %)\n;; engine: x y\n1-0\n; after\n")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Parse(text)
		if err != nil {
			return
		}
		out, err := Write(r)
		if err != nil {
			t.Fatalf("a parsed record does not write: %v", err)
		}
		r2, err := Parse(out)
		if err != nil {
			t.Fatalf("a written record does not parse: %v\n%s", err, out)
		}
		if strings.Join(r2.Moves, "|") != strings.Join(r.Moves, "|") || r2.Outcome != r.Outcome || r2.Start != r.Start {
			t.Fatalf("second round trip differs")
		}
		for i := range r.Moves {
			if r2.Comment(i) != r.Comment(i) {
				t.Fatalf("comment of move %d: %q then %q", i+1, r.Comment(i), r2.Comment(i))
			}
		}
	})
}

// Comments after a move are kept, one per move, and written back as
// comment lines; a multi-line comment keeps its lines.
func TestComments(t *testing.T) {
	g, _ := randomGame(t, "tank", "basic16", 4, 6)
	r := &Record{Game: "tank", Variant: "basic16", White: "w", Black: "b", Outcome: g.Outcome(), Moves: g.Moves()}
	r.Comments = []string{"first", "", "a line\nand another\n\n", "", "last"}
	text, err := Write(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "; a line\n; and another\n") {
		t.Fatalf("comment lines:\n%s", text)
	}
	back, err := Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	want := []string{"first", "", "a line\nand another", "", "last", ""}
	for i, w := range want {
		if back.Comment(i) != w {
			t.Errorf("comment %d: %q, want %q", i, back.Comment(i), w)
		}
	}
	if len(back.Moves) != len(r.Moves) {
		t.Fatalf("moves %d, want %d", len(back.Moves), len(r.Moves))
	}
}
