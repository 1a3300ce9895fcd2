package console

import (
	"fmt"
	"strings"
)

// TextBoard draws a row-encoded position of game (TFEN, CFEN, GFEN: ranks
// from the top separated by "/", then the rest) as a grid with coordinates.
// A square's token is "." or "#", a piece letter (tank: with its facing
// letters and an "x" wreck prefix), or a Gungi tower "(GL)" bottom to top;
// rows it cannot split are printed as they are.
func TextBoard(game, encoded string) string {
	rows, rest, _ := strings.Cut(encoded, " ")
	ranks := strings.Split(rows, "/")
	var sb strings.Builder
	width := 0
	for i, rk := range ranks {
		toks, ok := tokens(rk, game == "tank")
		if !ok {
			fmt.Fprintf(&sb, "%3d  %s\n", len(ranks)-i, rk)
			continue
		}
		width = max(width, len(toks))
		fmt.Fprintf(&sb, "%3d ", len(ranks)-i)
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
