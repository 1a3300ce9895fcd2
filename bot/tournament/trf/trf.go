// Package trf reads and writes FIDE's Tournament Report File (TRF-16,
// FIDE Handbook C.04 Annex 2) with the JaVaFo extensions pairing programs
// read (XXR: the number of rounds; XXC: the first round's colour of the
// top player; XXP: forbidden pairs), so an arbiter can check every round
// of a tankbot tournament with a pairing program of their own
// (docs/tournaments.md). The layout is by columns: each field has fixed
// positions, counted from 1 as in FIDE's description.
package trf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrSyntax wraps every reading error.
var ErrSyntax = errors.New("trf: bad file")

// File is a tournament report.
type File struct {
	Name, City, Federation string // 012, 022, 032
	Start, End             string // 042, 052: YYYY/MM/DD
	Type                   string // 092
	Arbiter                string // 102
	TimeControl            string // 122
	// Rounds is the planned number of rounds (XXR, 0: not given).
	Rounds int
	// InitialColour is the top player's colour in round 1 (XXC white1 /
	// black1): 'w', 'b' or 0 when not given.
	InitialColour byte
	Players       []Player
	// Forbidden are sets of start numbers that may not meet (XXP).
	Forbidden [][]int
	// Other keeps lines this package does not interpret (comments "###"
	// excepted), in order, so a file read and written again keeps them.
	Other []string
}

// Player is one 001 line.
type Player struct {
	Start  int    // starting rank (pairing number), columns 5-8
	Sex    byte   // column 10: 'm', 'w' or ' '
	Title  string // 11-13
	Name   string // 15-47
	Rating int    // 49-52 (0: unrated)
	Fed    string // 54-56
	ID     string // 58-68 (FIDE number)
	Birth  string // 70-79
	// Points in tenths of a point (81-84 written as "4.5").
	Points int
	Rank   int    // 86-89
	Games  []Game // one per round, from column 92, 10 columns each
}

// Game is one round of a player: opponent's start number (0: none),
// colour ('w', 'b' or '-') and result code.
type Game struct {
	Opponent int
	Colour   byte
	// Result: '1', '0', '=' (played); '+', '-' (forfeit won, lost); 'U'
	// pairing-allocated bye; 'F', 'H', 'Z' full-, half-, zero-point bye;
	// 'W', 'D', 'L' (unrated win, draw, loss); ' ' not yet played.
	Result byte
}

// Positions of the 001 fields (from 1, inclusive), as FIDE describes them.
const (
	colStart, colStartEnd   = 5, 8
	colSex                  = 10
	colTitle, colTitleEnd   = 11, 13
	colName, colNameEnd     = 15, 47
	colRating, colRatingEnd = 49, 52
	colFed, colFedEnd       = 54, 56
	colID, colIDEnd         = 58, 68
	colBirth, colBirthEnd   = 70, 79
	colPoints, colPointsEnd = 81, 84
	colRank, colRankEnd     = 86, 89
	colRound1               = 92 // round r's opponent at 92+10(r-1) .. +3, colour +5, result +7
)

// line builds a fixed-column line. Columns count characters (a name in
// any script keeps the fields after it in place).
type line []rune

func (l *line) put(from int, s string) {
	r := []rune(s)
	for len(*l) < from-1+len(r) {
		*l = append(*l, ' ')
	}
	copy((*l)[from-1:], r)
}

// putRight writes s right-aligned ending at column to.
func (l *line) putRight(to int, s string) { l.put(to-len([]rune(s))+1, s) }

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

// points formats tenths as "4.5".
func points(tenths int) string { return fmt.Sprintf("%d.%d", tenths/10, tenths%10) }

