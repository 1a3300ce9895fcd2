package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// puzzleByID finds a shipped puzzle of game.
func puzzleByID(game, id string) (*puzzle.Puzzle, error) {
	p, err := puzzle.ShippedByID(game, id)
	if errors.Is(err, puzzle.ErrNotShipped) {
		return nil, Refuse("refuse.puzzle.none")
	}
	if err != nil {
		return nil, Wrap("shipped puzzles", err)
	}
	return p, nil
}

// PuzzleState is the active puzzle of the caller at its current step:
// the position the solver is to move in, from the engine.
type PuzzleState struct {
	Active *store.ActivePuzzle
	Puzzle *puzzle.Puzzle
	Pos    engine.Position
}

func (b *Bot) CurrentPuzzle(ctx context.Context, r *Req) (*PuzzleState, error) {
	a, err := b.St.ActivePuzzle(ctx, r.User.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Refuse("refuse.puzzle.none")
	}
	if err != nil {
		return nil, err
	}
	pz, err := b.lookupPuzzle(ctx, a.Game, a.PuzzleID)
	if err != nil {
		return nil, err
	}
	pos, err := pz.Decode()
	if err != nil {
		return nil, err
	}
	for i := 0; i < 2*a.Step && i < len(pz.Solution); i++ {
		if pos, _, err = PlayNote(pos, pz.Solution[i]); err != nil {
			return nil, Wrap("puzzle "+pz.ID, err)
		}
	}
	return &PuzzleState{a, pz, pos}, nil
}

// PlayNote plays a move written in the game's notation.
func PlayNote(pos engine.Position, note string) (engine.Position, engine.Move, error) {
	m, err := pos.ParseMove(note)
	if err != nil {
		return nil, nil, err
	}
	next, err := pos.Play(m)
	return next, m, err
}

// PuzzleBoard is the private board of a puzzle: the solver's side at the
// bottom, the task and how to answer.
func (b *Bot) PuzzleBoard(r *Req, st *PuzzleState, last engine.Move, head string) ([]view.Reply, error) {
	side := st.Pos.Turn()
	sideName := r.T("game." + side.String())
	desc := r.T("puzzle.task", sideName, strconv.Itoa(st.Puzzle.Depth-st.Active.Step))
	if head != "" {
		desc = head + "\n" + desc
	}
	desc += "\n" + r.T("puzzle.howto")
	e := &view.Embed{Title: r.T("puzzle.title", st.Puzzle.ID, view.GameLabel(r.Locale(), st.Puzzle.Game, "", st.Pos)), Description: desc}
	reply := view.Reply{Ephemeral: true, Embed: e, Components: puzzleButtons(r, st), Shows: &view.Shown{Game: st.Puzzle.Game, Position: st.Pos.Encode()}}
	png, err := view.RenderPNG(st.Pos, last, side == engine.Black, r.Locale(), nil)
	if err != nil {
		b.Log.Warn("render puzzle", "puzzle", st.Puzzle.ID, "err", err)
	} else if png != nil {
		name := "puzzle-" + st.Puzzle.ID + "-" + strconv.Itoa(st.Active.Step) + ".png"
		reply.Files = []view.File{{Name: name, ContentType: "image/png", Data: png, Description: view.PositionAlt(r.Locale(), st.Puzzle.Game, st.Pos, nil, nil)}}
		e.Image = name
		reply.FallbackText = r.T("game.noimage")
	}
	return []view.Reply{reply}, nil
}

// PuzzlePrefix starts the custom ids of a puzzle board's components.
const PuzzlePrefix = "pz"

// PuzzleID is the custom id of a puzzle board's component.
func PuzzleID(pz string, step int, action string, arg ...string) string {
	s := PuzzlePrefix + ":" + pz + ":" + strconv.Itoa(step) + ":" + action
	if len(arg) > 0 && arg[0] != "" {
		s += ":" + arg[0]
	}
	return s
}

// ParsePuzzleID reads a custom id written by puzzleID.
func ParsePuzzleID(s string) (id string, step int, action, arg string, ok bool) {
	parts := strings.SplitN(s, ":", 5)
	if len(parts) < 4 || parts[0] != PuzzlePrefix || parts[1] == "" || parts[3] == "" {
		return "", 0, "", "", false
	}
	step, err := strconv.Atoi(parts[2])
	if err != nil || step < 0 || strconv.Itoa(step) != parts[2] {
		return "", 0, "", "", false
	}
	if len(parts) == 5 {
		arg = parts[4]
	}
	return parts[1], step, parts[3], arg, true
}

// puzzleButtons are the puzzle board's inputs at st's step.
func puzzleButtons(r *Req, st *PuzzleState) [][]view.Component {
	id, step := st.Puzzle.ID, st.Active.Step
	return [][]view.Component{{
		{Kind: view.Button, CustomID: PuzzleID(id, step, "pick"), Label: r.T("btn.pick"), Style: view.Primary},
		{Kind: view.Button, CustomID: PuzzleID(id, step, "type"), Label: r.T("btn.type"), Style: view.Primary},
		{Kind: view.Button, CustomID: PuzzleID(id, step, "hint"), Label: r.T("btn.puzzle.hint"), Style: view.Secondary},
	}}
}

// SuggestPuzzleTheme lists the themes of the chosen game's puzzles (the
// default game's without one) that start with what was typed, with how
// many puzzles have each.
func SuggestPuzzleTheme(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice {
	game := strings.TrimSpace(r.Options["game"])
	if game == "" {
		game = DefaultGame()
	}
	ps, err := puzzle.Shipped(game)
	if err != nil {
		return nil
	}
	typed = strings.ToLower(strings.TrimSpace(typed))
	var out []view.Choice
	for _, tc := range puzzle.Themes(ps) {
		if strings.HasPrefix(tc.Theme, typed) && len(out) < 25 {
			out = append(out, view.Choice{Name: fmt.Sprintf("%s (%d)", tc.Theme, tc.N), Value: tc.Theme})
		}
	}
	return out
}

// WithTheme keeps the puzzles tagged with theme.
func WithTheme(ps []*puzzle.Puzzle, theme string) []*puzzle.Puzzle {
	var out []*puzzle.Puzzle
	for _, p := range ps {
		if slices.Contains(p.Themes, theme) {
			out = append(out, p)
		}
	}
	return out
}

func SuggestPuzzleMove(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice {
	st, err := b.CurrentPuzzle(ctx, r)
	if err != nil {
		return nil
	}
	return posMoves(r, st.Pos, typed)
}

// Refutation is a reply of the side to move in pos that wins the game at
// once, and the position after it (nil: none).
func Refutation(pos engine.Position) (engine.Position, engine.Move) {
	if pos.Status().Over() {
		return nil, nil
	}
	for _, m := range pos.LegalMoves() {
		after, err := pos.Play(m)
		if err != nil {
			continue
		}
		if w, ok := after.Status().Winner(); ok && w == pos.Turn() {
			return after, m
		}
	}
	return nil, nil
}
