package puzzle

import (
	"fmt"
	"strings"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// Reasons a puzzle is trivial (Trivial returns them): its answer is found
// without reading the position.
const (
	TrivialOnlyMove    = "only-move"    // the solver has a single legal move
	TrivialOnlyCapture = "only-capture" // the first move is the only one that takes material
	TrivialOnlyShot    = "only-shot"    // Tank Chess: the first move is the only shot on the board
	TrivialOnlyCheck   = "only-check"   // the first move is the only one giving check
	TrivialLastPiece   = "last-piece"   // a win in one by taking the opponent's last piece
)

// TrivialReasons lists every reason Trivial may give, in the order the
// miner prints its refusals.
var TrivialReasons = []string{TrivialOnlyMove, TrivialOnlyCapture, TrivialOnlyShot, TrivialOnlyCheck, TrivialLastPiece}

// Trivial lists why a puzzle's answer needs no reading (none: it is not
// trivial). It looks at the solver's first move among all its legal moves
// at the start: the only legal move, the only capture (in Tank Chess every
// capture is a shot: the only shot), the only move giving check; and at a
// win in one that takes the last enemy piece (Camelot).
func Trivial(pz *Puzzle) ([]string, error) {
	pos, err := pz.Decode()
	if err != nil {
		return nil, err
	}
	sp, ok := pos.(engine.Searchable)
	if !ok {
		return nil, ErrNoSearch
	}
	s := sp.NewSearcher()
	first, err := indexOf(s, pos, pz.Solution[0])
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: %w", pz.ID, err)
	}
	n := s.Generate()
	var out []string
	if n == 1 {
		out = append(out, TrivialOnlyMove)
	}
	me := pos.Turn()
	takes := func(i int) bool {
		if pos.Rules().Name() == "tank" {
			m, _ := s.Move(i).(tank.Move)
			return m.HasTarget
		}
		return s.Gain(i) > 0
	}
	if n > 1 && takes(first) {
		only := true
		for i := range n {
			if i != first && takes(i) {
				only = false
				break
			}
		}
		if only {
			if pos.Rules().Name() == "tank" {
				out = append(out, TrivialOnlyShot)
			} else {
				out = append(out, TrivialOnlyCapture)
			}
		}
	}
	// Camelot has no check.
	if n > 1 && pos.Rules().Name() != "camelot" && checks(pos, s.Move(first), me) {
		only := true
		for i := range n {
			if i != first && checks(pos, s.Move(i), me) {
				only = false
				break
			}
		}
		if only {
			out = append(out, TrivialOnlyCheck)
		}
	}
	if pz.Depth == 1 {
		if next, err := pos.Play(s.Move(first)); err == nil && next.Status().Reason == "all-captured" && lastPiece(pos, me.Opponent()) {
			out = append(out, TrivialLastPiece)
		}
	}
	return out, nil
}

// lastPiece reports whether side has a single piece left (Camelot: a
// side that cannot win, CanWin, has at most one).
func lastPiece(pos engine.Position, side engine.Side) bool {
	cw, ok := pos.(interface{ CanWin(engine.Side) bool })
	return ok && !cw.CanWin(side)
}

// checks reports whether m gives check: after it, pos's side to move me
// announces a check, or the game is won by the move (a mate or a shot at
// the CLT is the strongest check).
func checks(pos engine.Position, m engine.Move, me engine.Side) bool {
	next, err := pos.Play(m)
	if err != nil {
		return false
	}
	if o := next.Status(); o.Over() {
		w, ok := o.Winner()
		return ok && w == me
	}
	for _, a := range next.Announcements() {
		if a.Kind == engine.AnnounceCheck && a.Side == me {
			return true
		}
	}
	return false
}

// DedupKey is what makes two puzzles the same exercise: the same solver
// moves (which name the key square, where the final move strikes) played
// in the same game. Positions that differ elsewhere on the board but share
// them are one puzzle (the same blunder reached after different earlier
// moves), whatever the defender's replies in between: what the player
// must find is the same.
func DedupKey(pz *Puzzle) string {
	var b strings.Builder
	b.WriteString(pz.Game)
	for i := 0; i < len(pz.Solution); i += 2 {
		b.WriteString("\n")
		b.WriteString(pz.Solution[i])
	}
	return b.String()
}

// OriginGame is the game a puzzle's source names, without its ply and any
// deviation ("aiplay:2026:17" of "aiplay:2026:17:54:F3-F4"), for the cap
// on puzzles from one game.
func OriginGame(source string) string {
	parts := strings.SplitN(source, ":", 4)
	if len(parts) < 3 {
		return source
	}
	return strings.Join(parts[:3], ":")
}
