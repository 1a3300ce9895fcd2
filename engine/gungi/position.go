package gungi

import (
	"strconv"

	"github.com/tankbot/tankbot/engine"
)

// MaxOnBoard is the most pieces a side may have on the board (buried ones
// count) for drops and the draft.
const MaxOnBoard = 26

// Position is an immutable Gungi position: board, hands, side to act and
// who has finished the draft. It is a plain value; Play copies it.
type Position struct {
	cell    [81][3]piece // bottom to top
	h       [81]uint8    // tower heights
	tops    [2]bits      // squares whose top belongs to each side
	hand    [2][numKinds]uint8
	onBoard [2]uint8
	marshal [2]Square // NoSquare while in hand
	turn    engine.Side
	ready   [2]bool
	number  int // turn number, 1 at the start, +1 after every action
}

// Reasons a game of Gungi ends, besides the shared ones.
const (
	ReasonCheckmate = engine.Reason("checkmate")
	ReasonStalemate = engine.Reason("stalemate")
)

var (
	_ engine.Position   = (*Position)(nil)
	_ engine.Repeatable = (*Position)(nil)
	_ engine.Describer  = (*Position)(nil)
)

func emptyPosition() *Position {
	p := &Position{marshal: [2]Square{NoSquare, NoSquare}, number: 1}
	return p
}

// Rules returns the Gungi rules.
func (p *Position) Rules() engine.Rules { return Rules }

// Turn is the side to act next.
func (p *Position) Turn() engine.Side { return p.turn }

// InDraft reports whether the draft is still going on.
func (p *Position) InDraft() bool { return !(p.ready[0] && p.ready[1]) }

// Ready reports whether side s has finished its draft.
func (p *Position) Ready(s engine.Side) bool { return p.ready[s] }

// Number is the turn number (1 for the first action of the draft).
func (p *Position) Number() int { return p.number }

// Hand is how many pieces of kind k side s still holds.
func (p *Position) Hand(s engine.Side, k Kind) int { return int(p.hand[s][k%numKinds]) }

// OnBoard is how many of side s's pieces are on the board, buried included.
func (p *Position) OnBoard(s engine.Side) int { return int(p.onBoard[s]) }

// Tower returns the pieces on sq, bottom to top (nil when empty).
func (p *Position) Tower(sq Square) []Piece {
	if sq < 0 || sq > 80 {
		return nil
	}
	var out []Piece
	for i := 0; i < int(p.h[sq]); i++ {
		c := p.cell[sq][i]
		out = append(out, Piece{c.kind(), c.side()})
	}
	return out
}

// MarshalSquare is side s's Marshal square (NoSquare before it is placed).
func (p *Position) MarshalSquare(s engine.Side) Square { return p.marshal[s] }

func (p *Position) top(s Square) piece {
	if p.h[s] == 0 {
		return 0
	}
	return p.cell[s][p.h[s]-1]
}

// push puts pc on top of s.
func (p *Position) push(s Square, pc piece) {
	if t := p.top(s); t != 0 {
		p.tops[t.side()].clear(s)
	}
	p.cell[s][p.h[s]] = pc
	p.h[s]++
	p.tops[pc.side()].set(s)
	if pc.kind() == Marshal {
		p.marshal[pc.side()] = s
	}
}

// pop removes and returns the top of s.
func (p *Position) pop(s Square) piece {
	p.h[s]--
	pc := p.cell[s][p.h[s]]
	p.cell[s][p.h[s]] = 0
	p.tops[pc.side()].clear(s)
	if t := p.top(s); t != 0 {
		p.tops[t.side()].set(s)
	}
	if pc.kind() == Marshal {
		p.marshal[pc.side()] = NoSquare
	}
	return pc
}

// reachFrom is the pattern of the top piece of s: its own at its tier, or
// for a Captain the pattern of the first non-Captain below it.
func (p *Position) reachFrom(s Square) *reach {
	h := int(p.h[s])
	pc := p.cell[s][h-1]
	k := pc.kind()
	if k == Captain {
		for i := h - 2; i >= 0; i-- {
			if b := p.cell[s][i].kind(); b != Captain {
				k = b
				break
			}
		}
	}
	return &reaches[pc.side()][k][h-1][s]
}

// attacks reports whether the top of from can attack the tower on to.
func (p *Position) attacks(from, to Square) bool {
	r := p.reachFrom(from)
	if !r.mask.has(to) {
		return false
	}
	if p.top(from).kind() == Fortress && p.h[to] > 1 {
		return false
	}
	return reachIn(p, r, to)
}

