package movepick

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// walk visits every menu reachable from the first one, through choices and
// page navigation, and returns the notation of every completed move.
func walk(t *testing.T, name string, pos engine.Position) map[string]string {
	t.Helper()
	done := map[string]string{} // notation -> state
	seen := map[string]bool{}
	var visit func(state string, depth int)
	visit = func(state string, depth int) {
		if seen[state] {
			return
		}
		seen[state] = true
		if depth > 40 {
			t.Fatalf("%s: picker does not end (state %q)", name, state)
		}
		m, err := Open(pos, state, i18n.English)
		if err != nil {
			t.Fatalf("%s: open %q: %v", name, state, err)
		}
		if len(m.State) > MaxStateLen {
			t.Fatalf("%s: state %q longer than %d", name, m.State, MaxStateLen)
		}
		if m.Complete() {
			if len(m.Options) != 0 || m.Prompt != "confirm" {
				t.Fatalf("%s: complete menu %q has options or prompt %q", name, state, m.Prompt)
			}
			if prev, ok := done[m.Notation]; ok && prev != m.State {
				t.Fatalf("%s: move %s reached by states %q and %q", name, m.Notation, prev, m.State)
			}
			done[m.Notation] = m.State
			return
		}
		if n := len(m.Options); n < 2 || n > MaxOptions {
			t.Fatalf("%s: menu %q has %d options", name, state, n)
		}
		values := map[string]bool{}
		for _, o := range m.Options {
			if o.Label == "" || len([]rune(o.Label)) > 100 {
				t.Fatalf("%s: option label %q", name, o.Label)
			}
			if values[o.State] {
				t.Fatalf("%s: menu %q repeats the value %q", name, state, o.State)
			}
			values[o.State] = true
			if o.Nav == NavNone && o.Moves < 1 {
				t.Fatalf("%s: option %q leads to no move", name, o.Label)
			}
			visit(o.State, depth+1)
		}
	}
	visit("", 0)
	return done
}

// Every legal move is reached by exactly one path through the menus, every
// path ends in a legal move, and StateOf finds the path of each move.
func TestEveryLegalMoveExactlyOnce(t *testing.T) {
	for _, np := range positions(t) {
		moves := np.pos.LegalMoves()
		done := walk(t, np.name, np.pos)
		if len(done) != len(moves) {
			t.Errorf("%s: picker reaches %d moves, the position has %d", np.name, len(done), len(moves))
		}
		for _, mv := range moves {
			n := np.pos.FormatMove(mv)
			st, ok := done[n]
			if !ok {
				t.Errorf("%s: move %s cannot be picked", np.name, n)
				continue
			}
			got, err := StateOf(np.pos, mv)
			if err != nil || got != st {
				t.Errorf("%s: StateOf(%s) = %q, %v; the walk reached it at %q", np.name, n, got, err, st)
			}
		}
	}
}

// Levels wider than one menu are paged, and the pages together hold each
// option once.
func TestPaging(t *testing.T) {
	var wide engine.Position
	for _, np := range positions(t) {
		m, err := Open(np.pos, "", i18n.English)
		if err != nil {
			t.Fatal(err)
		}
		if m.Pages > 1 {
			wide = np.pos
			break
		}
	}
	if wide == nil {
		t.Fatal("no test position has a paged first menu: the test proves nothing")
	}
	first, _ := Open(wide, "", i18n.English)
	var steps []string
	state := ""
	for page := 0; page < first.Pages; page++ {
		m, err := Open(wide, state, i18n.English)
		if err != nil {
			t.Fatal(err)
		}
		if m.Page != page {
			t.Fatalf("page %d opened as %d", page, m.Page)
		}
		state = ""
		for i, o := range m.Options {
			switch o.Nav {
			case NavPrev:
				if i != 0 || page == 0 {
					t.Errorf("page %d: previous at %d", page, i)
				}
			case NavNext:
				if i != len(m.Options)-1 || page == m.Pages-1 {
					t.Errorf("page %d: more at %d", page, i)
				}
				state = o.State
			default:
				steps = append(steps, o.Step)
			}
		}
	}
	if len(steps) != len(slices.Compact(slices.Clone(steps))) {
		t.Errorf("pages repeat options: %v", steps)
	}
	// A page beyond the last is stale, not a panic.
	if _, err := Open(wide, "p99", i18n.English); !errors.Is(err, ErrStale) {
		t.Errorf("page 100: %v", err)
	}
}

