// Package describetest rebuilds a position from its English alt text
// (bot/describe's Alt), knowing only the catalog's words: tests that read
// a game through its pictures' alt texts alone check with it that the
// words hold the whole position.
package describetest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// parsed is what an alt text says of a position.
type parsed struct {
	moveNo  int
	turn    string // "w", "b", "" when the text does not say (game over)
	mover   string // the side of the last move, from "Last move:"
	escaped bool
	squares map[string][]string // square → tokens bottom first ("Hn", "xlse", "P")
	hands   [2]map[string]int
	ready   [2]bool
	castles [2]int
	draft   bool
}

var sideWords = map[string]int{"White": 0, "Black": 1}

// kindCodes maps the English kind words to the position strings' letters.
func kindCodes(game string) map[string]string {
	m := map[string]string{}
	en := func(k string) string { return i18n.T(i18n.English, k) }
	switch game {
	case "tank":
		for _, k := range tank.Kinds {
			m[en("a11y.tank."+k.String())] = string(k.Stats().Code)
		}
	case "camelot":
		m[en("a11y.camelot.knight")], m[en("a11y.camelot.man")] = "K", "M"
	case "gungi":
		for _, k := range gungi.Kinds {
			m[en("gungi.piece."+string(k.Letter()))] = string(k.Letter())
		}
	}
	return m
}

var dirWords = map[string]string{"north": "n", "north-east": "ne", "east": "e", "south-east": "se", "south": "s", "south-west": "sw", "west": "w", "north-west": "nw"}

func token(code string, side int, wreck bool, facing string) string {
	if side == 1 {
		code = strings.ToLower(code)
	}
	if wreck {
		code = "x" + code
	}
	return code + facing
}

// sectionRE cuts the text at the known section openings.
var (
	sectionRE = regexp.MustCompile(`(White|Black): |Towers, bottom to top: |(White|Black) in hand: |(White|Black) has nothing in hand\.|Draft: |Castle moves made: `)
	moveNoRE  = regexp.MustCompile(`move (\d+)\.`)
	turnRE    = regexp.MustCompile(`(White|Black) to move\.`)
	moverRE   = regexp.MustCompile(`Last move: (White|Black|As )`)
)

func parse(game, alt string) (p parsed, err error) {
	p = parsed{squares: map[string][]string{}, hands: [2]map[string]int{{}, {}}}
	if m := moveNoRE.FindStringSubmatch(alt); m != nil {
		p.moveNo, _ = strconv.Atoi(m[1])
	}
	if m := turnRE.FindStringSubmatch(alt); m != nil {
		p.turn = map[string]string{"White": "w", "Black": "b"}[m[1]]
	}
	if m := moverRE.FindStringSubmatch(alt); m != nil {
		p.mover = map[string]string{"White": "w", "Black": "b"}[m[1]]
	}
	p.escaped = strings.Contains(alt, "the CLT escaped")
	codes := kindCodes(game)
	// kindAt finds the longest kind name s starts with.
	kindAt := func(s string) (code string, wreck bool, rest string, err error) {
		if strings.HasPrefix(s, "wrecked ") {
			wreck, s = true, s[len("wrecked "):]
		}
		best := ""
		for name := range codes {
			if strings.HasPrefix(s, name) && len(name) > len(best) {
				best = name
			}
		}
		if best == "" {
			return "", false, "", fmt.Errorf("no kind at %q", s)
		}
		return codes[best], wreck, strings.TrimSpace(s[len(best):]), nil
	}
	idx := sectionRE.FindAllStringSubmatchIndex(alt, -1)
	for i, m := range idx {
		end := len(alt)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		head := alt[m[0]:m[1]]
		body := strings.TrimSuffix(strings.TrimSpace(alt[m[1]:end]), ".")
		switch {
		case strings.HasSuffix(head, "in hand: "):
			side := sideWords[strings.Fields(head)[0]]
			for _, it := range strings.Split(body, ", ") {
				n, name, _ := strings.Cut(it, " ")
				c, _, _, err := kindAt(name)
				if err != nil {
					return p, err
				}
				p.hands[side][c], _ = strconv.Atoi(n)
			}
		case strings.HasSuffix(head, "nothing in hand."):
		case head == "Draft: ":
			p.draft = true
			for _, it := range strings.Split(body, ", ") {
				f := strings.Fields(it)
				if len(f) < 2 {
					return p, fmt.Errorf("draft %q", it)
				}
				p.ready[sideWords[f[0]]] = f[1] == "ready"
			}
		case head == "Castle moves made: ":
			for _, it := range strings.Split(body, ", ") {
				f := strings.Fields(it)
				if len(f) < 2 {
					return p, fmt.Errorf("castle moves %q", it)
				}
				p.castles[sideWords[f[0]]], _ = strconv.Atoi(f[1])
			}
		case head == "Towers, bottom to top: ":
			for _, tw := range strings.Split(body, "; ") {
				sq, tiers, _ := strings.Cut(tw, " ")
				for _, run := range strings.Split(tiers, ", ") { // "White Pawn and General"
					side, kinds, _ := strings.Cut(run, " ")
					for _, kind := range strings.Split(kinds, " and ") {
						c, _, _, err := kindAt(kind)
						if err != nil {
							return p, err
						}
						p.squares[sq] = append(p.squares[sq], token(c, sideWords[side], false, ""))
					}
				}
			}
		default: // a side's pieces
			side := sideWords[strings.TrimSuffix(head, ": ")]
			if body == "no pieces on the board" {
				continue
			}
			for _, g := range strings.Split(body, "; ") {
				c, wreck, items, err := kindAt(g)
				if err != nil {
					return p, err
				}
				for _, it := range strings.Split(items, ", ") {
					f := strings.Fields(it)
					if len(f) == 0 {
						return p, fmt.Errorf("no square in %q", g)
					}
					facing := ""
					if len(f) > 1 {
						facing = dirWords[f[1]]
					}
					p.squares[f[0]] = append(p.squares[f[0]], token(c, side, wreck, facing))
				}
			}
		}
	}
	return p, nil
}

