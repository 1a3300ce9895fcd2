package tournament

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// The Berger tables as published (FIDE Handbook C.05, Annex 1): White
// first, board 1 first.
func TestBergerTablesPublished(t *testing.T) {
	published := map[int][][][2]int{
		4: {
			{{1, 4}, {2, 3}},
			{{4, 3}, {1, 2}},
			{{2, 4}, {3, 1}},
		},
		6: {
			{{1, 6}, {2, 5}, {3, 4}},
			{{6, 4}, {5, 3}, {1, 2}},
			{{2, 6}, {3, 1}, {4, 5}},
			{{6, 5}, {1, 4}, {2, 3}},
			{{3, 6}, {4, 2}, {5, 1}},
		},
		8: {
			{{1, 8}, {2, 7}, {3, 6}, {4, 5}},
			{{8, 5}, {6, 4}, {7, 3}, {1, 2}},
			{{2, 8}, {3, 1}, {4, 7}, {5, 6}},
			{{8, 6}, {7, 5}, {1, 4}, {2, 3}},
			{{3, 8}, {4, 2}, {5, 1}, {6, 7}},
			{{8, 7}, {1, 6}, {2, 5}, {3, 4}},
			{{4, 8}, {5, 3}, {6, 2}, {7, 1}},
		},
		10: {
			{{1, 10}, {2, 9}, {3, 8}, {4, 7}, {5, 6}},
			{{10, 6}, {7, 5}, {8, 4}, {9, 3}, {1, 2}},
			{{2, 10}, {3, 1}, {4, 9}, {5, 8}, {6, 7}},
		},
	}
	for n, rounds := range published {
		for r, want := range rounds {
			if got := BergerTable(n, r+1); !reflect.DeepEqual(got, want) {
				t.Errorf("Berger %d players round %d: %v, want %v", n, r+1, got, want)
			}
		}
	}
	if BergerTable(5, 1) != nil || BergerTable(4, 4) != nil || BergerTable(4, 0) != nil {
		t.Error("BergerTable accepts an odd field or a round out of range")
	}
}

