package app

import (
	"context"

	a11y "github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// The alt text of every picture the bot sends (File.Description): screen
// readers read it instead of "board.png". The words come from bot/describe,
// in the language of the message the picture goes with (the reader's for a
// private message, the server's for a public one), as the picture's own.

// boardAlt is the alt text of a game's board picture showing pos, last
// the move that led to it when the caller knows it (nil: none or not
// known). The position before it is found in the game's log (the picture
// may show any of its positions, or a move not saved yet); without it the
// text has no last move.
func (b *Bot) boardAlt(ctx context.Context, loc string, g *Game, pos engine.Position, last engine.Move) string {
	d := a11y.Board{Game: g.Game, Number: int64(g.Number), Variant: g.Variant, Pos: pos}
	if g.Status == gmFinished && pos.Encode() == g.Pos {
		d.Outcome = view.StoredOutcome(g)
	}
	d.Prev, d.Last = b.stepTo(ctx, g, pos, last)
	return view.AltOr(loc, d)
}

// stepTo is the position before pos in g's log and the move from it to
// pos (the last time pos was reached), or, when pos is one move past the
// log (a board drawn before its move is saved), the log's end and last;
// nil when pos is the start or neither.
func (b *Bot) stepTo(ctx context.Context, g *Game, pos engine.Position, last engine.Move) (engine.Position, engine.Move) {
	if g.Ply == 0 || g.Start == "" {
		return nil, nil
	}
	rules, ok := LookupGame(g.Game)
	if !ok {
		return nil, nil
	}
	start, err := rules.Decode(g.Start)
	if err != nil {
		return nil, nil
	}
	log, err := b.St.MoveLog(ctx, g.ID)
	if err != nil {
		return nil, nil
	}
	want := pos.Encode()
	var prev engine.Position
	var step engine.Move
	cur := start
	for _, n := range log {
		m, err := cur.ParseMove(n)
		if err != nil {
			break
		}
		next, err := cur.Play(m)
		if err != nil {
			break
		}
		if next.Encode() == want {
			prev, step = cur, m
		}
		cur = next
	}
	if prev == nil && last != nil {
		if next, err := cur.Play(last); err == nil && next.Encode() == want {
			prev, step = cur, last
		}
	}
	return prev, step
}
