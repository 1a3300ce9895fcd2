package describe

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// unit is one piece as the describer speaks of it: its side, its kind as a
// catalog key ("a11y.tank.HT", "gungi.piece.P", "a11y.camelot.knight"),
// and for Tank Chess its facing and whether it is a wreck.
type unit struct {
	side   engine.Side
	kind   string
	facing string // "a11y.dir.N" .. ; "" when the game has none
	wreck  bool
}

// occupant is what stands on one square: a unit, a Gungi tower (bottom
// first), or an obstacle.
type occupant struct {
	square   string
	file     int // 0-based, for ordering
	rank     int // 0-based
	obstacle bool
	tower    []unit // one unit for a lone piece
}

func (o occupant) top() unit { return o.tower[len(o.tower)-1] }

// board is what the describer needs of a game's position. Each game has
// its adapter below, so the rest of the package is game-free.
type board interface {
	files() int
	ranks() int
	occupants() []occupant
	moveNumber() int
	// lastMove words the move m, played from prev: who moved what where.
	lastMove(t engine.Translator, prev engine.Position, m engine.Move) string
	// strikes reports whether m captures or shoots on square sq, and from
	// which square the acting piece starts.
	strikes(m engine.Move, sq string) (from string, ok bool)
	// from is the square of the piece that makes m ("" for a drop).
	from(m engine.Move) string
	// extras are the position's facts beyond the board, in words: hands,
	// draft, castle moves.
	extras(t engine.Translator) []string
	// normSquare is a typed square in the game's spelling, or "".
	normSquare(s string) string
	// kinds are the game's kinds: catalog key and notation letter.
	kinds() []kindName
}

type kindName struct{ key, letter string }

func adapt(pos engine.Position) (board, error) {
	switch p := pos.(type) {
	case *tank.Position:
		return tankBoard{p}, nil
	case *gungi.Position:
		return gungiBoard{p}, nil
	case *camelot.Position:
		return camelotBoard{p}, nil
	case nil:
		return nil, fmt.Errorf("describe: no position")
	}
	return nil, fmt.Errorf("describe: no describer for %T", pos)
}

var dirKeys = [8]string{"a11y.dir.N", "a11y.dir.NE", "a11y.dir.E", "a11y.dir.SE", "a11y.dir.S", "a11y.dir.SW", "a11y.dir.W", "a11y.dir.NW"}

type tankBoard struct{ p *tank.Position }

func (b tankBoard) files() int      { return b.p.Width() }
func (b tankBoard) ranks() int      { return b.p.Height() }
func (b tankBoard) moveNumber() int { return b.p.MoveNumber() }

func tankUnit(pc tank.Piece) unit {
	return unit{side: pc.Side, kind: "a11y.tank." + pc.Kind.String(), facing: dirKeys[pc.Facing&7], wreck: pc.Wreck}
}

func (b tankBoard) occupants() []occupant {
	var out []occupant
	for r := 0; r < b.p.Height(); r++ {
		for f := 0; f < b.p.Width(); f++ {
			sq := tank.Square{File: f, Rank: r}
			c := b.p.At(sq)
			switch {
			case c.Obstacle:
				out = append(out, occupant{square: sq.String(), file: f, rank: r, obstacle: true})
			case c.Piece.Kind != tank.None:
				out = append(out, occupant{square: sq.String(), file: f, rank: r, tower: []unit{tankUnit(c.Piece)}})
			}
		}
	}
	return out
}

func (b tankBoard) lastMove(t engine.Translator, prev engine.Position, m engine.Move) string {
	mv, ok := m.(tank.Move)
	if !ok {
		if pm, isPtr := m.(*tank.Move); isPtr && pm != nil {
			mv, ok = *pm, true
		}
	}
	pp, okp := prev.(*tank.Position)
	if !ok || !okp {
		return ""
	}
	pc := pp.At(mv.From).Piece
	who := t("a11y.piece", sideName(t, pc.Side), t("a11y.tank."+pc.Kind.String()))
	var s string
	switch {
	case mv.Escape:
		s = t("a11y.tank.move.escape", who, mv.From.String())
	case mv.From == mv.To:
		s = t("a11y.tank.move.turn", who, mv.From.String(), t(dirKeys[mv.Facing&7]))
	default:
		s = t("a11y.tank.move.drive", who, mv.From.String(), mv.To.String(), t(dirKeys[mv.Facing&7]))
	}
	if mv.HasTarget {
		v := pp.At(mv.Target).Piece
		s += " " + t("a11y.tank.move.shot", t("a11y.piece", sideName(t, v.Side), t("a11y.tank."+v.Kind.String())), mv.Target.String())
	}
	return s
}

