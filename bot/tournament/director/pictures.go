package director

import (
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/imaging"
)

// Labels words the pictures in the reader's language: Text returns the
// catalogue's text for a key (keys below), Name a player's display name.
type Labels struct {
	Text func(key string, args ...string) string
	Name func(player string) string
}

// Keys of the catalogue the pictures use.
const (
	KeyStandingsTitle = "tournament.standings.title" // args: round, of rounds
	KeyColRank        = "tournament.col.rank"
	KeyColPlayer      = "tournament.col.player"
	KeyColPoints      = "tournament.col.points"
	KeyColBuchholz    = "tournament.col.buchholz"
	KeyColSB          = "tournament.col.sb"
	KeyColDirect      = "tournament.col.direct"
	KeyColWins        = "tournament.col.wins"
	KeyColGames       = "tournament.col.games"
	KeyBracketTitle   = "tournament.bracket.title"
	KeyRoundName      = "tournament.round" // args: round number
	KeyFinal          = "tournament.final"
	KeySemiFinal      = "tournament.semifinal"
	KeyBye            = "tournament.bye"
)

// points writes ½ for halves: "2½", "½", "3".
func points(p float64) string {
	whole, half := int(p), p-float64(int(p)) >= 0.5
	switch {
	case half && whole == 0:
		return "½"
	case half:
		return strconv.Itoa(whole) + "½"
	}
	return strconv.Itoa(whole)
}

func decimal(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// StandingsPages are the standings as tables of at most
// imaging.MaxStandingsRows rows each, with the format's tie-break columns
// in the order they apply; withdrawn players are dimmed and, once the
// tournament is finished, the podium highlighted.
func StandingsPages(t *tournament.Tournament, l Labels) []imaging.StandingsTable {
	st := t.Standings()
	cols := []string{l.Text(KeyColRank), l.Text(KeyColPlayer), l.Text(KeyColPoints)}
	var tbs []tournament.TieBreak
	if t.Format != tournament.Knockout {
		tbs = tournament.TieBreaks(t.Format)
	}
	for _, tb := range tbs {
		cols = append(cols, l.Text(map[tournament.TieBreak]string{
			tournament.TBBuchholzCut1: KeyColBuchholz, tournament.TBSonnebornBerger: KeyColSB,
			tournament.TBDirect: KeyColDirect, tournament.TBWins: KeyColWins,
		}[tb]))
	}
	cols = append(cols, l.Text(KeyColGames))
	title := l.Text(KeyStandingsTitle, strconv.Itoa(t.Round), strconv.Itoa(t.TotalRounds()))
	var pages []imaging.StandingsTable
	for i, s := range st {
		if i%imaging.MaxStandingsRows == 0 {
			pages = append(pages, imaging.StandingsTable{Title: title, Columns: cols, NameColumn: 1})
		}
		pg := &pages[len(pages)-1]
		row := []string{strconv.Itoa(s.Rank), l.Name(s.Player), points(s.Points)}
		for _, tb := range tbs {
			switch tb {
			case tournament.TBBuchholzCut1:
				row = append(row, points(s.BuchholzCut1))
			case tournament.TBSonnebornBerger:
				row = append(row, decimal(s.SonnebornBerger))
			case tournament.TBDirect:
				row = append(row, points(s.Direct))
			case tournament.TBWins:
				row = append(row, strconv.Itoa(s.Wins))
			}
		}
		row = append(row, strconv.Itoa(s.Games))
		pg.Rows = append(pg.Rows, row)
		pg.Dim = append(pg.Dim, s.Withdrawn)
		pg.Podium = append(pg.Podium, t.Status == tournament.Finished && s.Rank <= 3)
	}
	return pages
}

// BracketOf is a knockout's bracket: the rounds paired so far, the later
// ones with empty slots, and the champion once the final is decided.
func BracketOf(t *tournament.Tournament, l Labels) imaging.Bracket {
	total := t.TotalRounds()
	b := imaging.Bracket{Title: l.Text(KeyBracketTitle)}
	name := func(p string) string {
		if p == "" {
			return ""
		}
		return l.Name(p)
	}
	size := 1 << total
	for r := 1; r <= total; r++ {
		round := imaging.BracketRound{Name: l.Text(KeyRoundName, strconv.Itoa(r))}
		switch total - r {
		case 0:
			round.Name = l.Text(KeyFinal)
		case 1:
			round.Name = l.Text(KeySemiFinal)
		}
		n := size >> r
		for i := range n {
			m := imaging.BracketMatch{Winner: -1}
			if r <= len(t.Rounds) && i < len(t.Rounds[r-1]) {
				p := t.Rounds[r-1][i]
				m.Top, m.Bottom = name(p.White), name(p.Black)
				if p.IsBye() && p.White != "" {
					m.Bottom = l.Text(KeyBye)
				}
				if w := p.Winner(); w != "" && p.Result != tournament.Pending {
					m.Winner = 0
					if w == p.Black {
						m.Winner = 1
					}
				}
			}
			round.Matches = append(round.Matches, m)
		}
		b.Rounds = append(b.Rounds, round)
	}
	if t.Status == tournament.Finished && len(t.Rounds) == total {
		b.Champion = name(t.Rounds[total-1][0].Winner())
	}
	return b
}
