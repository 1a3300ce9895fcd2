package gungi

import (
	"math/rand/v2"

	"github.com/tankbot/tankbot/engine"
)

// This file gives engine/ai a copy-make view of the position over the
// internal generator, Gungi's static evaluation, and the draft plan the AI
// follows instead of searching the draft (hundreds of placements a turn
// with no tactics until the armies meet).

var (
	_ engine.Searchable = (*Position)(nil)
	_ engine.Planner    = (*Position)(nil)
)

// kindValue is the material scale (a Pawn is 100). The Marshal has none:
// losing it is checkmate, which the search sees directly.
var kindValue = [numKinds]int{
	Marshal: 0, General: 700, LtGeneral: 550, MajGeneral: 450, Archer: 450,
	Knight: 380, Musketeer: 380, Captain: 400, Samurai: 420, Fortress: 330,
	Cannon: 470, Spy: 380, Pawn: 100,
}

type searcher struct {
	engine.CopyMake[Position, Move]
	// check caches InCheck at each ply (0 not yet known, 1 no, 2 yes):
	// Over, Evaluate and NoMoves all ask it of the same node.
	check [engine.SearchPlies]int8
	// hash is each ply's Zobrist key, updated by Make from the move
	// (fullHash computes it from scratch: the same value).
	hash [engine.SearchPlies]uint64
}

// inCheck is the current node's InCheck, computed once.
func (s *searcher) inCheck() bool {
	c := &s.check[s.Ply]
	if *c == 0 {
		*c = 1
		if s.pos().InCheck() {
			*c = 2
		}
	}
	return *c == 2
}

// NewSearcher implements engine.Searchable.
func (p *Position) NewSearcher() engine.Searcher {
	s := &searcher{}
	s.Stack[0] = *p
	s.hash[0] = p.fullHash()
	return s
}

func (s *searcher) pos() *Position    { return s.Pos() }
func (s *searcher) Turn() engine.Side { return s.pos().turn }

// Over sees checkmate (a Marshal attacked and no legal action), cheaply:
// only a side in check is tested for a legal action. Stalemate shows when
// Generate finds no move.
func (s *searcher) Over() engine.Result {
	p := s.pos()
	if p.InDraft() || !s.inCheck() || p.hasLegal() {
		return engine.Ongoing
	}
	if p.turn == engine.White {
		return engine.BlackWins
	}
	return engine.WhiteWins
}

func (s *searcher) Generate() int {
	s.Lists[s.Ply] = s.pos().generate(s.Lists[s.Ply][:0], false)
	return len(s.Lists[s.Ply])
}

// GenerateGains lists the attacks only (the moves with a Gain), in
// Generate's order, for quiescence: after the armies meet most of a
// position's moves are drops, none of them a capture. -1 when the side
// to act has no legal move at all.
func (s *searcher) GenerateGains() int {
	p := s.pos()
	if p.InDraft() {
		// No attacks in the draft, but placements: none has a gain.
		s.Lists[s.Ply] = s.Lists[s.Ply][:0]
		if !p.hasLegal() {
			return -1
		}
		return 0
	}
	s.Lists[s.Ply] = p.generateSome(s.Lists[s.Ply][:0], false, true)
	if len(s.Lists[s.Ply]) == 0 && !p.hasLegal() {
		return -1
	}
	return len(s.Lists[s.Ply])
}

func (s *searcher) NoMoves() engine.Result {
	p := s.pos()
	if s.inCheck() {
		return engine.Win(p.turn.Opponent(), ReasonCheckmate).Result
	}
	return engine.Draw
}

func (s *searcher) cur(i int) Move { return *s.At(i) }

func (s *searcher) Gain(i int) int {
	m := s.cur(i)
	if m.Kind != KindAttack {
		return 0
	}
	return max(kindValue[s.pos().top(m.To).kind()], 50)
}

func (s *searcher) Key(i int) uint32 {
	m := s.cur(i)
	return uint32(m.Kind)<<24 | uint32(m.Piece)<<16 | uint32(uint8(m.From+1))<<8 | uint32(uint8(m.To+1))
}

