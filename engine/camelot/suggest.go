package camelot

import "sort"

// nearest are the legal moves closest to a written one that names a wrong
// square (no piece there, or not the mover's), as Tank Chess offers "Did
// you mean": moves from squares near from first, then ending near to.
func nearest(legal []Move, from, to int) []string {
	dist := func(a, b int) int { return max(abs(a%files-b%files), abs(a/files-b/files)) }
	ms := append([]Move(nil), legal...)
	score := func(m Move) int { return 100*dist(int(m.from), from) + dist(int(m.to), to) }
	sort.SliceStable(ms, func(i, j int) bool { return score(ms[i]) < score(ms[j]) })
	return names(ms[:min(len(ms), 5)])
}
