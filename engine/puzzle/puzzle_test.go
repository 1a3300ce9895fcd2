package puzzle

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// An 8×8 Tank Chess board: White's CLT on a8 facing north can step off
// Black's edge, and (without the obstacle on a4) could also shoot Black's
// CLT on a1 in the back.
const (
	twoWins    = "Cn......./......../......../......../......../......../......../cs....... w 1"
	escapeOnly = "Cn......./......../......../......../#......./......../......../cs....... w 1"
)

func decode(t *testing.T, r engine.Rules, s string) engine.Position {
	t.Helper()
	p, err := r.Decode(s)
	if err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return p
}

func TestFindEscapeInOne(t *testing.T) {
	pz, err := Find(decode(t, tank.Rules, escapeOnly), Options{MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pz.Depth != 1 || len(pz.Solution) != 1 || pz.Solution[0] != "A8 > OFF" {
		t.Fatalf("got depth %d solution %q, want the escape A8 > OFF", pz.Depth, pz.Solution)
	}
	if !slices.Contains(pz.Themes, "escape") || pz.Difficulty != 1 || pz.Rating != InitialRating(1) {
		t.Fatalf("themes %v difficulty %d rating %d", pz.Themes, pz.Difficulty, pz.Rating)
	}
	if pz.ID != MakeID("tank", escapeOnly) {
		t.Fatalf("id %s", pz.ID)
	}
	if err := Verify(pz, 1, 0); err != nil {
		t.Fatalf("verify: %v", err)
	}
}

func TestFindRefusesSecondSolution(t *testing.T) {
	_, err := Find(decode(t, tank.Rules, twoWins), Options{MaxDepth: 2})
	if !errors.Is(err, ErrSecond) {
		t.Fatalf("got %v, want a second solution", err)
	}
	// The same puzzle claimed on the open board fails verification.
	pz := &Puzzle{ID: "t0", Game: "tank", Depth: 1, Position: twoWins, Solution: []string{"A8 > OFF"}}
	if err := Verify(pz, 0, 0); err == nil || !strings.Contains(err.Error(), "second solution") {
		t.Fatalf("verify: %v, want a second solution", err)
	}
}

func TestVerifyRefusesBadLines(t *testing.T) {
	cases := map[string]*Puzzle{
		"not winning":  {Depth: 1, Solution: []string{"A8 > A7N"}},
		"too deep":     {Depth: 2, Solution: []string{"A8 > A7N", "A1 > A2S", "A7 > OFF"}},
		"illegal":      {Depth: 1, Solution: []string{"B2 > B3N"}},
		"wrong length": {Depth: 1, Solution: []string{"A8 > OFF", "A1 > A2S"}},
	}
	for name, pz := range cases {
		pz.ID, pz.Game, pz.Position = "t0", "tank", escapeOnly
		if err := Verify(pz, 1, 0); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
}

func TestFindNothingAtTheStart(t *testing.T) {
	for _, r := range []engine.Rules{tank.Rules, camelot.Rules} {
		pos, err := r.Start(r.Variants()[0].Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Find(pos, Options{MaxDepth: 1}); !errors.Is(err, ErrNoWin) {
			t.Errorf("%s start: %v, want no win", r.Name(), err)
		}
	}
	draft, _ := gungi.Rules.Start("draft")
	if _, err := Find(draft, Options{MaxDepth: 1}); !errors.Is(err, ErrDraft) {
		t.Errorf("gungi draft: %v, want ErrDraft", err)
	}
}

// The Tank Chess shortcut: only moves with a winning Gain can win at once.
func TestTankGainMarksEveryImmediateWin(t *testing.T) {
	ps, err := SelfPlay(tank.Rules, 5, 0, 60)
	if err != nil {
		t.Fatal(err)
	}
	wins := 0
	for _, pos := range ps {
		s := pos.(engine.Searchable).NewSearcher()
		me := s.Turn()
		n := s.Generate()
		for i := range n {
			g := s.Gain(i)
			s.Make(i)
			won := wonBy(s.Over(), me)
			s.Unmake()
			if won != (g >= winGain) {
				t.Fatalf("%s: move %s wins %v with gain %d", pos.Encode(), pos.FormatMove(s.Move(i)), won, g)
			}
			if won {
				wins++
			}
		}
	}
	t.Logf("%d positions, %d immediate wins", len(ps), wins)
}

func TestSelfPlayIsReproducible(t *testing.T) {
	for _, r := range []engine.Rules{tank.Rules, camelot.Rules, gungi.Rules} {
		a, err := SelfPlay(r, 3, 1, 24)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := SelfPlay(r, 3, 1, 24)
		if len(a) == 0 || len(a) != len(b) {
			t.Fatalf("%s: %d and %d positions", r.Name(), len(a), len(b))
		}
		for i := range a {
			if a[i].Encode() != b[i].Encode() {
				t.Fatalf("%s: position %d differs", r.Name(), i)
			}
			if d, ok := a[i].(drafter); ok && d.InDraft() {
				t.Fatalf("%s: position %d is in the draft", r.Name(), i)
			}
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	good := "t1\t1\t" + escapeOnly + "\tA8 > OFF\t1\t1100\tescape\tselfplay:1:0:3"
	p, err := ParseLine("tank", good)
	if err != nil {
		t.Fatal(err)
	}
	if p.Line() != good {
		t.Fatalf("round trip:\n%s\n%s", p.Line(), good)
	}
	for _, bad := range []string{
		"",
		"t1\t1\tpos",
		strings.Replace(good, "\t1\t", "\t0\t", 1),
		strings.Replace(good, "\t1\t", "\t2\t", 1),
		strings.Replace(good, "\t1\t1100", "\t9\t1100", 1),
		strings.Replace(good, "1100", "x", 1),
		strings.Replace(good, "A8 > OFF", "", 1),
	} {
		if _, err := ParseLine("tank", bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if _, err := ParseFile("tank", Header+"\n"+good+"\n"+good+"\n"); err == nil {
		t.Error("a puzzle twice was accepted")
	}
}

func FuzzParseLine(f *testing.F) {
	f.Add("t1\t1\t" + escapeOnly + "\tA8 > OFF\t1\t1100\tescape\tselfplay:1:0:3")
	f.Add("x\t2\t\ta; b; c\t3\t1500\t\t")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseLine("tank", s)
		if err != nil {
			return
		}
		q, err := ParseLine("tank", p.Line())
		if err != nil || q.Line() != p.Line() {
			t.Fatalf("round trip of %q: %v", s, err)
		}
	})
}

func TestChooseNearRating(t *testing.T) {
	var ps []*Puzzle
	for d := 1; d <= 5; d++ {
		for k := range 10 {
			ps = append(ps, &Puzzle{ID: string(rune('a'+d)) + string(rune('0'+k)), Rating: InitialRating(d)})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		if p := Choose(ps, 1500, nil, rng); p.Rating != 1500 {
			t.Fatalf("chose %d for 1500", p.Rating)
		}
	}
	done := func(id string) bool { return id != "f3" }
	if p := Choose(ps, 1100, done, rng); p == nil || p.ID != "f3" {
		t.Fatalf("chose %v, want the only one left", p)
	}
	if p := Choose(ps, 1100, func(string) bool { return true }, rng); p != nil {
		t.Fatalf("chose %v when all are done", p)
	}
}

// minShipped is what the collection holds per game (issue 44 asks for
// 300 each; docs/puzzles.md says why it holds fewer): a smaller file fails.
var minShipped = map[string]int{"tank": 300, "camelot": 300, "gungi": 300}

// deepShipped is what each collection reaches of issue 44's depth
// targets (at least 30 % of depth two or more, some of depth three, and
// starting ratings over at least four 200-point bands), so that a
// rebuild cannot fall back below it. Tank Chess does not reach the
// depth yet (docs/puzzles.md says why): its floor is what it ships.
var deepShipped = map[string]struct {
	share  float64 // least share of depth >= 2
	depth3 bool    // at least one of depth 3
	bands  int     // least number of 200-point rating bands
}{
	"tank":    {share: 0.07, bands: 4},
	"camelot": {share: 0.30, depth3: true, bands: 4},
	"gungi":   {share: 0.30, depth3: true, bands: 4},
}

// TestShippedCollection re-verifies every shipped puzzle from scratch,
// one solver move deeper than the generator's uniqueness test (Verify with
// extra 1), within the game's verification budget, and checks the stored
// fields against a fresh description. Under -short (the fast tier) or
// -race it verifies a sample (sampleStride): the race detector slows Tank
// Chess's move generator about twentyfold, and the proofs share nothing
// but the read-only collection; the long tier verifies the full collection
// without it (this test, and the PuzzleVerify benchmark it runs once).
func TestShippedCollection(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: proves every shipped puzzle again")
	}
	for _, g := range Games {
		t.Run(g, func(t *testing.T) { checkCollection(t, g) })
	}
}

// sampleStride: under -short or -race, every sampleStride[g]-th puzzle is
// verified.
var sampleStride = map[string]int{"tank": 25, "camelot": 10, "gungi": 5}

func checkCollection(t *testing.T, g string) {
	ps, err := Shipped(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < minShipped[g] {
		t.Errorf("%s: %d puzzles shipped, want at least %d", g, len(ps), minShipped[g])
	}
	checkCurated(t, ps)
	deep, depth3, bands := 0, 0, map[int]bool{}
	for _, pz := range ps {
		if pz.Depth >= 2 {
			deep++
		}
		if pz.Depth >= 3 {
			depth3++
		}
		bands[(pz.Rating-RatingFloor)/RatingStep] = true
	}
	want := deepShipped[g]
	if share := float64(deep) / float64(len(ps)); share < want.share {
		t.Errorf("%s: %.1f %% of depth two or more, want at least %.0f %%", g, 100*share, 100*want.share)
	}
	if want.depth3 && depth3 == 0 {
		t.Errorf("%s: no puzzle of depth three", g)
	}
	if len(bands) < want.bands {
		t.Errorf("%s: starting ratings in %d 200-point bands, want at least %d", g, len(bands), want.bands)
	}
	// Issue 44: at least five themes, each on at least 20 puzzles.
	themes := map[string]int{}
	for _, pz := range ps {
		for _, th := range pz.Themes {
			themes[th]++
		}
	}
	wide := 0
	for _, n := range themes {
		if n >= 20 {
			wide++
		}
	}
	if wide < 5 {
		t.Errorf("%s: %d themes on 20 puzzles or more (%v), want at least 5", g, wide, themes)
	}
	var mu sync.Mutex
	var fails []string
	var cost int64
	work := make(chan *Puzzle)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pz := range work {
				n, err := checkShipped(pz, VerifyBound(g, pz.Depth))
				mu.Lock()
				cost += n
				if err != nil {
					fails = append(fails, err.Error())
				}
				mu.Unlock()
			}
		}()
	}
	step := 1
	sample := raceEnabled || testing.Short()
	if sample {
		step = sampleStride[g]
		t.Logf("long tier: every one of the %d shipped %s puzzles, without -race", len(ps), g)
	}
	for i := 0; i < len(ps); i += step {
		if sample && g == "tank" && ps[i].Depth > 1 {
			// A Tank Chess win in two costs up to 800 000 moves and
			// move lists to verify, about five minutes under the race
			// detector: the sample takes the next win in one instead.
			for i < len(ps) && ps[i].Depth > 1 {
				i++
			}
			if i == len(ps) {
				break
			}
		}
		work <- ps[i]
	}
	close(work)
	wg.Wait()
	slices.Sort(fails)
	for _, f := range fails {
		t.Error(f)
	}
	depths := map[int]int{}
	for _, pz := range ps {
		depths[pz.Depth]++
	}
	t.Logf("%s: %d puzzles, every %d verified (%d moves and move lists); by depth %v", g, len(ps), step, cost, depths)
}

func checkShipped(pz *Puzzle, budget int64) (int64, error) {
	if pz.ID != MakeID(pz.Game, pz.Position) {
		return 0, errors.New(pz.ID + ": id does not match the position")
	}
	cost, err := VerifyShipped(pz, budget)
	if err != nil {
		return cost, err
	}
	fresh := &Puzzle{Game: pz.Game, Depth: pz.Depth, Position: pz.Position, Solution: pz.Solution}
	if err := describe(fresh, slices.Contains(pz.Themes, "draft")); err != nil {
		return cost, err
	}
	if !slices.Equal(fresh.Themes, pz.Themes) {
		return cost, fmt.Errorf("%s: themes %v, a fresh description gives %v", pz.ID, pz.Themes, fresh.Themes)
	}
	if !onLadder(pz.Rating) || pz.Difficulty != DifficultyOfRating(pz.Rating) {
		return cost, fmt.Errorf("%s: rating %d (difficulty %d) is not a ladder rating and its difficulty", pz.ID, pz.Rating, pz.Difficulty)
	}
	why, err := Trivial(pz)
	if err != nil || len(why) > 0 {
		return cost, fmt.Errorf("%s: trivial %v (%v)", pz.ID, why, err)
	}
	return cost, nil
}

// onLadder reports whether r is a starting rating the ladder gives.
func onLadder(r int) bool {
	for s := 0; s <= len(Ladder); s++ {
		if r == RatingOfStep(s) {
			return true
		}
	}
	return false
}

// checkCurated checks the collection's rules: one puzzle per solution, at
// most three from one game of origin, none from a game's first ten plies,
// and logs the depths, themes and ratings.
func checkCurated(t *testing.T, ps []*Puzzle) {
	t.Helper()
	keys := map[string]string{}
	origins := map[string]int{}
	depths := map[int]int{}
	ratings := map[int]int{}
	for _, pz := range ps {
		k := DedupKey(pz)
		if other, ok := keys[k]; ok {
			t.Errorf("%s and %s have the same solution", other, pz.ID)
		}
		keys[k] = pz.ID
		o := OriginGame(pz.Source)
		if origins[o]++; origins[o] > 3 {
			t.Errorf("%s: a fourth puzzle from %s", pz.ID, o)
		}
		if ply, ok := SourcePly(pz.Source); ok && ply < 10 {
			t.Errorf("%s: from ply %d of its game", pz.ID, ply)
		}
		depths[pz.Depth]++
		ratings[pz.Rating]++
	}
	t.Logf("by depth %v, by rating %v, themes %v", depths, ratings, Themes(ps))
}

// firstDeep is the first shipped puzzle of game g at least depth d deep.
func firstDeep(t *testing.T, g string, d int) *Puzzle {
	t.Helper()
	ps, err := Shipped(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, pz := range ps {
		if pz.Depth >= d {
			return pz
		}
	}
	t.Fatalf("%s: no puzzle of depth %d or more shipped", g, d)
	return nil
}

func TestFindDepthBounds(t *testing.T) {
	pos := decode(t, tank.Rules, escapeOnly)
	if _, err := Find(pos, Options{MinDepth: 2, MaxDepth: 2}); !errors.Is(err, ErrShallow) {
		t.Fatalf("a win in one with MinDepth 2: %v, want ErrShallow", err)
	}
	deep := firstDeep(t, "camelot", 2)
	dp, err := deep.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dp, Options{MaxDepth: 1}); !errors.Is(err, ErrNoWin) {
		t.Fatalf("depth-%d puzzle searched to depth 1: %v, want ErrNoWin", deep.Depth, err)
	}
	got, err := Find(dp, Options{MinDepth: 2, MaxDepth: deep.Depth, Forcing: 8})
	if err != nil {
		t.Fatalf("depth-%d puzzle %s: %v", deep.Depth, deep.ID, err)
	}
	if got.Depth != deep.Depth || !slices.Equal(got.Solution, deep.Solution) {
		t.Fatalf("found depth %d %q, shipped depth %d %q", got.Depth, got.Solution, deep.Depth, deep.Solution)
	}
}

// forcing finds the shipped Camelot sacrifices (the defender must
// capture), at their depth and not faster.
func TestForcingFilter(t *testing.T) {
	deep := firstDeep(t, "camelot", 2)
	pos, _ := deep.Decode()
	p, err := newSearch(pos, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !p.forcing(deep.Depth, 8) {
		t.Fatalf("%s: no forcing win found", deep.ID)
	}
	if p.forcing(deep.Depth-1, 8) {
		t.Fatalf("%s: a forcing win faster than its depth %d", deep.ID, deep.Depth)
	}
	start, _ := camelot.Rules.Start("start")
	if q, _ := newSearch(start, 0); q.forcing(2, 8) {
		t.Fatal("a forcing win at the start")
	}
}

// DeepDeviations hands the opponent a win in two, never one.
func TestDeepDeviations(t *testing.T) {
	ps, err := SelfPlay(camelot.Rules, 11, 0, 80)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, pos := range ps[len(ps)-8:] {
		devs, err := DeepDeviations(pos, 1, 2, 4, 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range devs {
			q, _ := newSearch(d.Position, 0)
			if q.win(1) || !q.win(2) {
				t.Fatalf("deviation %s of %s: a win in one, or none in two", d.Move, pos.Encode())
			}
			found++
		}
	}
	if found == 0 {
		t.Fatal("no deep deviation in the last 8 positions of the game")
	}
}

func TestVerifyBudget(t *testing.T) {
	deep := firstDeep(t, "gungi", 2)
	cost, err := VerifyCost(deep, 1, 0)
	if err != nil || cost <= 0 {
		t.Fatalf("cost %d, %v", cost, err)
	}
	if err := Verify(deep, 1, cost); err != nil {
		t.Fatalf("within its own cost: %v", err)
	}
	if err := Verify(deep, 1, cost/2); !errors.Is(err, ErrBudget) {
		t.Fatalf("half its cost: %v, want ErrBudget", err)
	}
}

// ScreenDeviations keeps a deviation only with a win of its shortest
// length within the bounds, and ShortestWin agrees with the prover.
func TestScreenDeviations(t *testing.T) {
	ps, err := SelfPlay(camelot.Rules, 11, 0, 80)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i, pos := range ps[len(ps)-8:] {
		sc, err := ScreenDeviations(pos, uint64(i), 40, 2, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range sc {
			q, _ := newSearch(d.Position, 0)
			if d.Win != 2 || q.win(1) || !q.win(2) {
				t.Fatalf("deviation %s of %s: screen says %d", d.Move, pos.Encode(), d.Win)
			}
			if got := ShortestWin(d.Position, 3, 0); got != 2 {
				t.Fatalf("ShortestWin %d, want 2", got)
			}
			found++
		}
	}
	if found == 0 {
		t.Fatal("no deviation with a win in two in the last 8 positions of the game")
	}
	// A budget too small to prove anything answers "none", never a win.
	for _, pos := range ps[len(ps)-8:] {
		if sc, _ := ScreenDeviations(pos, 1, 40, 2, 2, 3); len(sc) > 0 {
			t.Fatalf("a screen within 3 moves and move lists found %d", len(sc))
		}
	}
}

// DeviationsExcept leaves out the blunders its filter names: no Tank
// Chess deviation drives the CLT when MovesCommander skips them, while
// plain Deviations offers such blunders in the same game.
func TestDeviationsWithoutCommanderBlunders(t *testing.T) {
	ps, err := SelfPlay(tank.Rules, 2026, 0, 60)
	if err != nil {
		t.Fatal(err)
	}
	commander, others := 0, 0
	for i, pos := range ps[10:] {
		all, err := Deviations(pos, uint64(i), 0, 50)
		if err != nil {
			t.Fatal(err)
		}
		kept, err := DeviationsExcept(pos, uint64(i), 0, 50, MovesCommander)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range all {
			m, err := pos.ParseMove(d.Move)
			if err != nil {
				t.Fatal(err)
			}
			if MovesCommander(pos, m) {
				commander++
			}
		}
		for _, d := range kept {
			m, _ := pos.ParseMove(d.Move)
			if MovesCommander(pos, m) {
				t.Fatalf("%s: the commander's blunder %s kept", pos.Encode(), d.Move)
			}
			others++
		}
	}
	if commander == 0 || others == 0 {
		t.Fatalf("%d commander blunders, %d others: the game shows neither kind", commander, others)
	}
}

// A Gungi win in two (self-play seed 95, game 416, ply 84) where the
// defender's first reply in the generator's order leaves the solver a
// unique mate but also a slower one (Ca1-a2 mates within two), which
// Verify's deeper test refuses; a later, equally long reply does not.
// Strict picks that one, and its line verifies.
func TestFindStrictPicksAVerifiableLine(t *testing.T) {
	pos := decode(t, gungi.Rules, "(fl)s....lsf/.k(gg).bg.../(pl)n....(pGm)n./c.p.(gNp).(wSk).(tp)/.T......./......K../(PSp)(FP)P.PFP.(PL)/..SGB...W/C.LGMGLS. w wb P3/P2 135")
	plain, err := Find(pos, Options{MinDepth: 2, MaxDepth: 2, Budget: 200_000})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(plain, 1, 800_000); err == nil || !strings.Contains(err.Error(), "move 3: second solution") {
		t.Fatalf("plain line %v: verify %v, want a second solution at move 3", plain.Solution, err)
	}
	strict, err := Find(pos, Options{MinDepth: 2, MaxDepth: 2, Budget: 200_000, Strict: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Kg4-h4", "Pi6-i5", "Kh4^i6"}; !slices.Equal(strict.Solution, want) {
		t.Fatalf("strict line %v, want %v", strict.Solution, want)
	}
	if err := Verify(strict, 1, 800_000); err != nil {
		t.Fatalf("strict line: %v", err)
	}
}

// With commander tries the screen draws that many CLT moves besides the
// other tries; with none it is ScreenDeviations, draw for draw.
func TestScreenDeviationsCommander(t *testing.T) {
	ps, err := SelfPlay(tank.Rules, 5, 0, 40)
	if err != nil {
		t.Fatal(err)
	}
	pos := ps[20]
	// With no least depth and no depth searched, the screen keeps every
	// move it draws that does not end the game (none does here): count
	// the CLT moves among them.
	countCLT := func(sc []Screened) int {
		n := 0
		for _, d := range sc {
			m, err := pos.ParseMove(d.Move)
			if err != nil {
				t.Fatal(err)
			}
			if MovesCommander(pos, m) {
				n++
			}
		}
		return n
	}
	plain, err := ScreenDeviations(pos, 7, 3, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	same, err := ScreenDeviationsCommander(pos, 7, 3, 0, 0, 0, 1)
	if err != nil || len(same) != len(plain) {
		t.Fatalf("commander 0: %d deviations, ScreenDeviations %d (%v)", len(same), len(plain), err)
	}
	for i := range plain {
		if plain[i].Move != same[i].Move {
			t.Fatalf("commander 0 drew %s, ScreenDeviations %s", same[i].Move, plain[i].Move)
		}
	}
	with, err := ScreenDeviationsCommander(pos, 7, 3, 4, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := countCLT(with); got != 4 || len(with) != 7 {
		t.Fatalf("%d deviations, %d of them CLT moves; want 7 and 4", len(with), got)
	}
}

// A Tank Chess win in three (self-play seed 4494, game 28, ply 106, a
// deviation): Black's CLT drives off the edge, announcing ESCAPE on the
// way. ShortestForcingWin finds it and the full search agrees; a faster
// win is answered in full, and a budget too small proves nothing.
func TestShortestForcingWin(t *testing.T) {
	pos := decode(t, tank.Rules, "................/.#..##.ms.....hsw../.#.hs##.....##.../.#..#xlw...mw...xLn../....xlsw..##......xle/.....xLnw#####ms.##./..##.xLne.......xlse#./..###.........../..........csw###../.#..........##../.##..#####xLne....Hn/.......##......./...........#..#./...##MwMs...##..#./......Cw...##..#./.Hn..Mw........... b 54")
	if got := ShortestForcingWin(pos, 3, 2_000_000); got != 3 {
		t.Fatalf("ShortestForcingWin = %d, want 3", got)
	}
	if got := ShortestWin(pos, 3, 0); got != 3 {
		t.Fatalf("ShortestWin = %d, the forcing screen 3", got)
	}
	q, _ := newSearch(pos, 0)
	if q.win(2) {
		t.Fatal("a win in two: the forcing screen's 3 is not the shortest")
	}
	if got := ShortestForcingWin(pos, 3, 3); got != 0 {
		t.Fatalf("within 3 moves and move lists: %d, want 0", got)
	}
	// A win in two is answered by the full search below the deepest step.
	pz := firstDeep(t, "tank", 2)
	if pz.Depth != 2 {
		t.Fatalf("the first deep Tank Chess puzzle %s is of depth %d, not a win in two", pz.ID, pz.Depth)
	}
	p2, err := pz.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if got := ShortestForcingWin(p2, 3, 2_000_000); got != 2 {
		t.Fatalf("puzzle %s (a win in two): ShortestForcingWin = %d", pz.ID, got)
	}
}

// VerifySteps holds the first solver step and the later ones to their
// own deeper tests: a Tank Chess win in one (K14 > J14NW) where another
// move, J8 > L11N, wins in two passes within its depth and fails one
// move deeper. ShippedExtra checks one move deeper everywhere but the
// first step of a Tank Chess win in three or more.
func TestVerifySteps(t *testing.T) {
	pos := decode(t, tank.Rules, "....xrs.mslw......rw...../.#.he....##.mn......../.#......#.xme.lse......./.#..dw#.....##......./.....#..lscs.....#hs.../..#....##......#..../.lse#.......Mn.###xLn..#./...##............##./...#..##............/.........##........Cne/.........##.....xde.../............##..#.../.##......Le.....##.../.#...###.........#.xMn/....#......##....#../..Hnw.#.........#...../.xLsw.....##.....#Dnw..#./....xMw......#....Hw.#./....xDn..Re.Lne##....Re.#./.................... w 43")
	pz, err := Find(pos, Options{MaxDepth: 1, Budget: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifySteps(pz, 0, 1, 1_000_000); err != nil {
		t.Fatalf("first step within its depth: %v", err)
	}
	if _, err := VerifySteps(pz, 1, 0, 1_000_000); err == nil || !strings.Contains(err.Error(), "move 1: second solution J8 > L11N wins within 2") {
		t.Fatalf("first step one move deeper: %v, want J8 > L11N's win in two", err)
	}
	for _, c := range []struct {
		game         string
		depth        int
		first, later int
	}{{"tank", 1, 1, 1}, {"tank", 2, 1, 1}, {"tank", 3, 0, 1}, {"tank", 4, 0, 1}, {"gungi", 3, 1, 1}, {"camelot", 3, 1, 1}} {
		if f, l := ShippedExtra(c.game, c.depth); f != c.first || l != c.later {
			t.Errorf("ShippedExtra(%s, %d) = %d, %d; want %d, %d", c.game, c.depth, f, l, c.first, c.later)
		}
	}
}