func (b tankBoard) strikes(m engine.Move, sq string) (string, bool) {
	mv, ok := m.(tank.Move)
	if !ok || !mv.HasTarget || mv.Target.String() != sq {
		return "", false
	}
	return mv.From.String(), true
}

func (b tankBoard) from(m engine.Move) string {
	if mv, ok := m.(tank.Move); ok {
		return mv.From.String()
	}
	return ""
}

func (b tankBoard) extras(engine.Translator) []string { return nil }

func (b tankBoard) kinds() []kindName {
	var out []kindName
	for _, k := range tank.Kinds {
		out = append(out, kindName{"a11y.tank." + k.String(), string(k.Stats().Code)})
	}
	return out
}

func (b tankBoard) normSquare(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) < 2 || s[0] < 'a' || s[0] >= 'a'+byte(b.p.Width()) {
		return ""
	}
	r, err := strconv.Atoi(s[1:])
	if err != nil || r < 1 || r > b.p.Height() {
		return ""
	}
	return s[:1] + strconv.Itoa(r) // "a+5" and "a05" are a5
}

type gungiBoard struct{ p *gungi.Position }

func (b gungiBoard) files() int      { return 9 }
func (b gungiBoard) ranks() int      { return 9 }
func (b gungiBoard) moveNumber() int { return b.p.Number() }

func gungiKey(k gungi.Kind) string { return "gungi.piece." + string(k.Letter()) }

func (b gungiBoard) occupants() []occupant {
	var out []occupant
	for r := 0; r < 9; r++ {
		for f := 0; f < 9; f++ {
			sq := gungi.Sq(f, r)
			tw := b.p.Tower(sq)
			if len(tw) == 0 {
				continue
			}
			o := occupant{square: sq.String(), file: f, rank: r}
			for _, pc := range tw {
				o.tower = append(o.tower, unit{side: pc.Side, kind: gungiKey(pc.Kind)})
			}
			out = append(out, o)
		}
	}
	return out
}

func (b gungiBoard) lastMove(t engine.Translator, prev engine.Position, m engine.Move) string {
	mv, ok := m.(gungi.Move)
	if !ok {
		return ""
	}
	side := prev.Turn()
	who := t("a11y.piece", sideName(t, side), t(gungiKey(mv.Piece)))
	switch mv.Kind {
	case gungi.KindReady:
		return t("a11y.gungi.move.ready", sideName(t, side))
	case gungi.KindComplete:
		return t("a11y.gungi.move.complete", sideName(t, side))
	case gungi.KindDrop:
		return t("a11y.gungi.move.drop", who, mv.To.String())
	case gungi.KindAttack:
		victim := ""
		if pp, ok := prev.(*gungi.Position); ok {
			if tw := pp.Tower(mv.To); len(tw) > 0 {
				v := tw[len(tw)-1]
				victim = t("a11y.piece", sideName(t, v.Side), t(gungiKey(v.Kind)))
			}
		}
		return t("a11y.gungi.move.attack", who, mv.From.String(), mv.To.String(), victim)
	case gungi.KindStack:
		return t("a11y.gungi.move.stack", who, mv.From.String(), mv.To.String())
	}
	return t("a11y.gungi.move.move", who, mv.From.String(), mv.To.String())
}

func (b gungiBoard) strikes(m engine.Move, sq string) (string, bool) {
	mv, ok := m.(gungi.Move)
	if !ok || mv.Kind != gungi.KindAttack || mv.To.String() != sq {
		return "", false
	}
	return mv.From.String(), true
}

func (b gungiBoard) from(m engine.Move) string {
	if mv, ok := m.(gungi.Move); ok && (mv.Kind == gungi.KindMove || mv.Kind == gungi.KindAttack || mv.Kind == gungi.KindStack) {
		return mv.From.String()
	}
	return ""
}

func (b gungiBoard) extras(t engine.Translator) []string {
	var out []string
	if b.p.InDraft() {
		var st []string
		for _, s := range []engine.Side{engine.White, engine.Black} {
			k := "a11y.gungi.placing"
			if b.p.Ready(s) {
				k = "a11y.gungi.ready"
			}
			st = append(st, t(k, sideName(t, s)))
		}
		out = append(out, t("a11y.gungi.draft", strings.Join(st, ", ")))
	}
	for _, s := range []engine.Side{engine.White, engine.Black} {
		var hs []string
		for _, k := range gungi.Kinds {
			if n := b.p.Hand(s, k); n > 0 {
				hs = append(hs, t("a11y.count", t(gungiKey(k)), strconv.Itoa(n)))
			}
		}
		if len(hs) == 0 {
			out = append(out, t("a11y.gungi.hand.empty", sideName(t, s)))
		} else {
			out = append(out, t("a11y.gungi.hand", sideName(t, s), strings.Join(hs, ", ")))
		}
	}
	return out
}