func TestBadStates(t *testing.T) {
	pos := start(t, tank.Rules, "basic16")
	for _, s := range []string{"x", "1..2", "01", "-1", "1.2.3.4.5.6.7.8.9", "p0", "p", "99999", strings.Repeat("1.", 40)} {
		if _, err := Open(pos, s, i18n.English); !errors.Is(err, ErrMalformed) {
			t.Errorf("state %q: %v, want malformed", s, err)
		}
	}
	for _, s := range []string{"999", "0.999", "0.0.0.0.0.0.0", "0p5"} {
		if _, err := Open(pos, s, i18n.English); !errors.Is(err, ErrStale) {
			t.Errorf("state %q: %v, want stale", s, err)
		}
	}
	if _, err := Open(nil, "", i18n.English); !errors.Is(err, ErrNoMoves) {
		t.Errorf("nil position: %v", err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, st := range []State{{}, {Choices: []int{0}}, {Choices: []int{3, 12}, Page: 1}, {Page: 2}} {
		got, err := Decode(st.Encode())
		if err != nil || !slices.Equal(got.Choices, st.Choices) || got.Page != st.Page {
			t.Errorf("%+v -> %q -> %+v, %v", st, st.Encode(), got, err)
		}
	}
}

// Labels name the pieces and are translated.
func TestLabels(t *testing.T) {
	pos := start(t, tank.Rules, "basic16")
	en, _ := Open(pos, "", i18n.English)
	found := false
	for _, o := range en.Options {
		if strings.HasPrefix(o.Label, "HT ") || strings.HasPrefix(o.Label, "MT ") || strings.HasPrefix(o.Label, "LT ") {
			found = true
		}
	}
	if !found {
		t.Errorf("no tank piece named in %v", en.Options)
	}
	if en.Prompt != "piece" {
		t.Errorf("prompt %q", en.Prompt)
	}

	g := start(t, gungi.Rules, "quick")
	for _, loc := range []string{i18n.English, i18n.Thai} {
		m, err := Open(g, "", loc)
		if err != nil {
			t.Fatal(err)
		}
		want := i18n.T(loc, "gungi.piece.M")
		ok := false
		for _, o := range m.Options {
			ok = ok || strings.HasPrefix(o.Label, want+" ")
		}
		if !ok {
			t.Errorf("%s: no Marshal labelled %q in the first gungi menu", loc, want)
		}
	}

	c := start(t, camelot.Rules, "start")
	m, _ := Open(c, "", i18n.Portuguese)
	if !strings.HasPrefix(m.Options[0].Label, "Cavaleiro ") && !strings.HasPrefix(m.Options[0].Label, "Peão ") {
		t.Errorf("camelot label %q", m.Options[0].Label)
	}
}

// Camelot's second level groups the routes by destination: each option is a
// landing square, and the third level (when there is one) lists the routes.
func TestCamelotGroupsByDestination(t *testing.T) {
	pos := camelotMid
	if pos == nil {
		positions(t)
		pos = camelotMid
	}
	byPair := map[[2]string]int{}
	for _, mv := range pos.LegalMoves() {
		st := mv.Steps()
		byPair[[2]string{st[0], st[1]}]++
	}
	multi := 0
	for _, n := range byPair {
		if n > 1 {
			multi++
		}
	}
	first, _ := Open(pos, "", i18n.English)
	for _, o := range first.Options {
		if o.Nav != NavNone {
			continue
		}
		m, err := Open(pos, o.State, i18n.English)
		if err != nil {
			t.Fatal(err)
		}
		if m.Complete() {
			continue
		}
		if m.Prompt != "destination" {
			t.Fatalf("second camelot menu asks %q", m.Prompt)
		}
		for _, d := range m.Options {
			if d.Nav == NavNone && byPair[[2]string{o.Step, d.Step}] != d.Moves {
				t.Errorf("%s→%s: %d moves behind the option, %d legal", o.Step, d.Step, d.Moves, byPair[[2]string{o.Step, d.Step}])
			}
		}
	}
	t.Logf("%d piece/destination pairs with more than one route", multi)
}

func FuzzOpen(f *testing.F) {
	for _, s := range []string{"", "0", "1.2", "0p1", "p2", "3.12p1", "0.0.0"} {
		f.Add(s)
	}
	pos := start(f, tank.Rules, "basic16")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Open(pos, s, i18n.English)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrStale) {
				t.Fatalf("%q: unexpected error kind %v", s, err)
			}
			return
		}
		if m.Complete() && !slices.ContainsFunc(pos.LegalMoves(), func(x engine.Move) bool { return pos.FormatMove(x) == m.Notation }) {
			t.Fatalf("%q completes to an illegal move %s", s, m.Notation)
		}
	})
}

// The keys the picker builds at run time are in the catalog.
func TestDynamicKeys(t *testing.T) {
	for _, ps := range Prompts {
		for _, p := range append(ps, "step") {
			if !i18n.Has("movepick.prompt." + p) {
				t.Errorf("no catalog key movepick.prompt.%s", p)
			}
		}
	}
	// Every label of every game's first menu, in every language, is
	// words: a key missing from the catalog would show as itself.
	for _, d := range games.Descriptors() {
		for _, v := range d.Rules.Variants() {
			pos, err := d.Rules.Start(v.Name)
			if err != nil {
				t.Fatal(err)
			}
			for _, loc := range i18n.Locales {
				m, err := Open(pos, "", loc)
				if err != nil {
					t.Fatalf("%s %s: %v", d.Rules.Name(), v.Name, err)
				}
				for _, o := range m.Options {
					if strings.Contains(o.Label, "movepick.") || strings.Contains(o.Label, ".piece.") {
						t.Errorf("%s %s %s: label %q is a missing key", d.Rules.Name(), v.Name, loc, o.Label)
					}
				}
			}
		}
	}
}
