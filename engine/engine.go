// Package engine is the vocabulary shared by every game tankbot plays: sides,
// positions, moves, outcomes, announcements and rule errors. It is pure rules:
// no I/O, no Discord, no SQL, no images. Each game lives in its own
// sub-package (engine/tank, engine/camelot, engine/gungi) and implements
// Rules and Position; engine/games lists them by name.
package engine

// Side is one of the two players. White moves first in every game we play,
// except during the Gungi draft where Black places first.
type Side int8

const (
	White Side = 0
	Black Side = 1
)

// Opponent returns the other side.
func (s Side) Opponent() Side { return 1 - s }

func (s Side) String() string {
	if s == Black {
		return "black"
	}
	return "white"
}

// Letter is the side as written in position strings: "w" or "b".
func (s Side) Letter() string {
	if s == Black {
		return "b"
	}
	return "w"
}

// Rules is one game (Tank Chess, Camelot, Gungi). It is stateless and safe for
// concurrent use.
type Rules interface {
	// Name is the game's id as players type it: "tank", "camelot", "gungi".
	Name() string
	// Variants lists the named start positions (tank maps, "start", ...),
	// the first one being the default.
	Variants() []Variant
	// Start returns the start position of a named variant.
	Start(variant string) (Position, error)
	// Decode parses a position string (TFEN, CFEN, GFEN). Errors are *Error
	// values saying where the string is wrong.
	Decode(s string) (Position, error)
}

// Variant is a named start position.
type Variant struct {
	Name        string // "basic16"
	Description string // one line, English; the bot translates by Name
	Position    string // encoded start position
}

// Position is an immutable game position: Play returns a new one and never
// changes the receiver, so positions may be shared between goroutines.
type Position interface {
	// Rules returns the game this position belongs to.
	Rules() Rules
	// Turn is the side to act next.
	Turn() Side
	// Encode returns the canonical position string (TFEN/CFEN/GFEN).
	// Decode(Encode()) must give back an equal position.
	Encode() string
	// LegalMoves returns every legal move, each one once (the game's perft
	// identity), in a stable order. A finished game has none.
	LegalMoves() []Move
	// ParseMove reads a move written by a player (forgiving: case, spaces,
	// optional parts). It fails with an *Error that says why and lists the
	// closest legal alternatives.
	ParseMove(s string) (Move, error)
	// FormatMove writes a legal move in canonical notation, without
	// announcement suffixes. ParseMove(FormatMove(m)) returns m.
	FormatMove(m Move) string
	// Play returns the position after a legal move; an illegal move gives an
	// *Error and no position.
	Play(m Move) (Position, error)
	// Status is the outcome decided by the board alone (Ongoing while the game
	// goes on). History-dependent outcomes (repetition) and outcomes players
	// decide (resignation, agreement, time) are added by Game.
	Status() Outcome
	// Announcements are what the bot says with the board after the last move:
	// tank CHECK / ESCAPE for the side that just moved, Gungi check, Camelot's
	// duty to capture for the side to move.
	Announcements() []Announcement
	// Perft counts the leaf positions depth moves deep.
	Perft(depth int) uint64
}

// Move is one legal action in a game's own concrete type (tank.Move, ...).
type Move interface {
	// Steps splits the move into the choices a player makes in the guided
	// picker, most general first: the piece, then where it goes, then
	// details (facing, target, route). Every step is a short piece of
	// notation; an empty step means "none" (e.g. no shot). Moves that share
	// the first k steps share the picker's first k menus.
	Steps() []string
}

// Repeatable is implemented by positions of games with a repetition rule.
// Equal keys mean "the same position" for that rule (board, side to move and
// whatever else the rule counts, never the move number).
type Repeatable interface {
	RepetitionKey() string
}

// Winnable is implemented by positions of games whose rules say a side may
// lack the material to win at all (Camelot: fewer than two pieces). When the
// flag falls against a side whose opponent cannot win, the game is drawn.
type Winnable interface {
	CanWin(s Side) bool
}

// Shortcuts is implemented by positions that offer moves outside
// LegalMoves which stand for many actions at once (Gungi: finish your draft
// from a formation). The bot shows each as a button.
type Shortcuts interface {
	Shortcuts() []Shortcut
}

// Shortcut is one such move: its notation (playable with ParseMove and
// Play) and a translatable label (catalog key "shortcut.<Key>" with Args).
type Shortcut struct {
	Move string
	Key  string
	Args []string
}

// Describer is implemented by positions that have facts worth stating in the
// message beside the board (Camelot castle moves left, Gungi hands, the draft).
type Describer interface {
	Facts() []Fact
}

// Fact is a translatable statement: the bot looks Key up in its catalog and
// fills in Args.
type Fact struct {
	Key  string
	Args []string
}

// Announcement kinds.
const (
	AnnounceCheck       = "check"        // tank: the mover can destroy the CLT; gungi: Marshal attacked
	AnnounceEscape      = "escape"       // tank: the mover's CLT can escape
	AnnounceMustCapture = "must-capture" // camelot: the side to move must capture
	AnnounceMustLeave   = "must-leave"   // camelot: a piece must leave its own castle
)

// Announcement is something the bot says after a move. Side is the side the
// announcement is about (the one giving check, the one that must capture).
// Lines, when present, are (from, to) square pairs in the game's notation the
// image may draw (threat lines, escape routes).
type Announcement struct {
	Kind  string
	Side  Side
	Lines [][2]string
}