// Write writes f with LF line ends (readers accept CR, LF and CRLF).
func (f *File) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	head := func(code, v string) {
		if v != "" {
			fmt.Fprintf(bw, "%s %s\n", code, v)
		}
	}
	head("012", f.Name)
	head("022", f.City)
	head("032", f.Federation)
	head("042", f.Start)
	head("052", f.End)
	head("062", strconv.Itoa(len(f.Players)))
	rated := 0
	for _, p := range f.Players {
		if p.Rating > 0 {
			rated++
		}
	}
	head("072", strconv.Itoa(rated))
	head("092", f.Type)
	head("102", f.Arbiter)
	head("122", f.TimeControl)
	for _, p := range f.Players {
		var l line
		l.put(1, "001")
		l.putRight(colStartEnd, strconv.Itoa(p.Start))
		if p.Sex != 0 {
			l.put(colSex, string(p.Sex))
		}
		if p.Title != "" {
			l.putRight(colTitleEnd, clip(p.Title, 3))
		}
		l.put(colName, clip(p.Name, colNameEnd-colName+1))
		if p.Rating > 0 {
			l.putRight(colRatingEnd, strconv.Itoa(p.Rating))
		}
		l.put(colFed, clip(p.Fed, 3))
		if p.ID != "" {
			l.putRight(colIDEnd, clip(p.ID, colIDEnd-colID+1))
		}
		l.put(colBirth, clip(p.Birth, 10))
		l.putRight(colPointsEnd, points(p.Points))
		if p.Rank > 0 {
			l.putRight(colRankEnd, strconv.Itoa(p.Rank))
		}
		for r, g := range p.Games {
			at := colRound1 + 10*r
			opp := "0000"
			if g.Opponent > 0 {
				opp = strconv.Itoa(g.Opponent)
			}
			l.putRight(at+3, opp)
			l.put(at+5, string(g.Colour))
			l.put(at+7, string(g.Result))
		}
		bw.WriteString(string(trimRight(l)))
		bw.WriteByte('\n')
	}
	if f.Rounds > 0 {
		fmt.Fprintf(bw, "XXR %d\n", f.Rounds)
	}
	switch f.InitialColour {
	case 'w':
		bw.WriteString("XXC white1\n")
	case 'b':
		bw.WriteString("XXC black1\n")
	}
	for _, fp := range f.Forbidden {
		bw.WriteString("XXP")
		for _, n := range fp {
			fmt.Fprintf(bw, " %d", n)
		}
		bw.WriteByte('\n')
	}
	for _, o := range f.Other {
		bw.WriteString(o)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func trimRight(l line) line {
	for len(l) > 0 && l[len(l)-1] == ' ' {
		l = l[:len(l)-1]
	}
	return l
}

// Read parses a TRF file. Lines may end in CR, LF or CRLF; "###" lines
// are comments. Unknown codes are kept in Other.
func Read(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, 16<<20))
	if err != nil {
		return nil, err
	}
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	f := &File{}
	seen := map[int]bool{}
	for n, raw := range strings.Split(text, "\n") {
		ln := strings.TrimRight(raw, " \t")
		if ln == "" || strings.HasPrefix(ln, "###") {
			continue
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%w: line %d: %s", ErrSyntax, n+1, fmt.Sprintf(format, a...))
		}
		if len(ln) < 3 {
			return nil, bad("%q is not a TRF line", ln)
		}
		code, val := ln[:3], ""
		if len(ln) > 4 {
			val = strings.TrimSpace(ln[4:])
		}
		switch code {
		case "012":
			f.Name = val
		case "022":
			f.City = val
		case "032":
			f.Federation = val
		case "042":
			f.Start = val
		case "052":
			f.End = val
		case "092":
			f.Type = val
		case "102":
			f.Arbiter = val
		case "122":
			f.TimeControl = val
		case "062", "072", "082", "112", "132":
			// Derived (counts) or kept elsewhere: not needed to rebuild.
		case "XXR", "142":
			v, err := strconv.Atoi(val)
			if err != nil || v < 1 || v > 999 {
				return nil, bad("rounds %q", val)
			}
			f.Rounds = v
		case "XXC":
			for _, tok := range strings.Fields(val) {
				switch tok {
				case "white1":
					f.InitialColour = 'w'
				case "black1":
					f.InitialColour = 'b'
				}
			}
		case "XXP":
			var set []int
			for _, tok := range strings.Fields(val) {
				v, err := strconv.Atoi(tok)
				if err != nil || v < 1 {
					return nil, bad("forbidden pair %q", val)
				}
				set = append(set, v)
			}
			f.Forbidden = append(f.Forbidden, set)
		case "001":
			p, err := readPlayer(ln)
			if err != nil {
				return nil, bad("%v", err)
			}
			if seen[p.Start] {
				return nil, bad("start number %d twice", p.Start)
			}
			seen[p.Start] = true
			f.Players = append(f.Players, p)
		default:
			f.Other = append(f.Other, ln)
		}
	}
	if len(f.Players) == 0 {
		return nil, fmt.Errorf("%w: no players", ErrSyntax)
	}
	// Opponents must exist and agree.
	byStart := map[int]*Player{}
	for i := range f.Players {
		byStart[f.Players[i].Start] = &f.Players[i]
	}
	for _, p := range f.Players {
		for r, g := range p.Games {
			if g.Opponent == 0 {
				continue
			}
			o := byStart[g.Opponent]
			if o == nil || g.Opponent == p.Start {
				return nil, fmt.Errorf("%w: player %d round %d: no opponent %d", ErrSyntax, p.Start, r+1, g.Opponent)
			}
			if r >= len(o.Games) || o.Games[r].Opponent != p.Start {
				return nil, fmt.Errorf("%w: player %d round %d: opponent %d does not list them", ErrSyntax, p.Start, r+1, g.Opponent)
			}
		}
	}
	return f, nil
}

