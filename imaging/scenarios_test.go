package imaging

import (
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// A scenario is a position to draw: a start map, or a map's obstacles with
// pieces placed by hand, then optionally one move played so the image shows
// it as the last move.
type scenario struct {
	name   string
	mapPos string            // map whose obstacles (and, if keep, pieces) are used
	keep   bool              // keep the map's pieces
	turn   string            // side to move before the move
	place  map[string]string // square -> TFEN token ("Mn", "xls", ".")
	move   string            // played before drawing; "" for none
	flip   bool
}

var scenarios = []scenario{
	{name: "start16", mapPos: "basic16", keep: true, turn: "w"},
	{name: "start20", mapPos: "basic20", keep: true, turn: "w"},
	{name: "midgame", mapPos: "basic16", turn: "b", place: midgame16, move: "d14 > d12S"},
	{name: "shot", mapPos: "basic16", turn: "w", place: midgame16, move: "a5 > a6N (a9)"},
	{name: "mortar", mapPos: "basic20", turn: "w", place: midgame20, move: "f9 > f10N (f14)"},
	{name: "check", mapPos: "basic16", turn: "w", place: check16, move: "m10 > m12N"},
	{name: "checkescape", mapPos: "basic20", turn: "w", place: checkEscape20, move: "k17 > k18N"},
	{name: "escape", mapPos: "basic16", turn: "w", place: escape16, move: "h15 > OFF"},
	{name: "flipped", mapPos: "basic16", turn: "b", place: midgame16, move: "d14 > d12S", flip: true},
}

var midgame16 = map[string]string{
	"g2": "Cne", "c4": "Hn", "m5": "Hnw", "f4": "Mn", "j5": "Mne", "a5": "Mn",
	"d7": "Le", "k4": "Ln", "f3": "xLnw", "p3": "Ln",
	"i16": "cs", "d16": "hs", "n12": "hsw", "g13": "ms", "a9": "ls", "k10": "msw",
	"d14": "ls", "n9": "lse", "g9": "xls", "k13": "xms", "e8": "xhse",
}

var midgame20 = map[string]string{
	"j1": "Cn", "c3": "Hn", "r4": "Hnw", "g5": "Mne", "n6": "Mn", "f9": "Rn", "p1": "Rn",
	"e2": "Dne", "q6": "Dn", "c6": "Ln", "j8": "xLn", "t10": "Ln",
	"k20": "cs", "f12": "ls", "f14": "ms", "c16": "hse", "r18": "hs", "o18": "ds",
	"h17": "rs", "m15": "xmsw", "n12": "ls", "d18": "ls", "p16": "xds",
}

var check16 = map[string]string{
	"h1": "Cn", "c3": "Hne", "m10": "Mn", "f5": "Ln", "p9": "Mnw", "a12": "Le",
	"i16": "cs", "d16": "hs", "n14": "ls", "g14": "xls", "f13": "ms", "o13": "lsw",
}

var checkEscape20 = map[string]string{
	"k17": "Cn", "n16": "Rn", "c3": "Hn", "g8": "Mne", "q10": "Dn", "e13": "Ln",
	"n20": "cs", "c20": "hs", "r17": "hsw", "h14": "ms", "t16": "ls", "e16": "xms", "p19": "ds",
}

var escape16 = map[string]string{
	"h15": "Cn", "c5": "Hn", "j9": "Mne", "n10": "Ln", "g14": "xms",
	"k16": "cs", "d16": "hs", "n14": "ls", "a11": "xLe", "i13": "ms",
}

// tokens splits a TFEN rank into its square tokens.
func tokens(row string) []string {
	var out []string
	for i := 0; i < len(row); {
		j := i + 1
		if row[i] == 'x' {
			j++
		}
		if row[i] != '.' && row[i] != '#' {
			for j < len(row) && strings.IndexByte("nsew", row[j]) >= 0 {
				j++
			}
		}
		out = append(out, row[i:j])
		i = j
	}
	return out
}

func square(s string) (f, r int) {
	f = int(s[0] - 'a')
	for _, c := range s[1:] {
		r = r*10 + int(c-'0')
	}
	return f, r - 1
}

func (sc scenario) position(t testing.TB) (engine.Position, Options) {
	t.Helper()
	start, err := tank.StartPosition(sc.mapPos)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.Fields(start.Encode())[0], "/")
	n := len(rows)
	grid := make([][]string, n)
	for i, row := range rows {
		grid[i] = tokens(row)
		for j, tok := range grid[i] {
			if !sc.keep && tok != "#" {
				grid[i][j] = "."
			}
		}
	}
	for sq, tok := range sc.place {
		f, r := square(sq)
		grid[n-1-r][f] = tok
	}
	for i := range grid {
		rows[i] = strings.Join(grid[i], "")
	}
	p, err := tank.ParseTFEN(strings.Join(rows, "/") + " " + sc.turn + " 12")
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	opt := Options{Flip: sc.flip}
	var pos engine.Position = p
	if sc.move != "" {
		m, err := p.ParseMove(sc.move)
		if err != nil {
			t.Fatalf("%s: move %q: %v", sc.name, sc.move, err)
		}
		if pos, err = p.Play(m); err != nil {
			t.Fatalf("%s: play %q: %v", sc.name, sc.move, err)
		}
		opt.Last = m
	}
	return pos, opt
}
