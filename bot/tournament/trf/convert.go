package trf

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
)

// ErrUnsupported is a TRF feature tankbot's tournaments do not have
// (half-point byes, a team event).
var ErrUnsupported = errors.New("trf: not supported by tankbot tournaments")

// Export is t as a TRF file: players by pairing number (seed) with the
// names name gives, their points and rank from the standings, one column
// per round. A bye worth a point is "U", a round-robin rest and a round
// without a pairing (a withdrawn player) "0000 - Z", forfeits "+" and "-".
// The caller fills the header fields it knows (Name, dates, ...).
func Export(t *tournament.Tournament, name func(player string) string) *File {
	seeds := t.Seeds()
	num := map[string]int{}
	for i, e := range seeds {
		num[e.Player] = i + 1
	}
	st := map[string]tournament.Standing{}
	for _, s := range t.Standings() {
		st[s.Player] = s
	}
	f := &File{Type: typeName(t.Format), Rounds: t.TotalRounds()}
	if t.Format == tournament.Swiss {
		f.InitialColour = 'w'
		if t.FirstColour == tournament.Black {
			f.InitialColour = 'b'
		}
	}
	for i, e := range seeds {
		s := st[e.Player]
		p := Player{Start: i + 1, Name: name(e.Player), Rating: int(math.Round(min(max(e.Rating, 0), 9999))),
			Points: int(math.Round(s.Points * 10)), Rank: s.Rank}
		for _, round := range t.Rounds {
			g := Game{Colour: '-', Result: 'Z'}
			for _, pr := range round {
				switch e.Player {
				case pr.White:
					g = gameOf(t, pr, num[pr.Black], 'w')
				case pr.Black:
					g = gameOf(t, pr, num[pr.White], 'b')
				default:
					continue
				}
				break
			}
			p.Games = append(p.Games, g)
		}
		f.Players = append(f.Players, p)
	}
	return f
}

func typeName(f tournament.Format) string {
	switch f {
	case tournament.Swiss:
		return "Swiss (FIDE Dutch)"
	case tournament.RoundRobin:
		return "Round-robin (Berger)"
	case tournament.DoubleRoundRobin:
		return "Double round-robin (Berger)"
	case tournament.Knockout:
		return "Knockout"
	}
	return string(f)
}

// gameOf is one side's column of a pairing: side 'w' or 'b'.
func gameOf(t *tournament.Tournament, p tournament.Pairing, opp int, side byte) Game {
	if p.IsBye() {
		if p.Result == tournament.Bye && t.Format != tournament.RoundRobin && t.Format != tournament.DoubleRoundRobin {
			return Game{Colour: '-', Result: 'U'}
		}
		return Game{Colour: '-', Result: 'Z'}
	}
	g := Game{Opponent: opp, Colour: side, Result: ' '}
	white := side == 'w'
	pick := func(w, b byte) byte {
		if white {
			return w
		}
		return b
	}
	switch p.Result {
	case tournament.WhiteWins:
		g.Result = pick('1', '0')
	case tournament.BlackWins:
		g.Result = pick('0', '1')
	case tournament.Draw:
		g.Result = '='
	case tournament.WhiteForfeit:
		g.Result = pick('+', '-')
	case tournament.BlackForfeit:
		g.Result = pick('-', '+')
	case tournament.DoubleForfeit:
		g.Result = '-'
	}
	return g
}

// PlayerID is the id Import gives the player with start number n.
func PlayerID(n int) string { return "p" + strconv.Itoa(n) }

