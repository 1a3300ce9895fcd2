package puzzle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// Puzzle is one position with its proven solution.
type Puzzle struct {
	ID       string   // game letter and a hash of the position: "t3f9a2c1d"
	Game     string   // "tank", "camelot", "gungi"
	Depth    int      // solver moves
	Position string   // TFEN / CFEN / GFEN, the solver to move
	Solution []string // solver and defender moves alternating, solver first and last
	// Difficulty is 1 (easiest) to 5, from the depth, quiet moves and
	// sacrifices; Rating is the puzzle's starting Glicko-2 rating from it.
	Difficulty int
	Rating     int
	Themes     []string
	Source     string // where the position came from: "selfplay:SEED:GAME:PLY"
}

// Decode reads the puzzle's position with its game's rules.
func (p *Puzzle) Decode() (engine.Position, error) {
	r, err := rulesOf(p.Game)
	if err != nil {
		return nil, err
	}
	pos, err := r.Decode(p.Position)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	return pos, nil
}

// SolverMoves are the solver's moves of the solution.
func (p *Puzzle) SolverMoves() []string {
	var out []string
	for i := 0; i < len(p.Solution); i += 2 {
		out = append(out, p.Solution[i])
	}
	return out
}

// MakeID names a puzzle by its game and position, so that the same position
// gets the same id in every run.
func MakeID(game, position string) string {
	h := sha256.Sum256([]byte(game + "\n" + position))
	return game[:1] + hex.EncodeToString(h[:4])
}

// ratingBase and ratingStep map a difficulty to a starting rating.
const (
	ratingBase = 1100
	ratingStep = 200
)

// InitialRating is the starting puzzle rating of a difficulty (1..5):
// 1100 to 1900 in steps of 200, so that difficulty 3 meets a new player's
// 1500.
func InitialRating(difficulty int) int {
	return ratingBase + ratingStep*(max(1, min(5, difficulty))-1)
}

// stepInfo is what the theme detector knows about one move of a line.
type stepInfo struct {
	solver bool
	gain   int // material the move takes (the game's own Gain)
	move   engine.Move
	before engine.Position
	after  engine.Position
}

// walk replays a solution through the searcher and the boxed positions.
func walk(pos engine.Position, line []string) ([]stepInfo, error) {
	sp, ok := pos.(engine.Searchable)
	if !ok {
		return nil, ErrNoSearch
	}
	s := sp.NewSearcher()
	var out []stepInfo
	cur := pos
	for k, note := range line {
		idx, err := indexOf(s, cur, note)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", k+1, note, err)
		}
		m := s.Move(idx)
		next, err := cur.Play(m)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", k+1, note, err)
		}
		out = append(out, stepInfo{solver: k%2 == 0, gain: s.Gain(idx), move: m, before: cur, after: next})
		s.Make(idx)
		cur = next
	}
	return out, nil
}

// indexOf finds the move written note in the searcher's current list.
func indexOf(s engine.Searcher, pos engine.Position, note string) (int, error) {
	want, err := pos.ParseMove(note)
	if err != nil {
		return -1, err
	}
	w := pos.FormatMove(want)
	n := s.Generate()
	for i := range n {
		if pos.FormatMove(s.Move(i)) == w {
			return i, nil
		}
	}
	return -1, fmt.Errorf("%s is not in the search's move list", w)
}

// describe fills the themes, difficulty, rating and id of a found puzzle.
func describe(pz *Puzzle, draft bool) error {
	r, err := rulesOf(pz.Game)
	if err != nil {
		return err
	}
	pos, err := r.Decode(pz.Position)
	if err != nil {
		return err
	}
	steps, err := walk(pos, pz.Solution)
	if err != nil {
		return err
	}
	pz.ID = MakeID(pz.Game, pz.Position)
	pz.Themes = themes(steps, draft)
	pz.Difficulty = difficulty(pz.Depth, pz.Themes)
	pz.Rating = InitialRating(pz.Difficulty)
	return nil
}

// rulesOf is a game's rules from the game registry (engine/games): the
// puzzles know every game it lists and no other.
func rulesOf(game string) (engine.Rules, error) {
	r, err := games.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("puzzle: unknown game %q", game)
	}
	return r, nil
}

// difficulty: one point per solver move, one more for a quiet move (no
// capture, no check) before the last, one more for a sacrifice; 1..5.
func difficulty(depth int, themes []string) int {
	d := depth
	if slices.Contains(themes, "quiet") {
		d++
	}
	if slices.Contains(themes, "sacrifice") {
		d++
	}
	return max(1, min(5, d))
}

// Header is the first line of a collection file.
const Header = "# id\tdepth\tposition\tsolution\tdifficulty\trating\tthemes\tsource"

// MoveSep separates the moves of a solution in files and listings (no
// game's notation uses it).
const MoveSep = "; "

// Line is the puzzle as one line of a collection file.
func (p *Puzzle) Line() string {
	return strings.Join([]string{p.ID, strconv.Itoa(p.Depth), p.Position, strings.Join(p.Solution, MoveSep),
		strconv.Itoa(p.Difficulty), strconv.Itoa(p.Rating), strings.Join(p.Themes, ","), p.Source}, "\t")
}

// ParseLine reads a line written by Line for game.
func ParseLine(game, line string) (*Puzzle, error) {
	f := strings.Split(line, "\t")
	if len(f) != 8 {
		return nil, fmt.Errorf("puzzle line has %d tab-separated fields, want 8", len(f))
	}
	p := &Puzzle{ID: f[0], Game: game, Position: f[2], Source: f[7]}
	var err error
	if p.Depth, err = strconv.Atoi(f[1]); err != nil || p.Depth < 1 || p.Depth > MaxDepth {
		return nil, fmt.Errorf("puzzle %s: depth %q is not 1..%d", f[0], f[1], MaxDepth)
	}
	if f[3] == "" {
		return nil, fmt.Errorf("puzzle %s: empty solution", f[0])
	}
	p.Solution = strings.Split(f[3], MoveSep)
	if len(p.Solution) != 2*p.Depth-1 {
		return nil, fmt.Errorf("puzzle %s: %d moves in the solution, depth %d needs %d", f[0], len(p.Solution), p.Depth, 2*p.Depth-1)
	}
	if p.Difficulty, err = strconv.Atoi(f[4]); err != nil || p.Difficulty < 1 || p.Difficulty > 5 {
		return nil, fmt.Errorf("puzzle %s: difficulty %q is not 1..5", f[0], f[4])
	}
	if p.Rating, err = strconv.Atoi(f[5]); err != nil {
		return nil, fmt.Errorf("puzzle %s: rating %q: %w", f[0], f[5], err)
	}
	if f[6] != "" {
		p.Themes = strings.Split(f[6], ",")
	}
	return p, nil
}

// ParseFile reads a collection file: the header, comment lines (#) and one
// puzzle a line.
func ParseFile(game, data string) ([]*Puzzle, error) {
	var out []*Puzzle
	seen := map[string]bool{}
	for n, l := range strings.Split(data, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p, err := ParseLine(game, l)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("line %d: puzzle %s twice", n+1, p.ID)
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out, nil
}