// Reconstruct rebuilds the encoding of the position an English alt text
// describes; terrain is the game's start (Tank Chess's obstacles come from
// the map the text names, Camelot's outline from its board). The caller
// decodes it (checking it is a position) and compares.
func Reconstruct(game, alt string, terrain engine.Position) (string, error) {
	p, err := parse(game, alt)
	if err != nil {
		return "", err
	}
	turn := p.turn
	if turn == "" { // a finished game: the loser of the last move is to move
		turn = map[string]string{"w": "b", "b": "w"}[p.mover]
	}
	var rows []string
	switch game {
	case "tank":
		tp, ok := terrain.(*tank.Position)
		if !ok {
			return "", fmt.Errorf("terrain %T is not a Tank Chess position", terrain)
		}
		for r := tp.Height() - 1; r >= 0; r-- {
			var sb strings.Builder
			for f := 0; f < tp.Width(); f++ {
				sq := tank.Square{File: f, Rank: r}
				switch {
				case tp.At(sq).Obstacle:
					sb.WriteByte('#')
				case len(p.squares[sq.String()]) == 1:
					sb.WriteString(p.squares[sq.String()][0])
				default:
					sb.WriteByte('.')
				}
			}
			rows = append(rows, sb.String())
		}
		s := strings.Join(rows, "/") + " " + turn + " " + strconv.Itoa(p.moveNo)
		if p.escaped {
			s += " escaped"
		}
		return s, nil
	case "gungi":
		for r := 8; r >= 0; r-- {
			var sb strings.Builder
			for f := 0; f < 9; f++ {
				tw := p.squares[gungi.Sq(f, r).String()]
				switch len(tw) {
				case 0:
					sb.WriteByte('.')
				case 1:
					sb.WriteString(tw[0])
				default:
					sb.WriteString("(" + strings.Join(tw, "") + ")")
				}
			}
			rows = append(rows, sb.String())
		}
		ready := map[[2]bool]string{{false, false}: "-", {true, false}: "w", {false, true}: "b", {true, true}: "wb"}[p.ready]
		if !p.draft {
			ready = "wb"
		}
		hand := func(s int) string {
			var sb strings.Builder
			for _, k := range gungi.Kinds {
				if n := p.hands[s][string(k.Letter())]; n > 0 {
					sb.WriteString(string(k.Letter()) + strconv.Itoa(n))
				}
			}
			if sb.Len() == 0 {
				return "-"
			}
			return sb.String()
		}
		return strings.Join(rows, "/") + " " + turn + " " + ready + " " + hand(0) + "/" + hand(1) + " " + strconv.Itoa(p.moveNo), nil
	case "camelot":
		cp, ok := terrain.(*camelot.Position)
		if !ok {
			return "", fmt.Errorf("terrain %T is not a Camelot position", terrain)
		}
		outline := strings.Split(strings.Fields(cp.Encode())[0], "/")
		if len(outline) != 16 {
			return "", fmt.Errorf("camelot board of %d ranks", len(outline))
		}
		for r := 15; r >= 0; r-- {
			n := len(outline[15-r])
			start := (12 - n) / 2
			var sb strings.Builder
			for f := start; f < start+n; f++ {
				name := string(rune('A'+f)) + strconv.Itoa(r+1)
				if tw := p.squares[name]; len(tw) == 1 {
					sb.WriteString(tw[0])
				} else {
					sb.WriteByte('.')
				}
			}
			rows = append(rows, sb.String())
		}
		return strings.Join(rows, "/") + " " + turn + " " + strconv.Itoa(p.castles[0]) + strconv.Itoa(p.castles[1]) + " " + strconv.Itoa(p.moveNo), nil
	}
	return "", fmt.Errorf("game %q", game)
}