// Every pair meets exactly once and colours stay within one of balance.
func TestBergerEveryoneOnce(t *testing.T) {
	for n := 2; n <= 24; n += 2 {
		met := map[[2]int]int{}
		whites := make([]int, n+1)
		for r := 1; r < n; r++ {
			seen := map[int]bool{}
			for _, p := range BergerTable(n, r) {
				if seen[p[0]] || seen[p[1]] {
					t.Fatalf("n=%d round %d: a player twice", n, r)
				}
				seen[p[0]], seen[p[1]] = true, true
				met[[2]int{min(p[0], p[1]), max(p[0], p[1])}]++
				whites[p[0]]++
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Fatalf("n=%d: %d distinct pairs, want %d", n, len(met), n*(n-1)/2)
		}
		for k := 1; k <= n; k++ {
			if d := 2*whites[k] - (n - 1); d < -1 || d > 1 {
				t.Errorf("n=%d: player %d has %d whites of %d", n, k, whites[k], n-1)
			}
		}
	}
}

func TestBracketOrder(t *testing.T) {
	want := []int{1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11}
	if got := BracketOrder(16); !reflect.DeepEqual(got, want) {
		t.Fatalf("BracketOrder(16) = %v, want %v", got, want)
	}
}

func organiser() Actor { return Actor{ID: "org"} }

func newT(t *testing.T, f Format, rounds, n int) *Tournament {
	t.Helper()
	tr, err := New("org", Settings{Format: f, SwissRounds: rounds, RoundLength: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := tr.Join(fmt.Sprintf("p%02d", i+1), 2000-float64(10*i), t0); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// A 6-player knockout: seeds 1 and 2 get the byes of the 8-bracket, 3 v 6
// and 4 v 5 play, and the rounds follow the bracket to a champion.
func TestKnockoutSeedingAndByes(t *testing.T) {
	tr := newT(t, Knockout, 0, 6)
	ps, err := tr.Start(organiser(), t0)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, p := range ps {
		got = append(got, p.White+"-"+p.Black+":"+p.Result.String())
	}
	want := []string{"p01-:bye", "p04-p05:", "p02-:bye", "p03-p06:"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round 1 = %v, want %v", got, want)
	}
	if err := tr.Record(1, 2, BlackWins); err != nil { // p05 beats p04
		t.Fatal(err)
	}
	if err := tr.Record(1, 4, Draw); err != nil { // a draw goes to Black: p06
		t.Fatal(err)
	}
	ps, err = tr.NextRound(1, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].White != "p01" || ps[0].Black != "p05" || ps[1].White != "p02" || ps[1].Black != "p06" {
		t.Fatalf("round 2 = %+v", ps)
	}
	tr.Record(2, 1, WhiteWins)
	tr.Record(2, 2, BlackWins)
	ps, _ = tr.NextRound(2, t0)
	// p06 has had White less often (never), so p06 has White.
	if len(ps) != 1 || ps[0].White != "p06" || ps[0].Black != "p01" {
		t.Fatalf("final = %+v", ps)
	}
	if tr.Podium() != nil {
		t.Fatal("a podium before the end")
	}
	tr.Record(3, 1, WhiteWins)
	if ps, err := tr.NextRound(3, t0); err != nil || ps != nil || tr.Status != Finished {
		t.Fatalf("after the final: %v %v %s", ps, err, tr.Status)
	}
	st := tr.Standings()
	if st[0].Player != "p06" || st[1].Player != "p01" || st[2].Player != "p02" || st[3].Player != "p05" {
		t.Fatalf("knockout standings %+v", st)
	}
	if got := fmt.Sprint(tr.Podium()); got != "[[p06] [p01] [p02 p05]]" {
		t.Fatalf("knockout podium %s", got)
	}
}

func mustStart(t *testing.T, tr *Tournament) []Pairing {
	t.Helper()
	ps, err := tr.Start(organiser(), t0)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// Tie-breaks on a worked example: a 5-player Swiss of 3 rounds, results
// set by hand, values computed by hand in the comments.
func TestTieBreaksWorkedExample(t *testing.T) {
	tr := newT(t, Swiss, 3, 5) // p01..p05 = A..E by rating
	tr.Status, tr.Round = Running, 3
	P := func(r, b int, w, bl string, res Result) Pairing {
		return Pairing{Round: r, Board: b, White: w, Black: bl, Result: res}
	}
	tr.Rounds = [][]Pairing{
		{P(1, 1, "p01", "p02", WhiteWins), P(1, 2, "p03", "p04", Draw), P(1, 3, "p05", "", Bye)},
		{P(2, 1, "p01", "p03", Draw), P(2, 2, "p05", "p02", BlackWins), P(2, 3, "p04", "", Bye)},
		{P(3, 1, "p01", "p05", WhiteWins), P(3, 2, "p02", "p04", WhiteWins), P(3, 3, "p03", "", Bye)},
	}
	// Points: A 2.5, B 2, C 2, D 1.5, E 1.
	// Buchholz cut-1: A: B2+C2+E1 −1 = 4; B: A2.5+E1+D1.5 −1 = 4;
	//   C: D1.5+A2.5+bye0 −0 = 4; D: C2+bye0+B2 −0 = 4; E: bye0+B2+A2.5 −0 = 4.5.
	// Sonneborn-Berger: A: 2·1+2·½+1·1 = 4; B: 2.5·0+1·1+1.5·1 = 2.5;
	//   C: 1.5·½+2.5·½ = 2; D: 2·½+2·0 = 1; E: 0.
	want := []struct {
		p         string
		pts, bh   float64
		sb        float64
		wins, gms int
	}{
		{"p01", 2.5, 4, 4, 2, 3},
		{"p02", 2, 4, 2.5, 2, 3}, // B and C tie on points and Buchholz; SB decides
		{"p03", 2, 4, 2, 0, 2},
		{"p04", 1.5, 4, 1, 0, 2},
		{"p05", 1, 4.5, 0, 0, 2},
	}
	st := tr.Standings()
	for i, w := range want {
		s := st[i]
		if s.Rank != i+1 || s.Player != w.p || s.Points != w.pts || s.BuchholzCut1 != w.bh || s.SonnebornBerger != w.sb || s.Wins != w.wins || s.Games != w.gms {
			t.Errorf("rank %d: %+v, want %+v", i+1, s, w)
		}
	}
}

// Round-robin puts the direct encounter first: p02 beat p01 and both have
// 2 points, so p02 is ahead despite the lower seed.
func TestDirectEncounterRoundRobin(t *testing.T) {
	tr := newT(t, RoundRobin, 0, 4)
	mustStart(t, tr)
	res := [][]Result{
		{WhiteWins, WhiteWins}, // 1-4 1-0, 2-3 1-0
		{Draw, BlackWins},      // 4-3 ½, 1-2 0-1
		{BlackWins, BlackWins}, // 2-4 0-1, 3-1 0-1
	}
	for r, rr := range res {
		for b, x := range rr {
			if err := tr.Record(r+1, b+1, x); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tr.NextRound(r+1, t0); err != nil {
			t.Fatal(err)
		}
	}
	if tr.Status != Finished {
		t.Fatalf("status %s after 3 rounds", tr.Status)
	}
	if got := fmt.Sprint(tr.Podium()); got != "[[p02] [p01] [p04]]" {
		t.Fatalf("round-robin podium %s", got)
	}
	st := tr.Standings()
	if st[0].Player != "p02" || st[0].Direct != 1 || st[1].Player != "p01" || st[1].Direct != 0 || st[2].Player != "p04" || st[3].Player != "p03" {
		t.Fatalf("standings %+v", st)
	}
}

// Bad input returns its own error and changes nothing.
func TestStateMachineErrors(t *testing.T) {
	tr := newT(t, Swiss, 3, 3)
	snap := func() *Tournament { return tr.clone() }
	check := func(name string, err, want error, before *Tournament) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("%s: error %v, want %v", name, err, want)
		}
		if !reflect.DeepEqual(before, tr) {
			t.Errorf("%s changed the tournament", name)
		}
	}
	b := snap()
	check("join twice", tr.Join("p01", 1500, t0), ErrAlreadyJoined, b)
	check("leave not entered", tr.Leave("zz"), ErrNotEntered, b)
	_, err := tr.Start(organiser(), t0)
	check("start with 3 for Swiss", err, ErrTooFewPlayers, b)
	tr.Join("p04", 1000, t0)
	b = snap()
	_, err = tr.Start(Actor{ID: "p01"}, t0)
	check("non-organiser start", err, ErrNotOrganiser, b)
	_, err = tr.Withdraw("p01")
	check("withdraw before the start", err, ErrNotRunning, b)
	if _, err := tr.Start(Actor{ID: "mod", ManageServer: true}, t0); err != nil {
		t.Fatalf("Manage Server start: %v", err)
	}
	b = snap()
	check("join after the start", tr.Join("p09", 1000, t0), ErrNotSignUp, b)
	_, err = tr.NextRound(1, t0)
	check("next round while playing", err, ErrRoundNotOver, b)
	check("record a bad result", tr.Record(1, 1, Bye), ErrBadResult, b)
	check("record on no board", tr.Record(1, 9, WhiteWins), ErrNoSuchGame, b)
	check("non-organiser cancel", tr.Cancel(Actor{ID: "p02"}), ErrNotOrganiser, b)
	tr.Record(1, 1, WhiteWins)
	tr.Record(1, 2, Draw)
	b = snap()
	check("record twice", tr.Record(1, 1, BlackWins), ErrAlreadyRecorded, b)
	if _, err := tr.NextRound(1, t0); err != nil {
		t.Fatal(err)
	}
	b = snap()
	_, err = tr.NextRound(1, t0)
	check("pair round 2 again", err, ErrStaleRound, b)
	if err := tr.Cancel(organiser()); err != nil {
		t.Fatal(err)
	}
	b = snap()
	_, err = tr.NextRound(2, t0)
	check("pair after cancel", err, ErrCancelled, b)
	check("join after cancel", tr.Join("p10", 1, t0), ErrCancelled, b)
	check("cancel twice", tr.Cancel(organiser()), ErrCancelled, b)
	_, err = tr.Withdraw("p01")
	check("withdraw after cancel", err, ErrCancelled, b)

	full, _ := New("org", Settings{Format: Knockout, MaxPlayers: 2, RoundLength: time.Hour, SignUpDeadline: t0.Add(time.Hour)})
	full.Join("a", 1, t0)
	full.Join("b", 1, t0)
	tr = full
	b = snap()
	check("join a full tournament", tr.Join("c", 1, t0), ErrFull, b)
	tr.Leave("b")
	b = snap()
	check("join after the deadline", tr.Join("c", 1, t0.Add(time.Hour)), ErrSignUpDeadline, b)
	if _, err := New("org", Settings{Format: "arena", RoundLength: time.Hour}); !errors.Is(err, ErrBadSettings) {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := New("org", Settings{Format: Swiss, RoundLength: time.Hour}); !errors.Is(err, ErrBadSettings) {
		t.Errorf("Swiss without rounds: %v", err)
	}
}

// A withdrawal forfeits the pending game and the remaining round-robin
// games; the deadline rule adjudicates.
func TestWithdrawAndAdjudicate(t *testing.T) {
	tr := newT(t, RoundRobin, 0, 5)
	ps := mustStart(t, tr)
	if len(ps) != 3 || !ps[2].IsBye() || ps[2].Result != Bye {
		t.Fatalf("5-player round 1: %+v", ps)
	}
	dec, err := tr.Withdraw(ps[0].White)
	if err != nil || len(dec) != 1 || dec[0].Result != BlackForfeit {
		t.Fatalf("withdraw: %+v %v", dec, err)
	}
	if !tr.DeadlinePassed(t0.Add(24*time.Hour)) || tr.DeadlinePassed(t0.Add(24*time.Hour-time.Second)) {
		t.Fatal("deadline")
	}
	if err := tr.Record(1, 2, Adjudicate(White, true, true)); err != nil {
		t.Fatal(err)
	}
	ps, err = tr.NextRound(1, t0.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	w := tr.Entrants[0].Player
	for _, p := range ps {
		if (p.White == w || p.Black == w) && p.Result == Pending {
			t.Fatalf("withdrawn player's game not forfeited: %+v", p)
		}
	}
	if !tr.RoundDeadline.Equal(t0.Add(48 * time.Hour)) {
		t.Fatalf("round 2 deadline %v", tr.RoundDeadline)
	}
	for _, c := range []struct {
		tm         Colour
		moved, win bool
		want       Result
	}{
		{White, false, true, BlackForfeit},
		{Black, false, true, WhiteForfeit},
		{White, true, true, BlackWins},
		{Black, true, true, WhiteWins},
		{Black, true, false, Draw},
	} {
		if got := Adjudicate(c.tm, c.moved, c.win); got != c.want {
			t.Errorf("Adjudicate(%v,%v,%v) = %s, want %s", c.tm, c.moved, c.win, got, c.want)
		}
	}
}

// Dutch pairings of an 8-player Swiss: round 1 top half v bottom half with
// alternating colours; in round 2 the winners' group pairs 1–4 and 2–3,
// since 1–3 and 2–4 would leave two players without their colour.
func TestSwissDutchExample(t *testing.T) {
	tr := newT(t, Swiss, 3, 8)
	ps := mustStart(t, tr)
	got := func(ps []Pairing) string {
		s := ""
		for _, p := range ps {
			s += p.White[1:] + "-" + p.Black[1:] + " "
		}
		return s
	}
	if g := got(ps); g != "01-05 06-02 03-07 08-04 " {
		t.Fatalf("round 1: %s", g)
	}
	// The higher seed wins every game.
	for _, p := range ps {
		r := WhiteWins
		if p.White > p.Black {
			r = BlackWins
		}
		tr.Record(1, p.Board, r)
	}
	ps, err := tr.NextRound(1, t0)
	if err != nil {
		t.Fatal(err)
	}
	if g := got(ps); g != "04-01 02-03 05-08 07-06 " {
		t.Fatalf("round 2: %s", g)
	}
}

func FuzzParseResult(f *testing.F) {
	for _, s := range resultNames {
		f.Add(s)
	}
	f.Add("2-0")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseResult(s)
		if err != nil {
			if !errors.Is(err, ErrBadResult) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if r.String() != s {
			t.Fatalf("%q parsed as %v", s, r)
		}
	})
}
