package app

import (
	"context"
	"strconv"
	"unicode/utf8"

	a11y "github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/imaging"
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
		d.Outcome = storedOutcome(g)
	}
	d.Prev, d.Last = b.stepTo(ctx, g, pos, last)
	return altOr(loc, d)
}

// storedOutcome is a finished game's stored result (which may have been
// decided off the board: a resignation, the clock), nil when unknown.
func storedOutcome(g *Game) *engine.Outcome {
	for _, r := range []engine.Result{engine.WhiteWins, engine.BlackWins, engine.Draw} {
		if g.Result == r.String() {
			return &engine.Outcome{Result: r, Reason: engine.Reason(g.Reason)}
		}
	}
	return nil
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

// altOr is describe.Alt, or, when the position cannot be described, the
// game's name and move number (never empty).
func altOr(loc string, d a11y.Board) string {
	s, err := a11y.Alt(loc, d)
	if err != nil || s == "" {
		return ClipAlt(GameLabel(loc, d.Game, d.Variant, d.Pos))
	}
	return s
}

// positionAlt is the alt text of a picture of a position outside a game
// (a puzzle, the rules' example, a review's board): prev and last, when
// set, are the move shown.
func PositionAlt(loc, game string, pos, prev engine.Position, last engine.Move) string {
	return altOr(loc, a11y.Board{Game: game, Pos: pos, Prev: prev, Last: last})
}

// clipAlt keeps s within Discord's limit on a description.
func ClipAlt(s string) string {
	if utf8.RuneCountInString(s) <= a11y.AltLimit {
		return s
	}
	return string([]rune(s)[:a11y.AltLimit-1]) + "…"
}

// standingsAlt is the standings pictures' alt text: the table as a
// numbered list (every page's rows: each picture holds a part of it, the
// list reads the whole).
func standingsAlt(loc, title string, pages []imaging.StandingsTable) string {
	var rows []a11y.Standing
	for _, pg := range pages {
		for _, row := range pg.Rows {
			if len(row) < 4 {
				continue
			}
			rank, _ := strconv.Atoi(row[0])
			games, _ := strconv.Atoi(row[len(row)-1])
			rows = append(rows, a11y.Standing{Rank: rank, Name: row[1], Points: row[2], Games: games})
		}
	}
	return a11y.Standings(loc, title, rows, a11y.AltLimit)
}

// replayAlt gives the animated replay among a game's files (gameFiles)
// its alt text in loc: which game, how many moves; the final board it
// goes with has the position's own.
func ReplayAlt(loc string, g *Game, files []File) {
	for i := range files {
		if files[i].ContentType == "image/gif" {
			files[i].Description = ClipAlt(i18n.T(loc, "a11y.replay", GameLabel(loc, g.Game, g.Variant, nil), g.Num(), strconv.Itoa(g.Ply)))
		}
	}
}
