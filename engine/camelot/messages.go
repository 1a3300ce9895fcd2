package camelot

import "github.com/tankbot/tankbot/engine"

// Error codes.
const (
	codeUnknownVariant = "camelot.unknown-variant"
	codeCFENEmpty      = "camelot.cfen-empty"
	codeCFENFields     = "camelot.cfen-fields"
	codeCFENRanks      = "camelot.cfen-ranks"
	codeCFENRankLength = "camelot.cfen-rank-length"
	codeCFENPiece      = "camelot.cfen-piece"
	codeCFENSide       = "camelot.cfen-side"
	codeCFENCastles    = "camelot.cfen-castles"
	codeCFENMoveNumber = "camelot.cfen-move-number"
	codeCFENTooMany    = "camelot.cfen-too-many"
	codeForeignMove    = "camelot.foreign-move"
	codeIllegal        = "camelot.illegal"
	codeSyntax         = "camelot.syntax"
	codeTrailing       = "camelot.trailing"
	codeBadChar        = "camelot.bad-char"
	codeNoSquare       = "camelot.no-square"
	codeNoPiece        = "camelot.no-piece"
	codeNotYours       = "camelot.not-yours"
	codeMustCapture    = "camelot.must-capture"
	codeMustLeave      = "camelot.must-leave"
	codeMustContinue   = "camelot.must-continue"
	codeOwnCastle      = "camelot.own-castle"
	codeCastleMoves    = "camelot.castle-moves-used"
	codeStuckInCastle  = "camelot.stuck-in-castle"
	codeKnightClause   = "camelot.knight-must-capture"
	codeAmbiguous      = "camelot.ambiguous"
	codeNoMoves        = "camelot.no-moves"
)

// Messages maps every error code this package produces to its English
// template; {0}, {1}, ... are filled from engine.Error.Args.
var Messages = map[string]string{
	codeUnknownVariant: "unknown Camelot variant {0}; the only one is start",
	codeCFENEmpty:      "the position is empty: give a CFEN or leave the map out for the start position",
	codeCFENFields:     "a CFEN needs rows, side and castle moves (and an optional move number), got {0} fields",
	codeCFENRanks:      "a CFEN needs 16 ranks separated by /, got {0}",
	codeCFENRankLength: "rank {0} must list {1} squares, got {2}",
	codeCFENPiece:      "rank {0}, square {1}: {2} is not a piece (use K M k m or .)",
	codeCFENSide:       "side to move must be w or b, got {0}",
	codeCFENCastles:    "castle moves must be two digits from 0 to 2 (White then Black), got {0}",
	codeCFENMoveNumber: "move number must be a positive number, got {0}",
	codeCFENTooMany:    "{0} has {1} pieces; a side has at most 14",
	codeForeignMove:    "that is not a Camelot move",
	codeIllegal:        "{0} is not a legal move",
	codeSyntax:         "cannot read {0}: write a move like E7-E8, D6^D8^F8 or E8xE10",
	codeTrailing:       "cannot read {0}: a move ends with its last square, {1} cannot follow it (Camelot moves carry no check or capture marks)",
	codeBadChar:        "cannot read {0}: {1} has no place in a move (write squares like E7 with - ^ or x between them)",
	codeNoSquare:       "{0} is not a square of the Camelot board",
	codeNoPiece:        "there is no piece on {0}",
	codeNotYours:       "the piece on {0} is not yours",
	codeMustCapture:    "you must capture: {0}",
	codeMustLeave:      "your piece on {0} must leave your castle now: {1}",
	codeMustContinue:   "a jump chain must go on while it can: {0}",
	codeOwnCastle:      "a piece may enter its own castle only by a jump",
	codeCastleMoves:    "you have used both of your castle moves",
	codeStuckInCastle:  "a piece in the enemy castle can never leave it",
	codeKnightClause:   "a Knight that canters to where it can jump must capture: {0}",
	codeAmbiguous:      "{0} can mean several moves: {1}; write the full route",
	codeNoMoves:        "there are no legal moves: the game is over",
}

func errorf(code string, args ...string) *engine.Error {
	return engine.Errorf(code, Messages[code], args...)
}