// Import rebuilds a Swiss tournament from f: players by start number
// (ids from PlayerID, seeded in start-number order), every round's
// pairings and results. A player without a pairing in a round ("Z", "-"
// or blank without opponent) simply has none, as after a withdrawal;
// pairing numbers are the file's start numbers.
func Import(f *File) (*tournament.Tournament, error) {
	players := slices.Clone(f.Players)
	slices.SortFunc(players, func(a, b Player) int { return a.Start - b.Start })
	rounds := f.Rounds
	for _, p := range players {
		rounds = max(rounds, len(p.Games))
	}
	if rounds < 1 {
		rounds = 1
	}
	t := &tournament.Tournament{Creator: "trf", Status: tournament.Running,
		Settings: tournament.Settings{Format: tournament.Swiss, SwissRounds: rounds, RoundLength: 24 * time.Hour}}
	if initialColour(f, players) == 'b' {
		t.FirstColour = tournament.Black
	}
	base := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	byStart := map[int]Player{}
	for i, p := range players {
		// Seeds sort by rating, then sign-up: rate by start number so the
		// file's numbering is the pairing numbering whatever its ratings.
		t.Entrants = append(t.Entrants, tournament.Entrant{Player: PlayerID(p.Start), Rating: float64(len(players) - i), Joined: base.Add(time.Duration(i) * time.Second)})
		byStart[p.Start] = p
	}
	played := 0
	for _, p := range players {
		played = max(played, len(p.Games))
	}
	for r := range played {
		var ps, byes []tournament.Pairing
		for _, p := range players {
			if r >= len(p.Games) {
				continue
			}
			g := p.Games[r]
			if g.Opponent == 0 {
				switch g.Result {
				case 'U', 'F':
					byes = append(byes, tournament.Pairing{White: PlayerID(p.Start), Result: tournament.Bye})
				case 'H':
					return nil, fmt.Errorf("%w: player %d has a half-point bye in round %d", ErrUnsupported, p.Start, r+1)
				}
				continue
			}
			o := byStart[g.Opponent]
			og := o.Games[r]
			white := g.Colour == 'w' || g.Colour != 'b' && og.Colour != 'w' && p.Start < o.Start
			if !white {
				continue // listed from White's line
			}
			res, err := resultOf(g.Result, og.Result)
			if err != nil {
				return nil, fmt.Errorf("%w: round %d, %d v %d: %v", ErrSyntax, r+1, p.Start, o.Start, err)
			}
			ps = append(ps, tournament.Pairing{White: PlayerID(p.Start), Black: PlayerID(o.Start), Result: res})
		}
		ps = append(ps, byes...)
		for b := range ps {
			ps[b].Round, ps[b].Board = r+1, b+1
		}
		t.Rounds = append(t.Rounds, ps)
	}
	t.Round = len(t.Rounds)
	if t.Round >= rounds && t.RoundOver() {
		t.Status = tournament.Finished
	}
	return t, nil
}

// resultOf is the pairing's result from White's and Black's codes.
func resultOf(w, b byte) (tournament.Result, error) {
	norm := map[byte]byte{'W': '1', 'D': '=', 'L': '0'}
	if v, ok := norm[w]; ok {
		w = v
	}
	if v, ok := norm[b]; ok {
		b = v
	}
	switch string([]byte{w, b}) {
	case "10":
		return tournament.WhiteWins, nil
	case "01":
		return tournament.BlackWins, nil
	case "==":
		return tournament.Draw, nil
	case "+-":
		return tournament.WhiteForfeit, nil
	case "-+":
		return tournament.BlackForfeit, nil
	case "--":
		return tournament.DoubleForfeit, nil
	case "  ":
		return tournament.Pending, nil
	}
	return tournament.Pending, fmt.Errorf("results %q and %q do not fit together", w, b)
}

// Absent are the players (ids from PlayerID) who have no pairing in
// round r (from 1) of f: a pairing program leaves them out.
func Absent(f *File, r int) []string {
	var out []string
	for _, p := range f.Players {
		if r-1 < len(p.Games) {
			if g := p.Games[r-1]; g.Opponent == 0 && g.Result != 'U' && g.Result != 'F' {
				out = append(out, PlayerID(p.Start))
			}
		}
	}
	return out
}

// initialColour is the file's XXC colour or, when it gives none, the one
// round 1 shows, as pairing programs infer it: the round-1 colour of the
// highest-numbered player who has one, reversed for every player above
// them who took part without a colour.
func initialColour(f *File, players []Player) byte {
	if f.InitialColour != 0 {
		return f.InitialColour
	}
	k := 0
	for _, p := range players {
		if len(p.Games) == 0 {
			continue
		}
		g := p.Games[0]
		if g.Colour == 'w' || g.Colour == 'b' {
			c := g.Colour
			if k%2 == 1 {
				c = 'w' + 'b' - c
			}
			return c
		}
		if g.Opponent != 0 || g.Result == 'U' || g.Result == 'F' {
			k++
		}
	}
	return 'w'
}