func (s *searcher) Make(i int) {
	m := s.cur(i)
	p := s.pos()
	h := s.hash[s.Ply] ^ p.stateKey()
	us := p.turn
	switch m.Kind {
	case KindDrop:
		c := p.hand[us][m.Piece]
		h ^= zHand[us][m.Piece][c] ^ zHand[us][m.Piece][c-1] ^ zBoard[m.To][p.h[m.To]][mkPiece(m.Piece, us)]
	case KindMove, KindStack:
		pc := p.top(m.From)
		h ^= zBoard[m.From][p.h[m.From]-1][pc] ^ zBoard[m.To][p.h[m.To]][pc]
	case KindAttack:
		pc, victim, t := p.top(m.From), p.top(m.To), p.h[m.To]-1
		h ^= zBoard[m.From][p.h[m.From]-1][pc] ^ zBoard[m.To][t][victim] ^ zBoard[m.To][t][pc]
	}
	next := s.Push()
	next.apply(m)
	s.hash[s.Ply] = h ^ next.stateKey()
	s.check[s.Ply] = 0
}

// Hash covers what the repetition rule counts: board, hands, side to act
// and the draft state (never the turn number).
func (s *searcher) Hash() uint64 { return s.hash[s.Ply] }

// Zobrist keys: a piece (packed byte) on a square at a tier, a count of a
// kind in a side's hand, and the side to act with the draft flags.
var zBoard, zHand, zState = zobristKeys()

func zobristKeys() (b *[81][3][32]uint64, h *[2][numKinds][16]uint64, st *[2][4]uint64) {
	b, h, st = new([81][3][32]uint64), new([2][numKinds][16]uint64), new([2][4]uint64)
	x := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // splitmix64: fixed keys, the same in every build
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for sq := range b {
		for t := range b[sq] {
			for pc := range b[sq][t] {
				b[sq][t][pc] = next()
			}
		}
	}
	for side := range h {
		for k := range h[side] {
			for c := range h[side][k] {
				h[side][k][c] = next()
			}
		}
	}
	for t := range st {
		for f := range st[t] {
			st[t][f] = next()
		}
	}
	return b, h, st
}

// stateKey is the Zobrist key of the side to act and the draft flags.
func (p *Position) stateKey() uint64 {
	f := 0
	if p.ready[0] {
		f |= 1
	}
	if p.ready[1] {
		f |= 2
	}
	return zState[p.turn][f]
}

// fullHash is the Zobrist key computed from scratch.
func (p *Position) fullHash() uint64 {
	h := p.stateKey()
	for sq := range 81 {
		for t := 0; t < int(p.h[sq]); t++ {
			h ^= zBoard[sq][t][p.cell[sq][t]]
		}
	}
	for side := range 2 {
		for k := range numKinds {
			h ^= zHand[side][k][p.hand[side][k]]
		}
	}
	return h
}

func (s *searcher) Move(i int) engine.Move { return s.cur(i) }

// mopUpMargin is the material lead (board and hand) from which a side is
// decisively ahead and mopUp drives the enemy Marshal into a mating net.
const mopUpMargin = 900

// mopUp helps a side decisively ahead in material finish the game: without
// it the search, which sees mate only a few plies deep, shuffled for
// hundreds of plies against a lone Marshal (a level-3 game drawn at the ply
// cap). The side ahead gains for the enemy Marshal's distance from the
// centre, for each of its pieces near that Marshal, and for every square
// around it that is occupied or covered by a piece of its own within
// reach (a cheap stand-in for the Marshal's mobility).
func mopUp(p *Position, mat, score *[2]int) {
	for a := engine.White; a <= engine.Black; a++ {
		d := a.Opponent()
		lead := mat[a] - mat[d]
		m := p.marshal[d]
		if lead < mopUpMargin || m == NoSquare {
			continue
		}
		mf, mr := m.File(), m.Rank()
		bonus := 10 * max(absInt(mf-4), absInt(mr-4)) // towards the edge
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				f, r := mf+df, mr+dr
				switch {
				case df == 0 && dr == 0:
				case f < 0 || f > 8 || r < 0 || r > 8:
					bonus += 20 // the edge: one flight square fewer
				case p.h[Sq(f, r)] != 0 && p.top(Sq(f, r)).side() == a, p.attackedBy(Sq(f, r), a):
					bonus += 20 // covered
				}
			}
		}
		for w, word := range p.tops[a] {
			for word != 0 {
				sq := Square(w*64 + trailingZeros(word))
				word &= word - 1
				if p.top(sq).kind() == Marshal {
					continue
				}
				dist := max(absInt(sq.File()-mf), absInt(sq.Rank()-mr))
				bonus += 6 * (8 - dist) // close in
				if dist <= 2 {
					bonus += 12
				}
			}
		}
		score[a] += bonus
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// draftPlans are the armies the AI drafts: its own home layouts, read like
// Formation layouts (front rank first, as White sees them). Each keeps some
// pieces in hand for drops later.
var draftPlans = []string{
	"P.PWPWP.P/YKCGBGCKY/FSGLMLGSF",
	"P.P.P.P.P/WKYGBGYKW/CSLGMGLSC",
	"PNPWPWPNP/.KYGBGYK./FSLGMGLSF",
	"P.PNPNP.P/KYGWBWGYK/.SLCMCLS.",
}

