package console

import (
	"fmt"
	"strings"

	"github.com/tankbot/tankbot/engine/games"
)

// TextBoard draws a row-encoded position of game (TFEN, CFEN, GFEN: ranks
// from the top separated by "/", then the rest) as a grid with coordinates.
// A square's token is "." or "#", a piece letter (tank: with its facing
// letters and an "x" wreck prefix), or a Gungi tower "(GL)" bottom to top;
// rows it cannot split are printed as they are.
func TextBoard(game, encoded string) string {
	rows, rest, _ := strings.Cut(encoded, " ")
	ranks := strings.Split(rows, "/")
	split := make([][]string, len(ranks))
	width := 0
	for i, rk := range ranks {
		if toks, ok := tokens(rk, game == "tank"); ok {
			split[i] = toks
			width = max(width, len(toks))
		}
	}
	var sb strings.Builder
	for i, toks := range split {
		if toks == nil {
			fmt.Fprintf(&sb, "%3d  %s\n", len(ranks)-i, ranks[i])
			continue
		}
		fmt.Fprintf(&sb, "%3d ", len(ranks)-i)
		// A row shorter than the board lists only its existing squares,
		// which are centred (Camelot's CFEN: the castle squares F and G
		// of ranks 1 and 16 stand under files f and g).
		sb.WriteString(strings.Repeat(" ", 4*((width-len(toks))/2)))
		for _, t := range toks {
			fmt.Fprintf(&sb, "%4s", t)
		}
		sb.WriteString("\n")
	}
	if width > 0 {
		sb.WriteString("    ")
		for f := 0; f < width; f++ {
			fmt.Fprintf(&sb, "%4c", 'a'+f)
		}
		sb.WriteString("\n")
	}
	if rest != "" {
		sb.WriteString("    " + rest + "\n")
	}
	return sb.String()
}

// Legend says how to read game's text board (its descriptor's notation
// key); "" when the game has none.
func Legend(game string) string {
	d, ok := games.Describe(game)
	if !ok || d.Legend == "" {
		return ""
	}
	return "    key: " + d.Legend + "\n"
}

func tokens(rank string, tank bool) ([]string, bool) {
	var out []string
	for i := 0; i < len(rank); {
		ch := rank[i]
		switch {
		case ch == '.' || ch == '#':
			out = append(out, string(ch))
			i++
			continue
		case ch == '(' && !tank:
			end := strings.IndexByte(rank[i:], ')')
			if end < 0 {
				return nil, false
			}
			out = append(out, rank[i:i+end+1])
			i += end + 1
			continue
		}
		j := i
		if ch == 'x' && tank {
			j++
		}
		if j >= len(rank) || !isPieceLetter(rank[j], tank) {
			return nil, false
		}
		j++
		for tank && j < len(rank) && strings.IndexByte("nesw", rank[j]) >= 0 {
			j++
		}
		out = append(out, rank[i:j])
		i = j
	}
	return out, true
}

func isPieceLetter(b byte, tank bool) bool {
	if !tank {
		return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z'
	}
	return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' && strings.IndexByte("nesw", b) < 0 && b != 'x'
}
