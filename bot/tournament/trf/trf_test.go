package trf

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// finishedSwiss plays a 9-round Swiss of n players with random results,
// forfeits and two withdrawals to the end.
func finishedSwiss(t *testing.T, n int, seed uint64) *tournament.Tournament {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	tr, err := tournament.New("org", tournament.Settings{Format: tournament.Swiss, SwissRounds: 9, RoundLength: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		tr.Join(fmt.Sprint("u", i), float64(1200+rng.IntN(1200)), t0)
	}
	if _, err := tr.Start(tournament.Actor{ID: "org"}, t0); err != nil {
		t.Fatal(err)
	}
	for tr.Status == tournament.Running {
		if tr.Round == 3 || tr.Round == 6 {
			tr.Withdraw(fmt.Sprint("u", rng.IntN(n)))
		}
		for _, p := range tr.Rounds[tr.Round-1] {
			if p.Result == tournament.Pending {
				r := []tournament.Result{tournament.WhiteWins, tournament.BlackWins, tournament.Draw, tournament.WhiteWins, tournament.BlackForfeit}[rng.IntN(5)]
				if err := tr.Record(p.Round, p.Board, r); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := tr.NextRound(tr.Round, t0); err != nil {
			t.Fatal(err)
		}
	}
	if tr.Round != 9 {
		t.Fatalf("the Swiss ended after round %d", tr.Round)
	}
	return tr
}

// key lists a tournament's rounds by pairing number (seed), boards in
// any order: "1-5:1-0".
func key(tr *tournament.Tournament) [][]string {
	num := map[string]int{}
	for i, e := range tr.Seeds() {
		num[e.Player] = i + 1
	}
	var out [][]string
	for _, r := range tr.Rounds {
		var rs []string
		for _, p := range r {
			if p.Result == tournament.DoubleForfeit && p.IsBye() {
				continue // a withdrawn player's empty slot: no pairing
			}
			rs = append(rs, fmt.Sprintf("%d-%d:%s", num[p.White], num[p.Black], p.Result))
		}
		slices.Sort(rs)
		out = append(out, rs)
	}
	return out
}

// A finished 9-round Swiss exported as TRF reads back to the same rounds
// and results, and its header and player lines follow the TRF-16 column
// layout.
func TestSwissRoundTrip(t *testing.T) {
	tr := finishedSwiss(t, 23, 5)
	f := Export(tr, func(id string) string { return "Player " + id })
	f.Name, f.Start, f.End = "Test event", "2026/03/01", "2026/03/09"
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, buf.String())
	}
	got, err := Import(back)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := key(tr), key(got); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("rounds differ:\nexported %v\nread     %v", a, b)
	}
	if got.Status != tournament.Finished || back.Rounds != 9 || back.InitialColour != 'w' {
		t.Errorf("read back: status %s, XXR %d, XXC %q", got.Status, back.Rounds, back.InitialColour)
	}
	// Points and ranks as the standings have them.
	st := tr.Standings()
	for i, e := range tr.Seeds() {
		p := back.Players[i]
		var s tournament.Standing
		for _, x := range st {
			if x.Player == e.Player {
				s = x
			}
		}
		if p.Start != i+1 || p.Points != int(s.Points*10) || p.Rank != s.Rank || p.Name != "Player "+e.Player {
			t.Errorf("player %d: %+v, standing %+v", i+1, p, s)
		}
	}
	checkColumns(t, buf.String(), tr)
}

// checkColumns checks the lines against FIDE's field positions (TRF-16,
// C.04 Annex 2; counted from 1): 001 at 1-3, starting rank right-aligned
// in 5-8, name from 15 (to 47), rating in 49-52, points in 81-84, rank in
// 86-89, and per round r: opponent in 92+10(r-1) .. 95+10(r-1), colour at
// 97+10(r-1), result at 99+10(r-1); header lines are a three-digit code,
// a space and the value.
func checkColumns(t *testing.T, text string, tr *tournament.Tournament) {
	t.Helper()
	col := func(ln string, from, to int) string {
		if to > len(ln) {
			to = len(ln)
		}
		if from > len(ln) {
			return ""
		}
		return ln[from-1 : to]
	}
	seeds := tr.Seeds()
	players := 0
	for _, ln := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if ln[3] != ' ' {
			t.Errorf("no space after the code: %q", ln)
		}
		switch ln[:3] {
		case "012":
			if ln != "012 Test event" {
				t.Errorf("012 line %q", ln)
			}
		case "062":
			if ln != fmt.Sprintf("062 %d", len(seeds)) {
				t.Errorf("062 line %q", ln)
			}
		case "XXR":
			if ln != "XXR 9" {
				t.Errorf("XXR line %q", ln)
			}
		case "001":
			players++
			want := fmt.Sprintf("%4d", players)
			if col(ln, 5, 8) != want || col(ln, 4, 4) != " " {
				t.Errorf("start number in 5-8: %q", ln)
			}
			if !strings.HasPrefix(col(ln, 15, 47), "Player "+seeds[players-1].Player) {
				t.Errorf("name in 15-47: %q", col(ln, 15, 47))
			}
			if r := fmt.Sprintf("%4d", int(seeds[players-1].Rating+0.5)); col(ln, 49, 52) != r {
				t.Errorf("rating in 49-52: %q want %q", col(ln, 49, 52), r)
			}
			if pts := col(ln, 81, 84); len(pts) != 4 || pts[2] != '.' || pts[0] != ' ' && (pts[0] < '0' || pts[0] > '9') {
				t.Errorf("points in 81-84: %q", pts)
			}
			if col(ln, 85, 85) != " " || strings.TrimSpace(col(ln, 86, 89)) == "" {
				t.Errorf("rank in 86-89: %q", ln)
			}
			for r := range 9 {
				at := 92 + 10*r
				opp, c, res := col(ln, at, at+3), col(ln, at+5-1+1, at+5), col(ln, at+7, at+7)
				if len(opp) != 4 || col(ln, at-1, at-1) != " " || col(ln, at+4, at+4) != " " || col(ln, at+6, at+6) != " " {
					t.Errorf("round %d block misplaced in %q", r+1, ln)
				}
				if !strings.Contains("wb-", c) || res == "" || !strings.Contains("10=+-UZ", res) {
					t.Errorf("round %d colour %q result %q", r+1, c, res)
				}
			}
		}
	}
	if players != len(seeds) {
		t.Errorf("%d player lines, want %d", players, len(seeds))
	}
}

