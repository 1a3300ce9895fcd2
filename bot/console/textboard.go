package console

import (
	"fmt"
	"strings"
)

// TextBoard draws a row-encoded position (TFEN and its kin: ranks from the
// top separated by "/", then the side to move) as a grid with coordinates.
// A square's token is "." or "#", or a piece letter with optional facing
// letters and an "x" wreck prefix; rows it cannot split are printed as they
// are.
func TextBoard(encoded string) string {
	rows, rest, _ := strings.Cut(encoded, " ")
	ranks := strings.Split(rows, "/")
	var sb strings.Builder
	width := 0
	for i, rk := range ranks {
		toks, ok := tokens(rk)
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

func tokens(rank string) ([]string, bool) {
	var out []string
	for i := 0; i < len(rank); {
		ch := rank[i]
		switch {
		case ch == '.' || ch == '#':
			out = append(out, string(ch))
			i++
			continue
		}
		j := i
		if ch == 'x' {
			j++
		}
		if j >= len(rank) || !isPieceLetter(rank[j]) {
			return nil, false
		}
		j++
		for j < len(rank) && strings.IndexByte("nesw", rank[j]) >= 0 {
			j++
		}
		out = append(out, rank[i:j])
		i = j
	}
	return out, true
}

func isPieceLetter(b byte) bool {
	return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' && strings.IndexByte("nesw", b) < 0 && b != 'x'
}
