package app

import (
	"context"
	"errors"
	"strconv"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// puzzleByID finds a shipped puzzle of game.
func puzzleByID(game, id string) (*puzzle.Puzzle, error) {
	p, err := puzzle.ShippedByID(game, id)
	if errors.Is(err, puzzle.ErrNotShipped) {
		return nil, refuse("refuse.puzzle.none")
	}
	if err != nil {
		return nil, wrap("shipped puzzles", err)
	}
	return p, nil
}

// puzzleState is the active puzzle of the caller at its current step:
// the position the solver is to move in, from the engine.
type puzzleState struct {
	a   *store.ActivePuzzle
	pz  *puzzle.Puzzle
	pos engine.Position
}

func (b *Bot) activePuzzle(ctx context.Context, r *req) (*puzzleState, error) {
	a, err := b.st.ActivePuzzle(ctx, r.User.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse("refuse.puzzle.none")
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
		if pos, _, err = playNote(pos, pz.Solution[i]); err != nil {
			return nil, wrap("puzzle "+pz.ID, err)
		}
	}
	return &puzzleState{a, pz, pos}, nil
}

// playNote plays a move written in the game's notation.
func playNote(pos engine.Position, note string) (engine.Position, engine.Move, error) {
	m, err := pos.ParseMove(note)
	if err != nil {
		return nil, nil, err
	}
	next, err := pos.Play(m)
	return next, m, err
}

// puzzleBoard is the private board of a puzzle: the solver's side at the
// bottom, the task and how to answer.
func (b *Bot) puzzleBoard(r *req, st *puzzleState, last engine.Move, head string) ([]Reply, error) {
	side := st.pos.Turn()
	sideName := r.t("game." + side.String())
	desc := r.t("puzzle.task", sideName, strconv.Itoa(st.pz.Depth-st.a.Step))
	if head != "" {
		desc = head + "\n" + desc
	}
	desc += "\n" + r.t("puzzle.howto")
	e := &Embed{Title: r.t("puzzle.title", st.pz.ID, gameLabel(r.loc, st.pz.Game, "", st.pos)), Description: desc}
	reply := Reply{Ephemeral: true, Embed: e, Components: puzzleButtons(r, st), Game: st.pz.Game, Position: st.pos.Encode()}
	png, err := renderPNG(st.pos, last, side == engine.Black, r.loc, nil)
	if err != nil {
		b.log.Warn("render puzzle", "puzzle", st.pz.ID, "err", err)
	} else if png != nil {
		name := "puzzle-" + st.pz.ID + "-" + strconv.Itoa(st.a.Step) + ".png"
		reply.Files = []File{{Name: name, ContentType: "image/png", Data: png, Description: positionAlt(r.loc, st.pz.Game, st.pos, nil, nil)}}
		e.Image = name
		reply.FallbackText = r.t("game.noimage")
	}
	return []Reply{reply}, nil
}
