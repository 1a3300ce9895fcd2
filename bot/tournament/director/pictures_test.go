package director

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/imaging"
)

var testLabels = Labels{
	Text: func(key string, args ...string) string { return key + "(" + strings.Join(args, ",") + ")" },
	Name: func(p string) string { return "@" + p },
}

func TestPoints(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.5: "½", 2: "2", 2.5: "2½", 10.5: "10½"} {
		if got := points(v); got != want {
			t.Errorf("points(%v) = %q, want %q", v, got, want)
		}
	}
	if got := decimal(4.25); got != "4.25" {
		t.Errorf("decimal(4.25) = %q", got)
	}
	if got := decimal(3); got != "3" {
		t.Errorf("decimal(3) = %q", got)
	}
}

func playAll(t *testing.T, tr *tournament.Tournament) {
	t.Helper()
	for tr.Status == tournament.Running {
		for _, p := range tr.Rounds[tr.Round-1] {
			if p.Result == tournament.Pending {
				if err := tr.Record(p.Round, p.Board, result(p)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := tr.NextRound(tr.Round, t0); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStandingsPagesAndBracket(t *testing.T) {
	sw, _ := tournament.New("org", tournament.Settings{Format: tournament.Swiss, SwissRounds: 4, RoundLength: time.Hour})
	for i := range 20 {
		sw.Join(fmt.Sprint("p", i), float64(2000-i), t0)
	}
	if _, err := sw.Start(tournament.Actor{ID: "org"}, t0); err != nil {
		t.Fatal(err)
	}
	sw.Withdraw("p19")
	playAll(t, sw)
	pages := StandingsPages(sw, testLabels)
	if len(pages) != 2 || len(pages[0].Rows) != 16 || len(pages[1].Rows) != 4 {
		t.Fatalf("20 players on %d pages", len(pages))
	}
	want := []string{"tournament.col.rank()", "tournament.col.player()", "tournament.col.points()", "tournament.col.buchholz()",
		"tournament.col.sb()", "tournament.col.direct()", "tournament.col.wins()", "tournament.col.games()"}
	if fmt.Sprint(pages[0].Columns) != fmt.Sprint(want) || pages[0].Title != "tournament.standings.title(4,4)" {
		t.Fatalf("columns %q title %q", pages[0].Columns, pages[0].Title)
	}
	if !pages[0].Podium[0] || !pages[0].Podium[2] || pages[0].Podium[3] {
		t.Errorf("podium %v", pages[0].Podium)
	}
	dim := 0
	for _, pg := range pages {
		for i, d := range pg.Dim {
			if d {
				dim++
				if pg.Rows[i][1] != "@p19" {
					t.Errorf("dimmed row %v", pg.Rows[i])
				}
			}
		}
		b, err := imaging.RenderStandings(pg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	}
	if dim != 1 {
		t.Errorf("%d dimmed rows, want the one withdrawn player", dim)
	}

	ko, _ := tournament.New("org", tournament.Settings{Format: tournament.Knockout, RoundLength: time.Hour})
	for i := range 6 {
		ko.Join(fmt.Sprint("k", i), float64(2000-i), t0)
	}
	ko.Start(tournament.Actor{ID: "org"}, t0)
	br := BracketOf(ko, testLabels)
	if len(br.Rounds) != 3 || len(br.Rounds[0].Matches) != 4 || br.Rounds[0].Matches[0].Bottom != "tournament.bye()" ||
		br.Rounds[0].Matches[0].Winner != 0 || br.Rounds[1].Matches[0].Top != "" || br.Rounds[2].Name != "tournament.final()" || br.Champion != "" {
		t.Fatalf("bracket after round 1 was paired: %+v", br)
	}
	playAll(t, ko)
	br = BracketOf(ko, testLabels)
	if br.Champion != "@"+ko.Standings()[0].Player || br.Rounds[2].Matches[0].Winner < 0 {
		t.Fatalf("finished bracket: %+v", br)
	}
	b, err := imaging.RenderBracket(br)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
}

// A knockout of the most entrants (128) draws its bracket and all its
// standings pages.
func TestLargestKnockoutPictures(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: draws a 128-player bracket (a 2,000 × 4,800 px image)")
	}
	ko, _ := tournament.New("org", tournament.Settings{Format: tournament.Knockout, RoundLength: time.Hour})
	for i := range tournament.MaxEntrants {
		ko.Join(fmt.Sprint("p", i), float64(2000-i), t0)
	}
	if _, err := ko.Start(tournament.Actor{ID: "org"}, t0); err != nil {
		t.Fatal(err)
	}
	playAll(t, ko)
	data, err := imaging.RenderBracket(BracketOf(ko, testLabels))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dy() < 1000 {
		t.Fatalf("bracket %v %v", img.Bounds(), err)
	}
	if pages := StandingsPages(ko, testLabels); len(pages) != tournament.MaxEntrants/16 {
		t.Fatalf("%d standings pages", len(pages))
	}
}
