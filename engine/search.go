package engine

// Searchable is implemented by positions whose game offers a fast internal
// search interface (engine/ai uses it instead of the boxed LegalMoves/Play
// path, which allocates per move).
type Searchable interface {
	// NewSearcher returns a mutable searcher rooted at this position. It
	// belongs to one goroutine; the position itself is not changed.
	NewSearcher() Searcher
}

// Searcher walks a game tree with make/unmake. Moves are addressed by their
// index in the list generated at the current ply; Make(i) descends into move
// i of that list and Unmake climbs back.
type Searcher interface {
	// Turn is the side to move at the current node.
	Turn() Side
	// Over is the outcome the board decides without generating moves
	// (tank: CLT destroyed or escaped; camelot: castle taken, all
	// captured), Ongoing otherwise.
	Over() Result
	// Generate lists the legal moves of the current node and returns how
	// many there are. A side without moves loses or draws per NoMoves.
	Generate() int
	// NoMoves is the result when the side to move has no legal move.
	NoMoves() Result
	// Gain is an ordering hint for move i: the material it wins at once
	// (with a large value for a move that ends the game in the mover's
	// favour), 0 for a quiet move. Quiescence searches moves with Gain > 0.
	Gain(i int) int
	// Key identifies move i across positions (killer and history tables).
	Key(i int) uint32
	// Make plays move i of the current list; Unmake takes back the last Make.
	Make(i int)
	Unmake()
	// Hash is a 64-bit key of the current node (board, side to move and
	// everything else the game's repetition rule counts).
	Hash() uint64
	// Evaluate scores the current node for the side to move, in
	// centi-pawns of the game's own scale (a man, a pawn, a light tank ≈ 100).
	Evaluate() int
	// Move exports move i of the current list.
	Move(i int) Move
}

// Planner is implemented by positions where a game phase is better played
// by a plan than by search (Gungi's draft). PlanMove returns the move to
// play and true, or false when search should decide. seed makes the choice
// reproducible.
type Planner interface {
	PlanMove(seed int64) (Move, bool)
}

// SearchPlies is the deepest a Searcher needs to go: engine/ai searches at
// most 64 plies plus quiescence and its exact two-ply pass.
const SearchPlies = 128

// CopyMake is the state of a copy-make Searcher (positions that are plain
// values, cheap to copy): the position at each ply and the moves generated
// there. Embedding it gives Unmake.
type CopyMake[P, M any] struct {
	Stack [SearchPlies]P
	Lists [SearchPlies][]M
	Ply   int
}

// Pos is the position at the current ply.
func (c *CopyMake[P, M]) Pos() *P { return &c.Stack[c.Ply] }

// At is move i of the list generated at the current ply.
func (c *CopyMake[P, M]) At(i int) *M { return &c.Lists[c.Ply][i] }

// Push copies the current position one ply up and returns the copy, to be
// changed by the move.
func (c *CopyMake[P, M]) Push() *P {
	c.Stack[c.Ply+1] = c.Stack[c.Ply]
	c.Ply++
	return &c.Stack[c.Ply]
}

// Unmake returns to the previous ply.
func (c *CopyMake[P, M]) Unmake() { c.Ply-- }
