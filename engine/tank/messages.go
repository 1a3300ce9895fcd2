package tank

import "github.com/tankbot/tankbot/engine"

// Error codes of Tank Chess. Every code the package can produce is in
// Messages with its English template.
const (
	CodeTFENEmpty       = "tank.tfen-empty"
	CodeTFENFields      = "tank.tfen-fields"
	CodeTFENSize        = "tank.tfen-size"
	CodeTFENRankCount   = "tank.tfen-rank-count"
	CodeTFENRankWidth   = "tank.tfen-rank-width"
	CodeTFENToken       = "tank.tfen-token"
	CodeTFENSide        = "tank.tfen-side"
	CodeTFENMoveNumber  = "tank.tfen-move-number"
	CodeTFENField       = "tank.tfen-field"
	CodeTFENCLTCount    = "tank.tfen-clt-count"
	CodeTFENTwoWrecks   = "tank.tfen-two-wrecked-clts"
	CodeTFENEscapeWreck = "tank.tfen-escape-wreck"
	CodeTFENEscapeCLT   = "tank.tfen-escape-clt"

	CodeUnknownMap  = "tank.unknown-map"
	CodeMapWreck    = "tank.map-wreck"
	CodeMapTurn     = "tank.map-turn"
	CodeMapSymmetry = "tank.map-symmetry"
	CodeMapZone     = "tank.map-zone"
	CodeMapFacing   = "tank.map-facing"
	CodeMapCLT      = "tank.map-clt"
	CodeMapArmy     = "tank.map-army"
	CodeMapEscaped  = "tank.map-escaped"
	CodeMapMoveNo   = "tank.map-move-number"

	CodeGameOver     = "tank.game-over"
	CodeNotTankMove  = "tank.not-a-tank-move"
	CodeSyntax       = "tank.syntax"
	CodeSuffix       = "tank.bad-suffix"
	CodeBadSquare    = "tank.bad-square"
	CodeNoPiece      = "tank.no-piece"
	CodeNotYours     = "tank.not-yours"
	CodeWreckPiece   = "tank.wrecked-piece"
	CodeNoEscape     = "tank.no-escape"
	CodeOnlyCLT      = "tank.only-clt-escapes"
	CodeUnreachable  = "tank.unreachable"
	CodeOutOfReach   = "tank.out-of-reach"
	CodeSamePose     = "tank.same-pose"
	CodeIllegal      = "tank.illegal"
	CodeNoTarget     = "tank.no-target"
	CodeOwnTarget    = "tank.own-target"
	CodeWreckTarget  = "tank.wreck-target"
	CodeSelfTarget   = "tank.self-target"
	CodeOutOfArc     = "tank.out-of-arc"
	CodeAdjacent     = "tank.adjacent"
	CodeBlocked      = "tank.blocked"
	CodeMortarRange  = "tank.mortar-range"
	CodeWeakShot     = "tank.weak-shot"
	CodeEscapeNoFire = "tank.escape-no-fire"
)

// Messages maps every error code of the package to its English template;
// {0}, {1}, ... are the Args of the *engine.Error.
var Messages = map[string]string{
	CodeTFENEmpty:       "the position is empty: give a map name or a TFEN",
	CodeTFENFields:      "a position has 2 to 4 fields (ranks, side to move, move number, 'escaped'), not {0}",
	CodeTFENSize:        "a board has 8 to 26 ranks, this one has {0}",
	CodeTFENRankCount:   "{0} ranks given, but the ranks have {1} squares and a {1}×{1} board needs {1} ranks",
	CodeTFENRankWidth:   "rank {0} has {1} squares, but a board of {2} ranks is {2}×{2} and needs {2} squares in every rank",
	CodeTFENToken:       "rank {0}, column {1} ({2}): cannot read {3}",
	CodeTFENSide:        "the side to move must be w or b, not {0}",
	CodeTFENMoveNumber:  "the move number must be a whole number from 1, not {0}",
	CodeTFENField:       "unexpected field {0} (only 'escaped' may follow the move number)",
	CodeTFENCLTCount:    "{0} has {1} CLTs; a side has at most one",
	CodeTFENTwoWrecks:   "both CLTs are wrecked; a game ends at the first",
	CodeTFENEscapeWreck: "a game cannot end by escape and by a wrecked CLT at once",
	CodeTFENEscapeCLT:   "'escaped' says {0}'s CLT left the board, but it is still on it",

	CodeUnknownMap:  "unknown map {0} (maps: {1})",
	CodeMapWreck:    "a map holds no wrecks, but {0} is a wreck",
	CodeMapTurn:     "a map starts with White to move at move 1",
	CodeMapSymmetry: "a map must be point symmetric: {0} and {1} do not mirror each other",
	CodeMapZone:     "the {0} on {1} is outside its side's first three ranks",
	CodeMapFacing:   "the {0} on {1} must face {2} at the start",
	CodeMapCLT:      "each side needs exactly one CLT; {0} has {1}",
	CodeMapArmy:     "a {0}×{0} map needs the army {1}, but White has {2}",
	CodeMapEscaped:  "a map cannot be a finished game",
	CodeMapMoveNo:   "a map starts at move 1, not {0}",

	CodeGameOver:     "the game is over",
	CodeNotTankMove:  "that is not a Tank Chess move",
	CodeSyntax:       "cannot read the move {0}: {1}",
	CodeSuffix:       "a move cannot end with {0}: the only endings are + (CHECK), - (ESCAPE) and +- (both)",
	CodeBadSquare:    "{0} is not a square of this board",
	CodeNoPiece:      "there is no piece on {0}",
	CodeNotYours:     "the piece on {0} is not yours",
	CodeWreckPiece:   "the piece on {0} is a wreck",
	CodeNoEscape:     "the CLT on {0} cannot reach the far edge and step off it this turn",
	CodeOnlyCLT:      "only the CLT can leave the board, the piece on {0} is a {1}",
	CodeUnreachable:  "the {0} on {1} (speed {2}) cannot end on {3} facing {4} this turn",
	CodeOutOfReach:   "{3} is out of reach of the {0} on {1} (speed {2}) this turn",
	CodeSamePose:     "the {0} on {1} must end on another square or facing",
	CodeIllegal:      "{0} is not a legal move",
	CodeNoTarget:     "there is no piece on {0} to fire at",
	CodeOwnTarget:    "the piece on {0} is your own",
	CodeWreckTarget:  "the piece on {0} is already a wreck",
	CodeSelfTarget:   "a piece cannot fire at itself",
	CodeOutOfArc:     "{0} is not on a line of fire of the {1} on {2} facing {3}",
	CodeAdjacent:     "{0} is adjacent to {1}: an empty square must lie between shooter and target",
	CodeBlocked:      "the line of fire from {0} to {1} is blocked at {2}",
	CodeMortarRange:  "a mortar hits only 3 to 5 squares straight ahead; {0} is not",
	CodeWeakShot:     "{0} gun {1} does not beat {2} {3} armour {4}",
	CodeEscapeNoFire: "an escaping CLT cannot fire",
}

func errGameOver() *engine.Error { return engine.Errorf(CodeGameOver, Messages[CodeGameOver]) }