func (b gungiBoard) kinds() []kindName {
	var out []kindName
	for _, k := range gungi.Kinds {
		out = append(out, kindName{gungiKey(k), string(k.Letter())})
	}
	return out
}

func (b gungiBoard) normSquare(s string) string {
	if sq, ok := gungi.ParseSquare(strings.TrimSpace(s)); ok {
		return sq.String()
	}
	return ""
}

type camelotBoard struct{ p *camelot.Position }

// Camelot's board: files A–L, ranks 1–16 (the castles' squares included);
// squares off its outline answer 0 from At.
func (b camelotBoard) files() int { return 12 }
func (b camelotBoard) ranks() int { return 16 }

func (b camelotBoard) moveNumber() int {
	f := strings.Fields(b.p.Encode())
	n, _ := strconv.Atoi(f[len(f)-1])
	return n
}

func camelotName(f, r int) string { return string(rune('A'+f)) + strconv.Itoa(r+1) }

func camelotUnit(c byte) unit {
	u := unit{side: engine.White, kind: "a11y.camelot.man"}
	if c == 'k' || c == 'm' {
		u.side = engine.Black
	}
	if c == 'K' || c == 'k' {
		u.kind = "a11y.camelot.knight"
	}
	return u
}

func (b camelotBoard) occupants() []occupant {
	var out []occupant
	for r := 0; r < 16; r++ {
		for f := 0; f < 12; f++ {
			if c := b.p.At(camelotName(f, r)); c != 0 {
				out = append(out, occupant{square: camelotName(f, r), file: f, rank: r, tower: []unit{camelotUnit(c)}})
			}
		}
	}
	return out
}

func (b camelotBoard) lastMove(t engine.Translator, prev engine.Position, m engine.Move) string {
	mv, ok := m.(camelot.Move)
	pp, okp := prev.(*camelot.Position)
	if !ok || !okp {
		return ""
	}
	u := camelotUnit(pp.At(mv.From()))
	who := t("a11y.piece", sideName(t, u.side), t(u.kind))
	route := append([]string{mv.From()}, mv.Route()...)
	if len(route) == 1 || route[len(route)-1] != mv.To() {
		route = append(route, mv.To())
	}
	s := t("a11y.camelot.move", who, strings.Join(route, ", "))
	if c := mv.Captured(); len(c) > 0 {
		s += " " + t("a11y.camelot.captures", strings.Join(c, ", "))
	}
	return s
}

func (b camelotBoard) strikes(m engine.Move, sq string) (string, bool) {
	mv, ok := m.(camelot.Move)
	if !ok || !slices.Contains(mv.Captured(), sq) {
		return "", false
	}
	return mv.From(), true
}

func (b camelotBoard) from(m engine.Move) string {
	if mv, ok := m.(camelot.Move); ok {
		return mv.From()
	}
	return ""
}

func (b camelotBoard) extras(t engine.Translator) []string {
	return []string{t("a11y.camelot.castles", strconv.Itoa(b.p.CastleMovesUsed(engine.White)), strconv.Itoa(b.p.CastleMovesUsed(engine.Black)))}
}

func (b camelotBoard) kinds() []kindName {
	return []kindName{{"a11y.camelot.knight", "K"}, {"a11y.camelot.man", "M"}}
}

func (b camelotBoard) normSquare(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) < 2 || s[0] < 'A' || s[0] > 'L' {
		return ""
	}
	r, err := strconv.Atoi(s[1:])
	if err != nil || r < 1 || r > 16 {
		return ""
	}
	if s = s[:1] + strconv.Itoa(r); !b.onBoard(s) {
		return ""
	}
	return s
}

// onBoard tells an empty Camelot square from one off the outline: the
// encoded rows (rank 16 first) hold exactly the squares of the outline,
// each row centred on the twelve files.
func (b camelotBoard) onBoard(s string) bool {
	f := int(s[0] - 'A')
	r, _ := strconv.Atoi(s[1:])
	rows := strings.Split(strings.Fields(b.p.Encode())[0], "/")
	if len(rows) != 16 {
		return false
	}
	n := len(rows[16-r])
	start := (12 - n) / 2
	return f >= start && f < start+n
}