// field is columns from..to (from 1, inclusive) of ln, trimmed.
func field(ln []rune, from, to int) string {
	if from > len(ln) {
		return ""
	}
	return strings.TrimSpace(string(ln[from-1 : min(to, len(ln))]))
}

func readPlayer(text string) (Player, error) {
	ln := []rune(text)
	var p Player
	var err error
	if p.Start, err = strconv.Atoi(field(ln, colStart, colStartEnd)); err != nil || p.Start < 1 {
		return p, fmt.Errorf("start number %q", field(ln, colStart, colStartEnd))
	}
	if len(ln) >= colSex {
		if c := ln[colSex-1]; c != ' ' && c < 128 {
			p.Sex = byte(c)
		} else if c != ' ' {
			return p, fmt.Errorf("sex %q", c)
		}
	}
	p.Title = field(ln, colTitle, colTitleEnd)
	p.Name = field(ln, colName, colNameEnd)
	if v := field(ln, colRating, colRatingEnd); v != "" {
		if p.Rating, err = strconv.Atoi(v); err != nil || p.Rating < 0 {
			return p, fmt.Errorf("rating %q", v)
		}
	}
	p.Fed = field(ln, colFed, colFedEnd)
	p.ID = field(ln, colID, colIDEnd)
	p.Birth = field(ln, colBirth, colBirthEnd)
	if v := field(ln, colPoints, colPointsEnd); v != "" {
		whole, frac, _ := strings.Cut(v, ".")
		w, err1 := strconv.Atoi(whole)
		fr := 0
		var err2 error
		if frac != "" {
			fr, err2 = strconv.Atoi(frac)
		}
		if err1 != nil || err2 != nil || len(frac) > 1 || w < 0 || fr < 0 {
			return p, fmt.Errorf("points %q", v)
		}
		p.Points = 10*w + fr
	}
	if v := field(ln, colRank, colRankEnd); v != "" {
		if p.Rank, err = strconv.Atoi(v); err != nil {
			return p, fmt.Errorf("rank %q", v)
		}
	}
	for at := colRound1; at <= len(ln); at += 10 {
		opp := field(ln, at, at+3)
		g := Game{Colour: '-', Result: ' '}
		var c, res rune = '-', ' '
		if len(ln) >= at+5 {
			c = ln[at+4]
		}
		if len(ln) >= at+7 {
			res = ln[at+6]
		}
		if c >= 128 || res >= 128 {
			return p, fmt.Errorf("round %d: %q %q", len(p.Games)+1, c, res)
		}
		g.Colour, g.Result = byte(c), byte(res)
		if opp == "" && g.Result == ' ' && (g.Colour == ' ' || g.Colour == '-') {
			p.Games = append(p.Games, Game{Colour: '-', Result: ' '})
			continue
		}
		if opp != "" {
			if g.Opponent, err = strconv.Atoi(opp); err != nil || g.Opponent < 0 {
				return p, fmt.Errorf("round %d opponent %q", len(p.Games)+1, opp)
			}
		}
		if g.Colour == ' ' {
			g.Colour = '-'
		}
		if !strings.ContainsRune("wb-", rune(g.Colour)) {
			return p, fmt.Errorf("round %d colour %q", len(p.Games)+1, g.Colour)
		}
		if !strings.ContainsRune("10=+-UFHZWDL ", rune(g.Result)) {
			return p, fmt.Errorf("round %d result %q", len(p.Games)+1, g.Result)
		}
		if g.Opponent == 0 && g.Result != ' ' && !strings.ContainsRune("UFHZ-+", rune(g.Result)) {
			return p, fmt.Errorf("round %d: result %q without an opponent", len(p.Games)+1, g.Result)
		}
		p.Games = append(p.Games, g)
	}
	// Trailing unplayed rounds say nothing.
	for len(p.Games) > 0 {
		g := p.Games[len(p.Games)-1]
		if g.Opponent != 0 || g.Result != ' ' {
			break
		}
		p.Games = p.Games[:len(p.Games)-1]
	}
	return p, nil
}
