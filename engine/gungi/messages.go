package gungi

import "github.com/tankbot/tankbot/engine"

// Error codes: every *engine.Error this package returns has one of these.
const (
	CodeSyntax           = "gungi.syntax"
	CodeSuffix           = "gungi.bad-suffix"
	CodeNoSuchMove       = "gungi.no-such-move"
	CodeAmbiguous        = "gungi.ambiguous"
	CodeGameOver         = "gungi.game-over"
	CodeForeignMove      = "gungi.foreign-move"
	CodeNoPiece          = "gungi.no-piece"
	CodeWrongPiece       = "gungi.wrong-piece"
	CodeOutOfReach       = "gungi.out-of-reach"
	CodeOccupied         = "gungi.occupied"
	CodeNoEnemy          = "gungi.no-enemy"
	CodeNothingToStack   = "gungi.nothing-to-stack"
	CodeTowerFull        = "gungi.tower-full"
	CodeOntoMarshal      = "gungi.onto-marshal"
	CodeFortressStack    = "gungi.fortress-stack"
	CodeFortressAttack   = "gungi.fortress-attack"
	CodeSelfCheck        = "gungi.self-check"
	CodeNotInHand        = "gungi.not-in-hand"
	CodeDropLimit        = "gungi.drop-limit"
	CodeDropZone         = "gungi.drop-zone"
	CodePawnFile         = "gungi.pawn-file"
	CodePawnDropMate     = "gungi.pawn-drop-mate"
	CodeDraftOnly        = "gungi.draft-only"
	CodeDraftZone        = "gungi.draft-zone"
	CodeMarshalFirst     = "gungi.marshal-first"
	CodeDraftCheck       = "gungi.draft-check"
	CodeReadyNotDraft    = "gungi.ready-not-draft"
	CodeReadyNoMarshal   = "gungi.ready-no-marshal"
	CodeAlreadyReady     = "gungi.already-ready"
	CodeFormation        = "gungi.formation"
	CodeFormationUnknown = "gungi.formation-unknown"
	CodeUnknownVariant   = "gungi.unknown-variant"
	CodeGFENEmpty        = "gungi.gfen-empty"
	CodeGFENFields       = "gungi.gfen-fields"
	CodeGFENRanks        = "gungi.gfen-ranks"
	CodeGFENRankWidth    = "gungi.gfen-rank-width"
	CodeGFENChar         = "gungi.gfen-char"
	CodeGFENTower        = "gungi.gfen-tower"
	CodeGFENSide         = "gungi.gfen-side"
	CodeGFENReady        = "gungi.gfen-ready"
	CodeGFENHands        = "gungi.gfen-hands"
	CodeGFENNumber       = "gungi.gfen-number"
	CodeGFENUnderMarshal = "gungi.gfen-under-marshal"
	CodeGFENFortress     = "gungi.gfen-fortress"
	CodeGFENDraftZone    = "gungi.gfen-draft-zone"
	CodeGFENCount        = "gungi.gfen-count"
	CodeGFENTooMany      = "gungi.gfen-too-many"
	CodeGFENNoMarshal    = "gungi.gfen-no-marshal"
	CodeGFENMarshalFirst = "gungi.gfen-marshal-first"
	CodeGFENReadyTurn    = "gungi.gfen-ready-turn"
	CodeGFENOppInCheck   = "gungi.gfen-opponent-in-check"
)

