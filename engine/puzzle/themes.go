package puzzle

import (
	"slices"
	"strings"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// themes are the mechanically detectable motifs of a solution, from the
// position and the line (docs/puzzles.md lists them):
//
//   - the way it ends, the game's own reason: "escape", "clt-destroyed"
//     (Tank Chess), "castle-occupied", "all-captured", "no-moves"
//     (Camelot), "checkmate" (Gungi);
//   - "capture": a solver move before the last takes material;
//   - "quiet": a solver move before the last neither takes material nor
//     gives check;
//   - "sacrifice": a defender reply of the solution takes material;
//   - "check": a solver move before the last gives CHECK (Tank Chess) or
//     check (Gungi);
//   - "double-threat": a solver move before the last announces two
//     threats at once (Tank Chess CHECK and ESCAPE, or threats from two
//     squares; Gungi checks from two squares);
//   - Tank Chess: "side-armour" (a solver shot hits side or rear armour
//     that its gun beats, where the front would have stopped it),
//     "mortar" (a solver shot is a mortar's indirect fire, over whatever
//     stands between), "discovered-shot" (the winning shot comes from a
//     piece the solver did not move, on a line its earlier moves opened:
//     the shot was not playable at the start), "rear-armour" (a solver
//     shot comes straight at the target's back), "turn-and-fire" (the
//     shooter only turns on its square), "commander-fires" (the solver's
//     CLT fires a shot), "reverse" (a solver move is a reverse),
//     "point-blank" (a solver shot at a target two steps away, the
//     closest a gun fires), "long-shot" (six steps or more);
//   - Camelot: "multi-jump" (a solver move jumps two or more pieces),
//     "charge" (a Knight's charge: canters, then jumps), "castle-entry"
//     (a solver move lands in the enemy castle), "forced-capture" (the
//     defender had to capture);
//   - Gungi: "drop", "stack" (a solver move drops from hand, or stacks
//     onto a tower), "drop-mate", "stack-mate" (the mating move does),
//     "tier" (a solver move is made from the second or third tier of a
//     tower, or builds a third tier);
//   - "draft": a Gungi position still in its draft.
func themes(steps []stepInfo, draft bool) []string {
	set := map[string]bool{}
	last := len(steps) - 1
	moved := map[string]bool{} // squares the solver's earlier moves landed on
	for k, st := range steps {
		final := k == last
		checks := 0
		threatSquares := map[string]bool{}
		for _, a := range st.after.Announcements() {
			if a.Side != st.before.Turn() {
				continue
			}
			switch a.Kind {
			case engine.AnnounceCheck, engine.AnnounceEscape:
				checks++
				for _, l := range a.Lines {
					threatSquares[a.Kind+l[0]] = true
				}
			}
		}
		if st.solver && !final {
			if st.gain > 0 {
				set["capture"] = true
			}
			if st.gain == 0 && checks == 0 {
				set["quiet"] = true
			}
			if checks > 0 {
				set["check"] = true
			}
			if checks > 1 || len(threatSquares) > 1 {
				set["double-threat"] = true
			}
		}
		if !st.solver && st.gain > 0 {
			set["sacrifice"] = true
		}
		switch m := st.move.(type) {
		case tank.Move:
			if st.solver {
				tankThemes(set, st, m, final, moved, steps[0].before)
				moved[squareOf(m.To)] = true
			}
		case camelot.Move:
			if st.solver {
				if len(m.Captured()) >= 2 {
					set["multi-jump"] = true
				}
				if note := m.String(); strings.Contains(note, "^") && strings.Contains(note, "x") {
					set["charge"] = true
				}
				if slices.Contains(camelotCastle[st.before.Turn().Opponent()], m.To()) {
					set["castle-entry"] = true
				}
			}
			if !st.solver {
				for _, a := range st.before.Announcements() {
					if a.Kind == engine.AnnounceMustCapture && a.Side == st.before.Turn() {
						set["forced-capture"] = true
					}
				}
			}
		case gungi.Move:
			if st.solver {
				gungiThemes(set, st, m, final)
			}
		}
		if final {
			if o := st.after.Status(); o.Over() && o.Reason != "" {
				set[string(o.Reason)] = true
			}
		}
	}
	if draft {
		set["draft"] = true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// camelotCastle are each side's castle squares (Camelot rules: White's on
// rank 1, Black's on rank 16).
var camelotCastle = [2][]string{{"F1", "G1"}, {"F16", "G16"}}

func squareOf(s tank.Square) string {
	return tank.Move{From: s, Escape: true}.Steps()[0]
}

// tankThemes adds the Tank Chess themes of one solver move.
func tankThemes(set map[string]bool, st stepInfo, m tank.Move, final bool, moved map[string]bool, start engine.Position) {
	before, ok := st.before.(*tank.Position)
	if !ok {
		return
	}
	shooter := before.At(m.From).Piece
	// A reverse: one square straight back, the facing kept.
	if df, dr := shooter.Facing.Delta(); !m.Escape && m.Facing == shooter.Facing && m.To.File == m.From.File-df && m.To.Rank == m.From.Rank-dr {
		set["reverse"] = true
	}
	if !m.HasTarget {
		return
	}
	target := before.At(m.Target).Piece
	if shooter.Kind.Stats().Indirect {
		set["mortar"] = true
	}
	if m.To == m.From {
		set["turn-and-fire"] = true // the shooter only turns on its square
	}
	if shooter.Kind == tank.CLT {
		set["commander-fires"] = true
	}
	// How far the shot flies, in steps along its ray (a diagonal step
	// counts one): 2 is the closest a gun may fire (one empty square
	// between); 6 or more crosses most of a board's quarter.
	switch dist := max(abs(m.Target.File-m.To.File), abs(m.Target.Rank-m.To.Rank)); {
	case dist == 2:
		set["point-blank"] = true
	case dist >= 6:
		set["long-shot"] = true
	}
	// Side armour: the shot hits the side or rear, and the target's front
	// would have stopped it.
	dx, dy := m.Target.File-m.To.File, m.Target.Rank-m.To.Rank
	for d := tank.Dir(0); d < 8; d++ {
		if df, dr := d.Delta(); df == sgn(dx) && dr == sgn(dy) && d != target.Facing.Opposite() && shooter.Kind.Stats().Gun <= target.Kind.Stats().Front {
			set["side-armour"] = true
		}
		if df, dr := d.Delta(); df == sgn(dx) && dr == sgn(dy) && d == target.Facing {
			set["rear-armour"] = true // straight at its back
		}
	}
	if final && st.before != start && !moved[squareOf(m.From)] {
		if _, err := start.ParseMove(st.before.FormatMove(m)); err != nil {
			set["discovered-shot"] = true
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sgn(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// gungiThemes adds the Gungi themes of one solver move.
func gungiThemes(set map[string]bool, st stepInfo, m gungi.Move, final bool) {
	before, _ := st.before.(*gungi.Position)
	after, _ := st.after.(*gungi.Position)
	switch m.Kind {
	case gungi.KindDrop:
		set["drop"] = true
		if final {
			set["drop-mate"] = true
		}
	case gungi.KindStack:
		set["stack"] = true
		if final {
			set["stack-mate"] = true
		}
	}
	if before != nil && m.From != gungi.NoSquare && len(before.Tower(m.From)) >= 2 {
		set["tier"] = true
	}
	if after != nil && m.To != gungi.NoSquare && len(after.Tower(m.To)) >= 3 {
		set["tier"] = true
	}
}
