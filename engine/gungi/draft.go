package gungi

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// Formation is a ready-made home setup a player may hand the rest of its
// draft to.
type Formation struct {
	Name        string
	Description string
	// Layout is the three home ranks seen by White, front rank first
	// (ranks 3/2/1, files a to i), in GFEN cell syntax; Black uses it
	// turned by 180° so that each side sees the same formation.
	Layout string
}

// Formations are the named formations. "quick" is the project's own design
// and the setup of the "quick" variant.
var Formations = []Formation{{
	Name:        "quick",
	Description: "tankbot's own symmetric formation (not from the rules): 25 pieces, Marshal on e1/e9 behind a Musketeer, Pawns on the odd files",
	Layout:      "P.PWPWP.P/YKCGBGCKY/FSGLMLGSF",
}}

func formationName(i int) string {
	if i >= 0 && i < len(Formations) {
		return Formations[i].Name
	}
	return "?"
}

func formationIndex(name string) int {
	for i, f := range Formations {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

func formationNames() string {
	var ns []string
	for _, f := range Formations {
		ns = append(ns, f.Name)
	}
	return strings.Join(ns, ", ")
}

// parseLayout reads a layout into the towers side s wants on each square.
func parseLayout(layout string, s engine.Side) (map[Square][]Kind, error) {
	ranks := strings.Split(layout, "/")
	if len(ranks) != 3 {
		return nil, errorf(CodeFormation, layout, "it needs 3 ranks separated by /")
	}
	out := map[Square][]Kind{}
	for i, row := range ranks {
		r := 2 - i
		f := 0
		for j := 0; j < len(row); j++ {
			var tower []Kind
			switch c := row[j]; {
			case c == '.':
			case c == '(':
				end := strings.IndexByte(row[j:], ')')
				if end < 2 || end > 4 {
					return nil, errorf(CodeFormation, layout, "a tower is 1 to 3 letters in parentheses")
				}
				for _, c := range []byte(row[j+1 : j+end]) {
					if KindOf(c) == None {
						return nil, errorf(CodeFormation, layout, "unknown piece letter "+string(c))
					}
					tower = append(tower, KindOf(c))
				}
				j += end
			default:
				if KindOf(c) == None {
					return nil, errorf(CodeFormation, layout, "unknown piece letter "+string(c))
				}
				tower = []Kind{KindOf(c)}
			}
			if f > 8 {
				return nil, errorf(CodeFormation, layout, "a rank has more than 9 cells")
			}
			sq := Sq(f, r)
			if s == engine.Black {
				sq = 80 - sq // turned by 180°
			}
			if len(tower) > 0 {
				out[sq] = tower
			}
			f++
		}
		if f != 9 {
			return nil, errorf(CodeFormation, layout, "a rank has fewer than 9 cells")
		}
	}
	var count [numKinds]int
	for _, t := range out {
		for _, k := range t {
			if count[k]++; count[k] > k.SetCount() {
				return nil, errorf(CodeFormation, layout, "too many of "+k.String())
			}
		}
	}
	return out, nil
}

// CompleteDraft finishes side's draft in one step: it places, legally and
// one by one, every piece of the formation (a name from Formations or a
// layout) that is still in hand and fits on what side has already placed,
// then declares ready. Squares where side already placed something else
// and pieces no longer in hand are skipped; the 26-piece limit, the pawn
// file rule and the draft's check rules apply to every placement. It must
// be side's turn in the draft. The result counts as one action.
func (p *Position) CompleteDraft(side engine.Side, formation string) (*Position, error) {
	if !p.InDraft() {
		return nil, errorf(CodeReadyNotDraft)
	}
	if p.ready[side] {
		return nil, errorf(CodeAlreadyReady, side.String())
	}
	if p.turn != side {
		return nil, errorf(CodeNoSuchMove, "ready:"+formation)
	}
	layout := formation
	if i := formationIndex(formation); i >= 0 {
		layout = Formations[i].Layout
	} else if !strings.Contains(formation, "/") {
		return nil, errorf(CodeFormationUnknown, formation, formationNames())
	}
	want, err := parseLayout(layout, side)
	if err != nil {
		return nil, err
	}
	q := *p
	place := func(k Kind, sq Square) {
		m := Move{KindDrop, k, NoSquare, sq}
		q.turn = side
		if q.isLegal(m) {
			q.apply(m)
		}
	}
	if q.hand[side][Marshal] > 0 {
		for sq, t := range want {
			if len(t) > 0 && t[0] == Marshal {
				place(Marshal, sq)
			}
		}
		if q.marshal[side] == NoSquare {
			return nil, errorf(CodeReadyNoMarshal)
		}
	}
	for level := range 3 {
		for sq := Square(0); sq < 81; sq++ {
			t := want[sq]
			if len(t) <= level || int(q.h[sq]) != level {
				continue
			}
			fits := true
			for i := range level {
				c := q.cell[sq][i]
				fits = fits && c.side() == side && c.kind() == t[i]
			}
			if fits {
				place(t[level], sq)
			}
		}
	}
	q.turn, q.number = side, p.number
	if q.inCheck(side) {
		return nil, errorf(CodeSelfCheck)
	}
	q.apply(ReadyMove)
	return &q, nil
}

// playComplete plays a KindComplete move.
func (p *Position) playComplete(m Move) (engine.Position, error) {
	i := int(m.Piece)
	if i < 0 || i >= len(Formations) {
		return nil, errorf(CodeFormationUnknown, "#"+formationName(i), formationNames())
	}
	return p.CompleteDraft(p.turn, Formations[i].Name)
}

// Shortcuts offers, during the draft, to finish the mover's own draft from
// each named formation ("ready:quick"), once its Marshal is placed or not:
// CompleteDraft places what the formation still needs.
func (p *Position) Shortcuts() []engine.Shortcut {
	if !p.InDraft() || p.ready[p.turn] {
		return nil
	}
	out := make([]engine.Shortcut, 0, len(Formations))
	for i, f := range Formations {
		m := Move{Kind: KindComplete, Piece: Kind(i), From: NoSquare, To: NoSquare}
		if _, err := p.playComplete(m); err != nil {
			continue // the pieces placed so far do not fit this formation
		}
		out = append(out, engine.Shortcut{Move: m.String(), Key: "gungi.finish-draft", Args: []string{f.Name}})
	}
	return out
}