// Messages maps every error code to its English template.
var Messages = map[string]string{
	CodeSyntax:           "cannot read {0} as a move (write e.g. Pe3-e4, Pe3xe4, Ke2^d4, P*e5 or ready)",
	CodeSuffix:           "a move cannot end with {0}: the only endings are + (check) and # (checkmate)",
	CodeNoSuchMove:       "{0} is not a legal move here",
	CodeAmbiguous:        "{0} could be several moves: say which",
	CodeGameOver:         "the game is over: there is no legal move",
	CodeForeignMove:      "that is not a Gungi move",
	CodeNoPiece:          "no piece of yours is on top of {0}",
	CodeWrongPiece:       "the piece on top of {0} is a {1}, not a {2}",
	CodeOutOfReach:       "the {0} on {1} cannot reach {2} from tier {3}",
	CodeOccupied:         "{0} is occupied: attack it with x or stack on it with ^",
	CodeNoEnemy:          "there is no enemy piece on top of {0} to attack",
	CodeNothingToStack:   "{0} is empty: there is nothing to stack on (move there with -)",
	CodeTowerFull:        "the tower on {0} is already 3 high",
	CodeOntoMarshal:      "nothing may be stacked or dropped onto a Marshal ({0})",
	CodeFortressStack:    "a Fortress never stacks onto another piece",
	CodeFortressAttack:   "a Fortress may only attack a piece standing alone, and {0} is a tower",
	CodeSelfCheck:        "that would leave your Marshal attacked",
	CodeNotInHand:        "you have no {0} left in hand",
	CodeDropLimit:        "you already have 26 pieces on the board: no more drops",
	CodeDropZone:         "you may not drop into your opponent's three home ranks ({0})",
	CodePawnFile:         "you already have a Pawn on file {0}",
	CodePawnDropMate:     "a Pawn drop may give check but never checkmate",
	CodeDraftOnly:        "the draft is still on: place a piece from your hand or declare ready",
	CodeDraftZone:        "during the draft you place pieces in your own three home ranks only ({0})",
	CodeMarshalFirst:     "your first placement must be your Marshal",
	CodeDraftCheck:       "that placement attacks the Marshal of a player who is already ready",
	CodeReadyNotDraft:    "the draft is over: ready means nothing now",
	CodeReadyNoMarshal:   "place your Marshal before declaring ready",
	CodeAlreadyReady:     "{0} has already declared ready",
	CodeFormation:        "cannot read the formation {0}: {1}",
	CodeFormationUnknown: "there is no formation called {0} (try {1})",
	CodeUnknownVariant:   "there is no Gungi variant called {0} (try {1})",
	CodeGFENEmpty:        "the position is empty: give a GFEN or a variant name (draft, quick)",
	CodeGFENFields:       "a GFEN has 4 or 5 fields (board, side, ready, hands, turn number), not {0}",
	CodeGFENRanks:        "the GFEN board needs 9 ranks separated by /, not {0}",
	CodeGFENRankWidth:    "rank {0} of the GFEN board has {1} cells, but the board is 9×9 and every rank needs 9",
	CodeGFENChar:         "unexpected character {0} in rank {1} of the GFEN board",
	CodeGFENTower:        "bad tower {0} in rank {1}: write 1 to 3 pieces in parentheses, bottom first",
	CodeGFENSide:         "the side to act must be w or b, not {0}",
	CodeGFENReady:        "the ready field must be -, w, b or wb, not {0}",
	CodeGFENHands:        "cannot read the hands {0}: write White's then Black's as M1G6... separated by /, - when empty",
	CodeGFENNumber:       "the turn number must be a positive number, not {0}",
	CodeGFENUnderMarshal: "nothing may stand on a Marshal ({0})",
	CodeGFENFortress:     "a Fortress always stands on the board, never on a tower ({0})",
	CodeGFENDraftZone:    "during the draft every piece stands in its owner's home ranks ({0} does not)",
	CodeGFENCount:        "{0} has {2} of {1} but the set has only {3}",
	CodeGFENTooMany:      "{0} has {1} pieces on the board, more than 26",
	CodeGFENNoMarshal:    "{0}'s Marshal must be on the board",
	CodeGFENMarshalFirst: "{0} has pieces on the board but not the Marshal, which is placed first",
	CodeGFENReadyTurn:    "{0} is ready, so it cannot be its turn during the draft",
	CodeGFENOppInCheck:   "{0} is not to act but its Marshal is attacked",
}

// errorf builds the *engine.Error of a code with its template.
func errorf(code string, args ...string) *engine.Error {
	return engine.Errorf(code, Messages[code], args...)
}
