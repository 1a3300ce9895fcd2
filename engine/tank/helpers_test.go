package tank

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// build makes a TFEN for a size×size board from a sparse list of
// "square=token" items ("e2=Ln", "d4=#", "c3=xMn").
func build(size int, side string, items ...string) string {
	grid := make([][]string, size)
	for r := range grid {
		grid[r] = make([]string, size)
		for f := range grid[r] {
			grid[r][f] = "."
		}
	}
	for _, it := range items {
		sq, tok, _ := strings.Cut(it, "=")
		f := int(sq[0] - 'a')
		r := 0
		for _, ch := range sq[1:] {
			r = r*10 + int(ch-'0')
		}
		grid[r-1][f] = tok
	}
	rows := make([]string, size)
	for r := size - 1; r >= 0; r-- {
		rows[size-1-r] = strings.Join(grid[r], "")
	}
	return strings.Join(rows, "/") + " " + side + " 1"
}

func mustParse(t testing.TB, tfen string) *Position {
	t.Helper()
	p, err := ParseTFEN(tfen)
	if err != nil {
		t.Fatalf("ParseTFEN(%q): %v", tfen, err)
	}
	return p
}

// notations returns the sorted canonical notation of p's legal moves.
func notations(p *Position) []string {
	var out []string
	for _, m := range p.Moves() {
		out = append(out, m.String())
	}
	sort.Strings(out)
	return out
}

// movesFrom returns the sorted notation of the legal moves of the piece on
// sq (upper-case square as in notation).
func movesFrom(p *Position, sq string) []string {
	var out []string
	for _, m := range notations(p) {
		if strings.HasPrefix(m, sq+" ") {
			out = append(out, m)
		}
	}
	return out
}

func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(want)
	g := map[string]bool{}
	for _, s := range got {
		g[s] = true
	}
	w := map[string]bool{}
	for _, s := range want {
		w[s] = true
	}
	var missing, extra []string
	for s := range w {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	for s := range g {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 || len(got) != len(want) {
		t.Errorf("%s: missing %v, unexpected %v (got %d, want %d)", what, missing, extra, len(got), len(want))
	}
}

func hasMove(p *Position, n string) bool {
	for _, m := range notations(p) {
		if m == n {
			return true
		}
	}
	return false
}

// seenCodes records every error code the tests observed; TestMain checks
// that each code of Messages was produced at least once.
var seenCodes sync.Map

func errCode(err error) string {
	if e, ok := err.(*engine.Error); ok {
		seenCodes.Store(e.Code, true)
		return e.Code
	}
	return ""
}

func TestMain(m *testing.M) {
	code := m.Run()
	// The fast tier (-short) runs the whole package, so it checks; a run
	// of chosen tests (-run, as the long tier's) does not.
	if f := flag.Lookup("test.run"); code == 0 && f != nil && f.Value.String() == "" {
		for c := range Messages {
			if _, ok := seenCodes.Load(c); !ok {
				fmt.Fprintf(os.Stderr, "error code %s is in Messages but no test produced it\n", c)
				code = 1
			}
		}
	}
	os.Exit(code)
}
