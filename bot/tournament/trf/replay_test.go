package trf

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/tournament"
)

// fixtures are the reference tournaments of testdata/dutch-fixtures.trf.gz
// (docs/tournaments.md says how they were made): random Swiss events
// generated and paired round by round by bbpPairings (FIDE Dutch rules),
// one TRF per "### fixture" block.
func fixtures(t testing.TB) (names []string, files []*File) {
	t.Helper()
	raw, err := os.ReadFile("testdata/dutch-fixtures.trf.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	for _, blk := range strings.Split(string(data), "### fixture ")[1:] {
		head, body, _ := strings.Cut(blk, "\n")
		f, err := Read(strings.NewReader(body))
		if err != nil {
			t.Fatalf("fixture %s: %v", head, err)
		}
		names, files = append(names, head), append(files, f)
	}
	return names, files
}

// upTo is f with only its first n rounds.
func upTo(f *File, n int) *File {
	c := *f
	c.Players = slices.Clone(f.Players)
	for i := range c.Players {
		c.Players[i].Games = c.Players[i].Games[:min(n, len(c.Players[i].Games))]
	}
	return &c
}

// roundKey is a round's pairings as "white-black" by start number ("7-0"
// a bye), sorted.
func roundKey(ps []tournament.Pairing) []string {
	var out []string
	for _, p := range ps {
		if p.IsBye() && p.Result != tournament.Bye {
			continue
		}
		b := "0"
		if !p.IsBye() {
			b = strings.TrimPrefix(p.Black, "p")
		}
		out = append(out, strings.TrimPrefix(p.White, "p")+"-"+b)
	}
	slices.Sort(out)
	return out
}

// dutchMatched is how many fixtures tankbot's Swiss pairs exactly as the
// reference does in every round (colours included), and dutchMatchedShort
// how many of every fourth one (the fast tier's sample): all of them,
// since the Swiss became a weighted matching (see docs/tournaments.md,
// "Swiss pairings checked against bbpPairings").
const (
	dutchMatched      = 240
	dutchMatchedShort = 60
)

// TestDutchFixtures replays every reference tournament: before each round
// it rebuilds the event from the rounds before it, leaves out the players
// the reference left out, pairs the round and compares pairings and
// colours with the reference's.
func TestDutchFixtures(t *testing.T) {
	names, files := fixtures(t)
	if len(files) < 200 {
		t.Fatalf("%d fixtures, want at least 200", len(files))
	}
	// The fast tier replays every fourth tournament; the long tier all.
	step, floor := 1, dutchMatched
	if testing.Short() {
		step, floor = 4, dutchMatchedShort
	}
	matched, rounds, roundsMatched := 0, 0, 0
	var firstDiff []string
	for i, f := range files {
		if i%step != 0 {
			continue
		}
		all := true
		nr := 0
		for _, p := range f.Players {
			nr = max(nr, len(p.Games))
		}
		first, err := Import(f)
		if err != nil {
			t.Fatal(err)
		}
		for r := 1; r <= nr; r++ {
			rounds++
			before, err := Import(upTo(f, r-1))
			if err != nil {
				t.Fatalf("fixture %s round %d: %v", names[i], r, err)
			}
			before.SwissRounds = max(f.Rounds, nr)
			// The first colour, as an XXC line would carry it: the
			// reference drew it at random for round 1.
			before.FirstColour = first.FirstColour
			got, err := before.PairNext(Absent(f, r))
			var gk []string
			if err == nil {
				gk = roundKey(got)
			}
			ref, err2 := Import(upTo(f, r))
			if err2 != nil {
				t.Fatalf("fixture %s round %d: %v", names[i], r, err2)
			}
			want := roundKey(ref.Rounds[r-1])
			if slices.Equal(gk, want) {
				roundsMatched++
				continue
			}
			all = false
			if len(firstDiff) < 3 {
				firstDiff = append(firstDiff, fmt.Sprintf("fixture %s round %d (%v):\n got  %v\n want %v", names[i], r, err, gk, want))
			}
		}
		if all {
			matched++
		}
	}
	t.Logf("%d of %d fixtures paired exactly as the reference in every round; %d of %d rounds", matched, (len(files)+step-1)/step, roundsMatched, rounds)
	for _, d := range firstDiff {
		t.Log(d)
	}
	if matched < floor {
		t.Fatalf("%d fixtures matched, fewer than the %d recorded", matched, floor)
	}
}
