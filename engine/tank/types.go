package tank

import "github.com/tankbot/tankbot/engine"

// This file fixes the exported vocabulary of Tank Chess that the renderer and
// the bot build on. The rules themselves live beside it.

// Dir is one of the 8 compass directions, clockwise from north. N is towards
// higher ranks, E towards later files.
type Dir uint8

const (
	N Dir = iota
	NE
	E
	SE
	S
	SW
	W
	NW
)

// Delta returns the (file, rank) step of one square in direction d.
func (d Dir) Delta() (df, dr int) { return dirDF[d&7], dirDR[d&7] }

// Opposite is the direction turned by 180°.
func (d Dir) Opposite() Dir { return (d + 4) & 7 }

// Left and Right turn by 45°.
func (d Dir) Left() Dir  { return (d + 7) & 7 }
func (d Dir) Right() Dir { return (d + 1) & 7 }

// Diagonal reports whether d is NE, SE, SW or NW.
func (d Dir) Diagonal() bool { return d&1 == 1 }

var (
	dirDF    = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	dirDR    = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	dirNames = [8]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
)

// String is the upper-case name used in move notation ("NE").
func (d Dir) String() string { return dirNames[d&7] }

// Kind is a piece type. The zero Kind means "no piece".
type Kind uint8

const (
	None Kind = iota
	CLT       // Command Light Tank
	LT        // Light Tank
	MT        // Medium Tank
	HT        // Heavy Tank
	TD        // Tank Destroyer
	HM        // Heavy Mortar
)

// Stats are a piece type's numbers from the rules' §2 table.
type Stats struct {
	Code                   byte   // TFEN letter (upper case)
	Short                  string // "CLT", "LT", ...
	Speed                  int
	Front, Side, Rear, Gun int
	Turret                 bool // fires on 3 rays (else facing only)
	Indirect               bool // mortar: range 3-5 over anything
}

var kindStats = [...]Stats{
	None: {},
	CLT:  {Code: 'C', Short: "CLT", Speed: 5, Front: 1, Side: 0, Rear: 0, Gun: 1, Turret: true},
	LT:   {Code: 'L', Short: "LT", Speed: 5, Front: 1, Side: 0, Rear: 0, Gun: 1, Turret: true},
	MT:   {Code: 'M', Short: "MT", Speed: 4, Front: 2, Side: 1, Rear: 0, Gun: 2, Turret: true},
	HT:   {Code: 'H', Short: "HT", Speed: 3, Front: 3, Side: 2, Rear: 1, Gun: 3, Turret: true},
	TD:   {Code: 'D', Short: "TD", Speed: 4, Front: 2, Side: 1, Rear: 0, Gun: 4},
	HM:   {Code: 'R', Short: "HM", Speed: 3, Front: 1, Side: 0, Rear: 0, Gun: 5, Indirect: true},
}

// Stats returns the piece type's numbers.
func (k Kind) Stats() Stats {
	if int(k) >= len(kindStats) {
		return Stats{}
	}
	return kindStats[k]
}

func (k Kind) String() string { return k.Stats().Short }

// Kinds lists the six piece types.
var Kinds = []Kind{CLT, LT, MT, HT, TD, HM}

// Square is a board square, 0-based: File 0 is 'a', Rank 0 is rank 1.
type Square struct{ File, Rank int }

// Piece is a tank on the board, alive or wrecked.
type Piece struct {
	Kind   Kind
	Side   engine.Side
	Facing Dir
	Wreck  bool
}

// Cell is what one square holds. An empty square has Obstacle false and
// Piece.Kind None.
type Cell struct {
	Obstacle bool
	Piece    Piece
}

// Empty reports whether nothing stands on the square.
func (c Cell) Empty() bool { return !c.Obstacle && c.Piece.Kind == None }

// Move is one legal tank move, identified per rules §3/§11 by (From, To,
// Facing, Target). An escape is From plus Escape; To and Facing are then
// meaningless.
type Move struct {
	From, To  Square
	Facing    Dir
	Target    Square
	HasTarget bool
	Escape    bool
}

// Line is a line of fire or an escape route from one square to another, for
// announcements and drawing. Indirect marks a mortar's arc. For an escape
// route To is the off-board square beyond the back edge.
type Line struct {
	From, To Square
	Indirect bool
}
