package tank

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

type mapDef struct {
	name, description, tfen string
}

// maps are the shipped maps; the first is the default.
var maps = []mapDef{
	{
		name:        "basic16",
		description: "16×16, the rulebook's Basic Setup (10 pieces a side, 50 obstacles)",
		tfen:        "...hs..ms.cs.ms..hs../.#..##........../.#.ls##ls.ms.ls##ls../.#..#.........../.......##......./......#####..##./..##..........#./..###.........../...........###../.#..........##../.##..#####....../.......##......./...........#..#./..Ln##Ln.Mn.Ln##Ln.#./..........##..#./..Hn..Mn.Cn.Mn..Hn... w 1",
	},
	{
		name:        "basic20",
		description: "20×20, the project's own layout with all 14 pieces a side (the printed one is unknown)",
		tfen:        "..hs.rs.ms...cs..ms.rs.hs../.#..ds...##.....ds..../.#ls...ls.#.ms..ls...ls../.#...#.....##......./.....#.........#..../..#....##......#..../..#.........###...#./...##............##./...#..##............/.........##........./.........##........./............##..#.../.##............##.../.#...###.........#../....#......##....#../....#.........#...../.......##.....#...#./..Ln...Ln..Mn.#.Ln...Ln#./....Dn.....##...Dn..#./..Hn.Rn.Mn..Cn...Mn.Rn.Hn.. w 1",
	},
}

// MapInfo describes a shipped map.
type MapInfo struct {
	Name, Description, TFEN string
	Size                    int
	Army                    Army
}

// Maps lists the shipped maps, the default first.
func Maps() []MapInfo {
	out := make([]MapInfo, 0, len(maps))
	for _, m := range maps {
		p, err := ParseTFEN(m.tfen)
		if err != nil {
			panic("tank: shipped map " + m.name + " does not parse: " + err.Error())
		}
		out = append(out, MapInfo{Name: m.name, Description: m.description, TFEN: m.tfen, Size: p.Width(), Army: p.Army(engine.White)})
	}
	return out
}

// Army counts a side's pieces by kind.
type Army map[Kind]int

// String writes the army as "2 HT, 3 MT, 4 LT, 1 CLT" in a fixed order.
func (a Army) String() string {
	order := []Kind{HT, MT, LT, CLT, TD, HM}
	var parts []string
	for _, k := range order {
		if a[k] > 0 {
			parts = append(parts, strconv.Itoa(a[k])+" "+k.String())
		}
	}
	if len(parts) == 0 {
		return "no pieces"
	}
	return strings.Join(parts, ", ")
}

func (a Army) equal(b Army) bool {
	for _, k := range Kinds {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// Army counts side s's active pieces.
func (p *Position) Army(s engine.Side) Army {
	a := Army{}
	for _, c := range p.b.cells {
		if isActive(c, s) {
			a[cellKind(c)]++
		}
	}
	return a
}

// StandardArmy is the army of rules §2 for a board size: 16 and 20 have
// theirs; other sizes have none (any army with one CLT).
func StandardArmy(size int) (Army, bool) {
	switch size {
	case 16:
		return Army{HT: 2, MT: 3, LT: 4, CLT: 1}, true
	case 20:
		return Army{HT: 2, MT: 3, LT: 4, CLT: 1, TD: 2, HM: 2}, true
	}
	return nil, false
}

// ValidateMap checks that p can start a game (rules §8): White
// to move at move 1, no wrecks, point symmetric (the mirror of a White piece
// is a Black piece of the same kind facing the opposite way), each side's
// pieces within its own first three ranks and facing forward, one CLT a
// side and, on 16×16 and 20×20, the army of §2. On other sizes the army is
// free (a custom army). The error says what is wrong.
func ValidateMap(p *Position) error {
	b := p.b // ParseTFEN already holds the size to 8–26, square
	if b.escaped != 0 {
		return mapErr(CodeMapEscaped)
	}
	if b.turn != engine.White {
		return mapErr(CodeMapTurn)
	}
	if p.moveNo != 1 {
		return mapErr(CodeMapMoveNo, strconv.Itoa(p.moveNo))
	}
	n := b.w
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			c := b.cells[b.index(f, r)]
			sq := Square{f, r}
			if c&wreckBit != 0 {
				return mapErr(CodeMapWreck, lowerSquare(sq))
			}
			if !isPiece(c) {
				continue
			}
			side := cellSide(c)
			own := r
			want := N
			if side == engine.Black {
				own = n - 1 - r
				want = S
			}
			if own > 2 {
				return mapErr(CodeMapZone, cellKind(c).String(), lowerSquare(sq))
			}
			if cellFacing(c) != want {
				return mapErr(CodeMapFacing, cellKind(c).String(), lowerSquare(sq), want.String())
			}
		}
	}
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			c := b.cells[b.index(f, r)]
			m := b.cells[b.index(n-1-f, n-1-r)]
			if mirrorCell(c) != m {
				return mapErr(CodeMapSymmetry, lowerSquare(Square{f, r}), lowerSquare(Square{n - 1 - f, n - 1 - r}))
			}
		}
	}
	for _, s := range []engine.Side{engine.White, engine.Black} {
		if k := p.Army(s)[CLT]; k != 1 {
			return mapErr(CodeMapCLT, s.String(), strconv.Itoa(k))
		}
	}
	if want, ok := StandardArmy(n); ok {
		if have := p.Army(engine.White); !have.equal(want) {
			return mapErr(CodeMapArmy, strconv.Itoa(n), want.String(), have.String())
		}
	}
	return nil
}

// mirrorCell is the cell turned 180° around the board's centre.
func mirrorCell(c byte) byte {
	if !isPiece(c) {
		return c
	}
	return (c^sideBit)&^(7<<4) | byte(cellFacing(c).Opposite())<<4
}

func mapErr(code string, args ...string) *engine.Error {
	return engine.Errorf(code, Messages[code], args...)
}

// MapNames lists the shipped map names, sorted.
func MapNames() []string {
	out := make([]string, len(maps))
	for i, m := range maps {
		out[i] = m.name
	}
	sort.Strings(out)
	return out
}

// lowerSquare is the rules' square name ("e2").
func lowerSquare(s Square) string {
	return string(rune('a'+s.File)) + strconv.Itoa(s.Rank+1)
}

// squareName is the notation's square name ("E2").
func squareName(s Square) string {
	return string(rune('A'+s.File)) + strconv.Itoa(s.Rank+1)
}

// String is the square as the rules write it ("e2").
func (s Square) String() string { return lowerSquare(s) }