// A line written by hand after FIDE's example reads field by field.
func TestReadFIDEExample(t *testing.T) {
	ln := "001    1 m  g Mirzoev,Azer                      2527 AZE    13400304 1978/01/01  4.0    1    26 w 1    13 b 1     8 w =  0000 - U     4 b +"
	p, err := readPlayer(ln)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(strings.NewReader("012 X\r" + pline(1, "A") + "\r\nXXR 7\nXXC black1\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Start != 1 || p.Sex != 'm' || p.Title != "g" || p.Name != "Mirzoev,Azer" || p.Rating != 2527 || p.Fed != "AZE" ||
		p.ID != "13400304" || p.Birth != "1978/01/01" || p.Points != 40 || p.Rank != 1 || f.Rounds != 7 || f.InitialColour != 'b' {
		t.Fatalf("read %+v %+v", f, p)
	}
	want := []Game{{26, 'w', '1'}, {13, 'b', '1'}, {8, 'w', '='}, {0, '-', 'U'}, {4, 'b', '+'}}
	if !slices.Equal(p.Games, want) {
		t.Fatalf("games %+v", p.Games)
	}
	// Written again, the line is the same.
	var buf bytes.Buffer
	(&File{Players: []Player{p}}).Write(&buf)
	if !strings.Contains(buf.String(), ln+"\n") {
		t.Fatalf("written again:\n%s\nwant\n%s", buf.String(), ln)
	}
}

// pline is a 001 line: start number, name, rating and round blocks
// ("2 w 1") at FIDE's columns.
func pline(start int, name string, rounds ...string) string {
	var l line
	l.put(1, "001")
	l.putRight(8, fmt.Sprint(start))
	l.put(15, name)
	l.putRight(52, "2000")
	l.putRight(84, "1.0")
	for r, b := range rounds {
		var opp, c, res string
		fmt.Sscan(b, &opp, &c, &res)
		at := 92 + 10*r
		l.putRight(at+3, opp)
		l.put(at+5, c)
		l.put(at+7, res)
	}
	return string(l)
}

// Bad files are refused with an error, never a panic.
func TestReadRefuses(t *testing.T) {
	ok := pline(1, "A", "2 w 1") + "\n" + pline(2, "B", "1 b 0")
	if _, err := Read(strings.NewReader(ok)); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	for _, in := range []string{
		"",
		"012 only a header",
		"001 abcd",
		pline(1, "A", "2 w 1"), // no player 2
		pline(1, "A", "1 w 1"), // meets themselves
		pline(1, "A", "2 w 1") + "\n" + pline(2, "B", "3 b 0") + "\n" + pline(3, "C"), // 2 does not list 1
		pline(1, "A") + "\n" + pline(1, "B"),                                          // start number twice
		pline(1, "A", "2 q 1") + "\n" + pline(2, "B", "1 b 0"),                        // colour q
		pline(1, "A", "2 w 7") + "\n" + pline(2, "B", "1 b 0"),                        // result 7
		"XXR zero\n" + pline(1, "A"),
		strings.Replace(pline(1, "A"), "2000", "20x0", 1),
	} {
		if _, err := Read(strings.NewReader(in)); err == nil {
			t.Errorf("accepted %q", in)
		}
	}
	// Results that do not fit together are refused on import.
	f, err := Read(strings.NewReader(pline(1, "A", "2 w 1") + "\n" + pline(2, "B", "1 b 1")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(f); err == nil {
		t.Error("imported a game both won")
	}
}

func FuzzRead(f *testing.F) {
	f.Add("001    1      A                                 2000                              1.0    1     2 w 1\n001    2      B                                 1900                              0.0    2     1 b 0\nXXR 3")
	f.Add("012 T\r001    1 m  g X  2527 AZE    13400304 1978/01/01  4.0    1  0000 - U")
	f.Fuzz(func(t *testing.T, s string) {
		file, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := file.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := Import(file); err != nil {
			return
		}
	})
}

// Columns count characters: a name in another script keeps the rating,
// points and rounds after it in their columns.
func TestNonASCIIName(t *testing.T) {
	f := &File{Players: []Player{
		{Start: 1, Name: "Ñandú 名前 ผู้เล่น", Rating: 1500, Points: 10, Rank: 1, Games: []Game{{2, 'w', '1'}}},
		{Start: 2, Name: "B", Rating: 1400, Points: 0, Rank: 2, Games: []Game{{1, 'b', '0'}}},
	}}
	var buf bytes.Buffer
	f.Write(&buf)
	back, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if p := back.Players[0]; p.Name != f.Players[0].Name || p.Rating != 1500 || p.Points != 10 || !slices.Equal(p.Games, f.Players[0].Games) {
		t.Fatalf("read back %+v", p)
	}
}
