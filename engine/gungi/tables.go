package gungi

import "github.com/tankbot/tankbot/engine"

// bits is a set of squares (81 bits in two words).
type bits [2]uint64

func (b *bits) set(s Square)     { b[s>>6] |= 1 << (uint(s) & 63) }
func (b *bits) clear(s Square)   { b[s>>6] &^= 1 << (uint(s) & 63) }
func (b bits) has(s Square) bool { return b[s>>6]>>(uint(s)&63)&1 != 0 }

// jump is one target reached without passing squares; if block >= 0 the
// target is reachable only while block is empty (Line2, General tier 3).
type jump struct{ to, block Square }

// reach is where a piece pattern goes from one square for one side.
type reach struct {
	jumps []jump
	rays  [][]Square // slides, nearest square first
	mask  bits       // every square possibly reached, for quick rejects
}

// pattern is a movement in (right, forward) offsets from the owner's view.
type pattern struct {
	steps  [][4]int // dx, dy, blockdx, blockdy (block 0,0 = none)
	slides [][2]int
}

var (
	k8     = [][2]int{{-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	gold   = [][2]int{{-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, 0}, {0, -1}}
	silver = [][2]int{{-1, 1}, {0, 1}, {1, 1}, {-1, -1}, {1, -1}}
	orth   = [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	diag   = [][2]int{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}}
)

func steps(offs ...[][2]int) pattern {
	var p pattern
	for _, o := range offs {
		for _, d := range o {
			p.steps = append(p.steps, [4]int{d[0], d[1], 0, 0})
		}
	}
	return p
}

func ring(n int) [][2]int {
	var out [][2]int
	for dy := -n; dy <= n; dy++ {
		for dx := -n; dx <= n; dx++ {
			if max(abs(dx), abs(dy)) == n {
				out = append(out, [2]int{dx, dy})
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// line2 is one or two squares along each direction, the second only if the
// first is empty.
func line2(dirs [][2]int) pattern {
	var p pattern
	for _, d := range dirs {
		p.steps = append(p.steps, [4]int{d[0], d[1], 0, 0}, [4]int{2 * d[0], 2 * d[1], d[0], d[1]})
	}
	return p
}

func slide(dirs [][2]int) pattern { return pattern{slides: dirs} }

// patterns is the §3 table, indexed by kind and tier-1. The Captain's and
// the Fortress's upper tiers are K8: the Captain's fallback and what a
// Captain standing on a Fortress copies.
var patterns = func() [numKinds][3]pattern {
	var t [numKinds][3]pattern
	K8 := steps(k8)
	t[Marshal] = [3]pattern{K8, K8, K8}
	gen3 := steps(k8)
	for x := -1; x <= 1; x++ {
		gen3.steps = append(gen3.steps, [4]int{x, 2, x, 1})
	}
	t[General] = [3]pattern{steps(gold), K8, gen3}
	t[LtGeneral] = [3]pattern{steps(silver), steps(silver, [][2]int{{0, -1}}), K8}
	t[MajGeneral] = [3]pattern{steps([][2]int{{-1, 1}, {1, 1}}), steps(silver), steps(gold)}
	t[Archer] = [3]pattern{K8, steps(ring(2)), steps(ring(3))}
	t[Knight] = [3]pattern{
		steps([][2]int{{-1, 0}, {1, 0}, {-1, 2}, {1, 2}}),
		steps([][2]int{{-1, 2}, {1, 2}, {-2, 1}, {2, 1}}),
		steps([][2]int{{-1, 2}, {1, 2}, {-2, 1}, {2, 1}, {-1, -2}, {1, -2}, {-2, -1}, {2, -1}}),
	}
	fwd := [][2]int{{0, 1}}
	t[Musketeer] = [3]pattern{steps(fwd), line2(fwd), slide(fwd)}
	t[Captain] = [3]pattern{K8, K8, K8}
	t[Samurai] = [3]pattern{steps(diag), steps([][2]int{{-2, 2}, {2, 2}, {-2, -2}, {2, -2}}), slide(diag)}
	t[Fortress] = [3]pattern{K8, K8, K8}
	t[Cannon] = [3]pattern{steps(orth), line2(orth), slide(orth)}
	t[Spy] = [3]pattern{steps(fwd), steps(diag), slide(k8)}
	pawn2 := steps([][2]int{{-1, 1}, {0, 1}, {1, 1}})
	t[Pawn] = [3]pattern{steps(fwd), pawn2, pawn2}
	return t
}()

// reaches[side][kind][tier-1][square] is the precomputed pattern.
var reaches = func() *[2][numKinds][3][81]reach {
	var t [2][numKinds][3][81]reach
	for side := engine.White; side <= engine.Black; side++ {
		sign := 1
		if side == engine.Black {
			sign = -1 // Black's forward and right are White's back and left
		}
		for k := Marshal; k < numKinds; k++ {
			for tier := range 3 {
				pat := patterns[k][tier]
				for s := Square(0); s < 81; s++ {
					r := &t[side][k][tier][s]
					at := func(dx, dy int) Square {
						f, rk := s.File()+sign*dx, s.Rank()+sign*dy
						if f < 0 || f > 8 || rk < 0 || rk > 8 {
							return NoSquare
						}
						return Sq(f, rk)
					}
					for _, st := range pat.steps {
						to := at(st[0], st[1])
						if to == NoSquare {
							continue
						}
						b := NoSquare
						if st[2] != 0 || st[3] != 0 {
							b = at(st[2], st[3])
						}
						r.jumps = append(r.jumps, jump{to, b})
						r.mask.set(to)
					}
					for _, d := range pat.slides {
						var ray []Square
						for n := 1; ; n++ {
							to := at(n*d[0], n*d[1])
							if to == NoSquare {
								break
							}
							ray = append(ray, to)
							r.mask.set(to)
						}
						if len(ray) > 0 {
							r.rays = append(r.rays, ray)
						}
					}
				}
			}
		}
	}
	return &t
}()

// aligned[a] is the set of squares on a rank, file or diagonal through a:
// only a piece leaving such a square can open a line onto a.
var aligned = func() [81]bits {
	var t [81]bits
	for a := Square(0); a < 81; a++ {
		for b := Square(0); b < 81; b++ {
			df, dr := b.File()-a.File(), b.Rank()-a.Rank()
			if a != b && (df == 0 || dr == 0 || abs(df) == abs(dr)) {
				t[a].set(b)
			}
		}
	}
	return t
}()

// attackFrom[a] is every square from which some pattern may reach a: the
// lines through a (slides) and the squares within three steps (every step
// pattern, Archer's ring of three the widest). attackedBy looks at the
// enemy pieces there only.
var attackFrom = func() [81]bits {
	var t [81]bits
	for a := Square(0); a < 81; a++ {
		t[a] = aligned[a]
		for b := Square(0); b < 81; b++ {
			if a != b && max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank())) <= 3 {
				t[a].set(b)
			}
		}
	}
	return t
}()
