package puzzle

import (
	"strconv"
	"strings"
)

// Curator applies the collection's rules to candidate puzzles, in the
// order they come: a trivial puzzle (Trivial) is refused, so is one from
// the opening of a game (before MinPly), one whose solution an earlier
// puzzle already has (DedupKey), and one past PerGame puzzles from its
// game of origin. Refused counts the refusals by reason.
type Curator struct {
	MinPly      int
	PerGame     int
	KeepTrivial bool
	Refused     map[string]int
	keys        map[string]bool
	origins     map[string]int
}

// Refusal reasons besides the triviality ones.
const (
	RefuseOpening  = "opening"
	RefuseSame     = "same-solution"
	RefuseSameGame = "game-of-origin-full"
)

// Admit re-describes pz (themes from the current detector) and reports
// whether it joins the collection; when not, the reasons why.
func (c *Curator) Admit(pz *Puzzle) (bool, []string, error) {
	if c.keys == nil {
		c.keys, c.origins = map[string]bool{}, map[string]int{}
	}
	if c.Refused == nil {
		c.Refused = map[string]int{}
	}
	refuse := func(why ...string) (bool, []string, error) {
		for _, w := range why {
			c.Refused[w]++
		}
		return false, why, nil
	}
	draft := hasTheme(pz, "draft")
	if err := describe(pz, draft); err != nil {
		return false, nil, err
	}
	if ply, ok := SourcePly(pz.Source); ok && ply < c.MinPly {
		return refuse(RefuseOpening)
	}
	if !c.KeepTrivial {
		why, err := Trivial(pz)
		if err != nil {
			return false, nil, err
		}
		if len(why) > 0 {
			return refuse(why...)
		}
	}
	k := DedupKey(pz)
	if c.keys[k] {
		return refuse(RefuseSame)
	}
	o := OriginGame(pz.Source)
	if c.PerGame > 0 && c.origins[o] >= c.PerGame {
		return refuse(RefuseSameGame)
	}
	c.keys[k] = true
	c.origins[o]++
	return true, nil, nil
}

// SourcePly is the ply of the game's position a source names
// ("selfplay:2026:4:17:F3-F4" → 17).
func SourcePly(source string) (int, bool) {
	parts := strings.SplitN(source, ":", 5)
	if len(parts) < 4 {
		return 0, false
	}
	n, err := strconv.Atoi(parts[3])
	return n, err == nil
}
