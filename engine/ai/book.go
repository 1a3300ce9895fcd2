package ai

import (
	"embed"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/tankbot/tankbot/engine"
)

// The opening books (books/<game>.txt) were built from self-play by
// `tankbot book` (docs/ai.md): each line is a position, a move played from
// it and how often that move was played there by a side that then scored
// at least half the points. Levels 3 and up play a book move, chosen at
// random (seeded) in proportion to those counts, whenever the position is
// in their game's book.
//
//go:embed books/*.txt
var bookFiles embed.FS

// BookMinLevel is the lowest level that plays from the book: weaker
// levels keep their own (noisy) openings.
const BookMinLevel = 3

type bookLine struct {
	move  string
	count int
}

var (
	bookOnce sync.Once
	bookText map[string]string // game -> the file's text
	bookMu   sync.Mutex
	bookMaps = map[string]map[uint64][]bookLine{} // game -> position hash -> moves
)

// bookFor is game's book keyed by the searcher hash of each position,
// decoded on first use with r.
func bookFor(r engine.Rules) map[uint64][]bookLine {
	bookOnce.Do(func() {
		bookText = map[string]string{}
		ents, _ := bookFiles.ReadDir("books")
		for _, e := range ents {
			if data, err := bookFiles.ReadFile("books/" + e.Name()); err == nil {
				bookText[strings.TrimSuffix(e.Name(), ".txt")] = string(data)
			}
		}
	})
	bookMu.Lock()
	defer bookMu.Unlock()
	name := r.Name()
	if m, ok := bookMaps[name]; ok {
		return m
	}
	m := map[uint64][]bookLine{}
	for _, line := range strings.Split(bookText[name], "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n <= 0 {
			continue
		}
		p, err := r.Decode(f[0])
		if err != nil {
			continue // a book of another version of the rules: the line is skipped
		}
		sp, ok := p.(engine.Searchable)
		if !ok {
			continue
		}
		h := sp.NewSearcher().Hash()
		m[h] = append(m[h], bookLine{f[1], n})
	}
	bookMaps[name] = m
	return m
}

// BookMove returns a move of pos's opening book, chosen with seed, or
// false when pos is not in the book (or its book move is not legal there:
// a hash collision or a stale book).
func BookMove(pos engine.Position, seed int64) (engine.Move, bool) {
	sp, ok := pos.(engine.Searchable)
	if !ok {
		return nil, false
	}
	lines := bookFor(pos.Rules())[sp.NewSearcher().Hash()]
	total := 0
	for _, l := range lines {
		total += l.count
	}
	if total == 0 {
		return nil, false
	}
	k := rand.New(rand.NewPCG(uint64(seed), 0xb00c)).IntN(total)
	for _, l := range lines {
		if k -= l.count; k < 0 {
			m, err := pos.ParseMove(l.move)
			if err != nil {
				return nil, false
			}
			if _, err := pos.Play(m); err != nil {
				return nil, false
			}
			return m, true
		}
	}
	return nil, false
}