// reachable reports whether the top of from has to in its range now.
func (p *Position) reachable(from, to Square) bool {
	return reachIn(p, p.reachFrom(from), to)
}

// reachIn reports whether pattern r reaches to on p's board.
func reachIn(p *Position, r *reach, to Square) bool {
	for _, j := range r.jumps {
		if j.to == to {
			return j.block < 0 || p.h[j.block] == 0
		}
	}
	for _, ray := range r.rays {
		for _, q := range ray {
			if q == to {
				return true
			}
			if p.h[q] != 0 {
				break
			}
		}
	}
	return false
}

// attackedBy reports whether a top piece of side by can attack sq.
func (p *Position) attackedBy(sq Square, by engine.Side) bool {
	for w, word := range p.tops[by] {
		word &= attackFrom[sq][w] // the rest cannot reach sq
		for word != 0 {
			i := trailingZeros(word)
			word &= word - 1
			if p.attacks(Square(w*64+i), sq) {
				return true
			}
		}
	}
	return false
}

// checkers lists the squares of by's pieces attacking sq.
func (p *Position) checkers(sq Square, by engine.Side) []Square {
	var out []Square
	for s := Square(0); s < 81; s++ {
		if p.tops[by].has(s) && p.attacks(s, sq) {
			out = append(out, s)
		}
	}
	return out
}

// inCheck reports whether side s's Marshal is attacked.
func (p *Position) inCheck(s engine.Side) bool {
	m := p.marshal[s]
	return m != NoSquare && p.attackedBy(m, s.Opponent())
}

// InCheck reports whether the side to act has its Marshal attacked.
func (p *Position) InCheck() bool { return p.inCheck(p.turn) }

// apply plays a move known to be pseudo-legal on p in place.
func (p *Position) apply(m Move) {
	us := p.turn
	switch m.Kind {
	case KindReady:
		p.ready[us] = true
	case KindDrop:
		p.hand[us][m.Piece]--
		p.onBoard[us]++
		p.push(m.To, mkPiece(m.Piece, us))
	case KindMove, KindStack:
		p.push(m.To, p.pop(m.From))
	case KindAttack:
		pc := p.pop(m.From)
		victim := p.pop(m.To)
		p.onBoard[victim.side()]--
		p.push(m.To, pc)
	}
	p.number++
	switch {
	case p.ready[0] && p.ready[1]:
		if m.Kind == KindReady {
			p.turn = engine.White // the game begins
		} else {
			p.turn = us.Opponent()
		}
	case p.ready[us.Opponent()]:
		// the opponent is done with its draft: we keep placing
	default:
		p.turn = us.Opponent()
	}
}

// Encode returns the GFEN of the position.
func (p *Position) Encode() string { return p.encode(true) }

// RepetitionKey is the board, the hands and the side to act (§6).
func (p *Position) RepetitionKey() string { return p.encode(false) }

// Facts are the draft state and the hands.
func (p *Position) Facts() []engine.Fact {
	var out []engine.Fact
	if p.InDraft() {
		state := "placing"
		if p.ready[p.turn.Opponent()] {
			state = "placing-alone"
		}
		out = append(out, engine.Fact{Key: "gungi.draft", Args: []string{p.turn.String(), state}})
	}
	for _, s := range []engine.Side{engine.White, engine.Black} {
		n := 0
		for k := Marshal; k < numKinds; k++ {
			n += int(p.hand[s][k])
		}
		out = append(out, engine.Fact{Key: "gungi.hand", Args: []string{s.String(), strconv.Itoa(n), p.handString(s), strconv.Itoa(int(p.onBoard[s]))}})
	}
	return out
}

// Announcements says check when the side to act has its Marshal attacked;
// the lines run from each checking piece to the Marshal.
func (p *Position) Announcements() []engine.Announcement {
	m := p.marshal[p.turn]
	if m == NoSquare {
		return nil
	}
	cs := p.checkers(m, p.turn.Opponent())
	if len(cs) == 0 {
		return nil
	}
	a := engine.Announcement{Kind: engine.AnnounceCheck, Side: p.turn.Opponent()}
	for _, c := range cs {
		a.Lines = append(a.Lines, [2]string{c.String(), m.String()})
	}
	return []engine.Announcement{a}
}

// Status is checkmate (the side to act loses) or stalemate (a draw) when
// the side to act has no legal action.
func (p *Position) Status() engine.Outcome {
	if p.hasLegal() {
		return engine.Outcome{}
	}
	if p.InCheck() {
		return engine.Win(p.turn.Opponent(), ReasonCheckmate)
	}
	return engine.Drawn(ReasonStalemate)
}