// draftPlan picks the plan that agrees best with what side has placed
// already (so the moves of one draft follow one plan whatever the seeds of
// the single moves), ties broken by seed.
func (p *Position) draftPlan(side engine.Side, seed int64) map[Square][]Kind {
	var best map[Square][]Kind
	bestScore := -1
	n := len(draftPlans)
	first := int(rand.New(rand.NewPCG(uint64(seed), 5)).IntN(n))
	for k := range n {
		plan, err := parseLayout(draftPlans[(first+k)%n], side)
		if err != nil {
			continue // the plans are constants; TestGungiDraft keeps them valid
		}
		score := 0
		for sq := Square(0); sq < 81; sq++ {
			if p.h[sq] == 0 || p.cell[sq][0].side() != side {
				continue
			}
			if t, ok := plan[sq]; ok && t[0] == p.cell[sq][0].kind() {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = plan, score
		}
	}
	return best
}

// PlanMove plays the draft: the Marshal first, then the pieces of one of
// draftPlans (chosen by seed) in a seeded order, front rank mostly first,
// skipping placements the rules forbid now, then ready. Outside the draft
// (or when it is not the side's draft turn) it leaves the move to search.
func (p *Position) PlanMove(seed int64) (engine.Move, bool) {
	if !p.InDraft() {
		return nil, false
	}
	legal := p.generate(make([]Move, 0, 256), false)
	if len(legal) == 0 {
		return nil, false
	}
	us := p.turn
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(p.number)))
	plan := p.draftPlan(us, seed)
	if plan == nil {
		return nil, false
	}
	isLegal := func(m Move) bool {
		for _, l := range legal {
			if l == m {
				return true
			}
		}
		return false
	}
	// Wanted placements not yet made, with a seeded priority: the Marshal,
	// then the front rank, then the rest.
	type want struct {
		m    Move
		prio int
	}
	var wants []want
	for sq := Square(0); sq < 81; sq++ {
		tower, ok := plan[sq]
		if !ok || int(p.h[sq]) >= len(tower) {
			continue
		}
		k := tower[p.h[sq]]
		if p.h[sq] > 0 && p.top(sq).side() != us {
			continue
		}
		front := sq.Rank() == 2 || sq.Rank() == 6
		prio := rng.IntN(100)
		switch {
		case k == Marshal:
			prio += 1000
		case front:
			prio += 40
		}
		wants = append(wants, want{Move{KindDrop, k, NoSquare, sq}, prio})
	}
	best := -1
	for i, w := range wants {
		if isLegal(w.m) && (best < 0 || w.prio > wants[best].prio) {
			best = i
		}
	}
	if best >= 0 {
		return wants[best].m, true
	}
	if isLegal(ReadyMove) {
		return ReadyMove, true
	}
	// In check during the draft with the plan unable to help: any legal
	// placement, the most valuable piece first.
	pick := legal[0]
	for _, l := range legal[1:] {
		if kindValue[l.Piece] > kindValue[pick.Piece] {
			pick = l
		}
	}
	return pick, true
}

// NodeScale scales budgets given in nodes (ai.ScaleNodes: the game
// review, the puzzle miner) as before issue 45.
func (s *searcher) NodeScale() float64 { return 0.6 }

// LevelScale scales the AI's level budgets: about a million nodes a second
// since issue 45, so level 5's 400 000 nodes take about half a second on
// an idle core in a middle game, well inside its time cap.
func (s *searcher) LevelScale() float64 { return 4 }
