// Package gungi implements Gungi, the stacking game of Hunter × Hunter, with
// the fan rules in docs/rules/gungi.md: 9×9 board, towers up to three
// high, 38 pieces a side, a draft before play, drops from hand.
package gungi

import "github.com/tankbot/tankbot/engine"

// Kind is a piece type. The zero Kind means "no piece". The order is the
// order of hands in GFEN.
type Kind uint8

const (
	None       Kind = iota
	Marshal         // 帥 M
	General         // 大 G
	LtGeneral       // 中 L
	MajGeneral      // 小 S
	Archer          // 弓 Y
	Knight          // 馬 K
	Musketeer       // 筒 B
	Captain         // 謀 T
	Samurai         // 侍 W
	Fortress        // 砦 F
	Cannon          // 砲 C
	Spy             // 忍 N
	Pawn            // 兵 P
	numKinds
)

// Kinds lists the 13 piece types in hand order.
var Kinds = []Kind{Marshal, General, LtGeneral, MajGeneral, Archer, Knight, Musketeer, Captain, Samurai, Fortress, Cannon, Spy, Pawn}

var (
	kindLetters = [numKinds]byte{0, 'M', 'G', 'L', 'S', 'Y', 'K', 'B', 'T', 'W', 'F', 'C', 'N', 'P'}
	kindNames   = [numKinds]string{"", "Marshal", "General", "Lieutenant General", "Major General", "Archer", "Knight", "Musketeer", "Captain", "Samurai", "Fortress", "Cannon", "Spy", "Pawn"}
	kindKanji   = [numKinds]string{"", "帥", "大", "中", "小", "弓", "馬", "筒", "謀", "侍", "砦", "砲", "忍", "兵"}
	// SetCount is how many pieces of each kind a side owns (38 in all).
	setCount = [numKinds]uint8{0, 1, 6, 4, 4, 2, 2, 1, 1, 2, 2, 2, 2, 9}
)

// Letter is the upper-case letter of the kind in GFEN and moves.
func (k Kind) Letter() byte { return kindLetters[k%numKinds] }

// String is the English name ("Lieutenant General").
func (k Kind) String() string { return kindNames[k%numKinds] }

// Kanji is the traditional one-character label (帥, 大, ...).
func (k Kind) Kanji() string { return kindKanji[k%numKinds] }

// SetCount is how many pieces of kind k each side owns.
func (k Kind) SetCount() int { return int(setCount[k%numKinds]) }

// KindOf returns the kind written with letter c (either case), or None.
func KindOf(c byte) Kind {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	for k := Marshal; k < numKinds; k++ {
		if kindLetters[k] == c {
			return k
		}
	}
	return None
}

// Piece is one piece on the board: a kind and its owner.
type Piece struct {
	Kind Kind
	Side engine.Side
}

// piece is the packed form used on the board: kind | side<<4, 0 = none.
type piece uint8

func mkPiece(k Kind, s engine.Side) piece { return piece(k) | piece(s)<<4 }
func (p piece) kind() Kind                { return Kind(p & 15) }
func (p piece) side() engine.Side         { return engine.Side(p >> 4) }

func (p piece) letter() byte {
	c := p.kind().Letter()
	if p.side() == engine.Black {
		c += 'a' - 'A'
	}
	return c
}

// Square is a board square, 0..80: rank*9 + file, a1 = 0, i9 = 80.
type Square int8

// NoSquare is the from-square of drops and ready.
const NoSquare Square = -1

// Sq builds a square from a file (0 = a) and a rank (0 = rank 1).
func Sq(file, rank int) Square { return Square(rank*9 + file) }

// File is 0 for a .. 8 for i; Rank is 0 for rank 1 .. 8 for rank 9.
func (s Square) File() int { return int(s) % 9 }
func (s Square) Rank() int { return int(s) / 9 }

func (s Square) String() string {
	if s < 0 || s > 80 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads "e5" (case-insensitive).
func ParseSquare(t string) (Square, bool) {
	if len(t) != 2 {
		return NoSquare, false
	}
	f, r := t[0]|0x20, t[1]
	if f < 'a' || f > 'i' || r < '1' || r > '9' {
		return NoSquare, false
	}
	return Sq(int(f-'a'), int(r-'1')), true
}

// inHome reports whether rank r (0-based) is in side s's three home ranks.
func inHome(s engine.Side, r int) bool {
	if s == engine.White {
		return r <= 2
	}
	return r >= 6
}

// MoveKind is the kind of action (§9).
type MoveKind uint8

const (
	KindMove   MoveKind = iota + 1 // to an empty square
	KindAttack                     // remove the enemy top, take its tier
	KindStack                      // on top of a tower
	KindDrop                       // a piece from hand
	KindReady                      // end of one's draft
	// KindComplete finishes the mover's draft from a named formation in one
	// action (Piece holds the index in Formations). It is a shortcut the bot
	// offers, not one of the §9 actions: LegalMoves never lists it.
	KindComplete
)

var moveKindNames = [...]string{"", "move", "attack", "stack", "drop", "ready", "complete"}

func (k MoveKind) String() string {
	if int(k) < len(moveKindNames) {
		return moveKindNames[k]
	}
	return "?"
}

// sep is the notation separator of a board move kind.
func (k MoveKind) sep() byte {
	switch k {
	case KindAttack:
		return 'x'
	case KindStack:
		return '^'
	case KindDrop:
		return '*'
	}
	return '-'
}

// Move is one action, identified by (kind, piece type, from, to) as §9 says.
// From is NoSquare for drops; From and To are NoSquare for ready.
type Move struct {
	Kind  MoveKind
	Piece Kind
	From  Square
	To    Square
}

// ReadyMove is the "ready" draft action.
var ReadyMove = Move{Kind: KindReady, From: NoSquare, To: NoSquare}

// String is the canonical notation: Pe3-e4, Pe3xe4, Ke2^d4, P*e5, ready.
func (m Move) String() string {
	switch m.Kind {
	case KindReady:
		return "ready"
	case KindComplete:
		return "ready:" + formationName(int(m.Piece))
	case KindDrop:
		return string([]byte{m.Piece.Letter(), '*'}) + m.To.String()
	}
	return string(m.Piece.Letter()) + m.From.String() + string(m.Kind.sep()) + m.To.String()
}

// Steps is the guided picker's path: [piece+from, to, kind] for board moves
// ("Ke3", "e4", "-" move, "x" attack or "^" stack: attack and stack may
// both reach one square), ["*P", to] for drops, ["ready"] for ready.
func (m Move) Steps() []string {
	switch m.Kind {
	case KindReady, KindComplete:
		return []string{m.String()}
	case KindDrop:
		return []string{"*" + string(m.Piece.Letter()), m.To.String()}
	}
	return []string{string(m.Piece.Letter()) + m.From.String(), m.To.String(), string(m.Kind.sep())}
}
