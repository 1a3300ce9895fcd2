package app

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/metrics"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/imaging"
)

// The archive: every game keeps its per-server number; a finished game's
// record file and animated replay can be built at any time from the
// store. These helpers are what /history game:#N, /board game:#N ply:K and
// the game-over message need (see docs/ratings.md).

// PastGame is the game a look back names (/history, /review): game:#N on
// this server, else the caller's latest game here, which may be over.
func (b *Bot) PastGame(ctx context.Context, r *Req) (*Game, error) {
	g, byNumber, err := b.gameByNumber(ctx, r, r.Options["game"])
	if err != nil || byNumber {
		return g, err
	}
	return b.FindFinished(ctx, r)
}

// gameByNumber reads "#N" (or "N") as a game number of the caller's
// server; ok is false when text is not a number, so callers can fall back
// to their other ways of naming a game.
func (b *Bot) gameByNumber(ctx context.Context, r *Req, text string) (g *Game, ok bool, err error) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(text), "#"))
	if err != nil || n < 1 {
		return nil, false, nil
	}
	g, err = b.St.numberedGame(ctx, r.GuildID, n)
	if errors.Is(err, ErrNotFound) {
		return nil, true, Refuse("refuse.no-game-number", "#"+strconv.Itoa(n))
	}
	if err != nil {
		return nil, true, Wrap("game by number", err)
	}
	return g, true, nil
}

// GameRecord is a game's record (engine/record, imported as recfile) with its server number,
// rated flag and the ratings its players had before it.
func (b *Bot) GameRecord(ctx context.Context, g *Game) (*recfile.Record, error) {
	st := b.St
	row, err := st.Game(ctx, g.ID)
	if err != nil {
		return nil, Wrap("record", err)
	}
	num, rated := g.Number, g.Rated
	log, err := b.St.MoveLog(ctx, g.ID)
	if err != nil {
		return nil, Wrap("record", err)
	}
	rec := &recfile.Record{
		Game: g.Game, Variant: g.Variant, Start: g.Start, White: names.PlainText(g.White.Name), Black: names.PlainText(g.Black.Name),
		Clock: g.Clock, Date: row.Created, Number: num, Rated: rated, Moves: log,
	}
	if cs, err := st.RatingChanges(ctx, g.ID); err == nil && len(cs) == 2 {
		rec.WhiteRating, rec.BlackRating = BeforeOf(cs[0]).String(), BeforeOf(cs[1]).String()
	}
	if g.Status == gmFinished {
		res, _ := recfile.ParseResult(g.Result)
		rec.Outcome = engine.Outcome{Result: res, Reason: engine.Reason(g.Reason)}
	}
	return rec, nil
}

// GameFiles are the record file and, for a finished game, the animated
// replay, named by the game's server number: "game-12.txt", "game-12.gif".
// The replay is drawn once (at most MaxRenders at a time; a waiting
// interaction is deferred by its transport) and read from the store
// afterwards.
// The game-over message attaches them; /history attaches them on request.
// The console writes attached images (PNG and GIF) beside its boards.
func (b *Bot) GameFiles(ctx context.Context, g *Game, flip bool) ([]view.File, error) {
	rec, err := b.GameRecord(ctx, g)
	if err != nil {
		return nil, err
	}
	text, err := b.rd.Record(rec)
	if err != nil {
		return nil, Wrap("record", err)
	}
	base := "game-" + strconv.Itoa(rec.Number)
	files := []view.File{{Name: base + ".txt", ContentType: "text/plain; charset=utf-8", Data: []byte(text)}}
	if g.Status == GmActive {
		return files, nil // the replay is for finished games
	}
	anim, err := b.rd.Picture(ctx, g.ID, true, renders.Replay(flip), func() ([]byte, error) {
		ps, ms, err := rec.Positions()
		if err != nil {
			return nil, err
		}
		// A very long game's replay is sampled to fit Discord's upload
		// limit with the rest of a final board.
		return imaging.RenderReplay(ps, ms, imaging.ReplayOptions{Flip: flip, MaxBytes: renders.MaxGIFBytes})
	})
	if err != nil {
		// The message goes without its replay rather than not at all (the
		// record still replays it: tankbot replay).
		b.Log.Warn("replay not attached", "game", g.ID, "plies", len(rec.Moves), "err", err)
		return files, nil
	}
	return append(files, view.File{Name: base + ".gif", ContentType: "image/gif", Data: anim}), nil
}

// boardImage draws a board for a message. A finished game's final board
// is drawn once, with its last move highlighted (also when the game ended
// off the board: a resignation, an agreement), and then read from the
// store (renders), by this bot and by the web viewer's final.png alike;
// any other board is drawn as it is asked for.
func (b *Bot) boardImage(ctx context.Context, g *Game, pos engine.Position, last engine.Move, flip bool, loc string) ([]byte, error) {
	if g.Status == GmActive || pos.Encode() != g.Pos {
		return metrics.Render(g.Game, func() ([]byte, error) { return view.RenderPNG(pos, last, flip, loc, g) })
	}
	return b.rd.Picture(ctx, g.ID, true, renders.Board(g.Ply, g.Ply, loc, flip), func() ([]byte, error) {
		if last == nil && g.Ply > 0 {
			var err error
			if pos, last, err = b.ReplayLast(ctx, g); err != nil {
				return nil, err
			}
		}
		return metrics.Render(g.Game, func() ([]byte, error) { return view.RenderPNG(pos, last, flip, loc, g) })
	})
}

// PositionAt replays g's log to ply k (0 the start; k < 0 the final
// position) and returns the position and the move that led to it (nil at
// the start), for /board game:#N ply:K.
func (b *Bot) PositionAt(ctx context.Context, g *Game, k int) (engine.Position, engine.Move, error) {
	rec, err := b.GameRecord(ctx, g)
	if err != nil {
		return nil, nil, err
	}
	if k > len(rec.Moves) {
		return nil, nil, Refuse("refuse.ply-range", strconv.Itoa(k), strconv.Itoa(len(rec.Moves)))
	}
	ps, ms, err := rec.Positions()
	if err != nil {
		return nil, nil, Wrap("replay", err)
	}
	if k < 0 {
		k = len(ms)
	}
	if k == 0 {
		return ps[0], nil, nil
	}
	return ps[k], ms[k-1], nil
}

// finalExtras completes a game-over board: the rating changes as lines of
// its content (counted here if the finishing write did not: the store
// counts a game once, so this also completes a game finished before a
// crash), and the record file and animated replay attached beside the
// board image, which stays the embed's image. A failure costs only the
// extras: the result is already saved and the message still goes.
func (b *Bot) finalExtras(ctx context.Context, loc string, g *Game, reply *view.Reply) {
	if g.Status == GmActive {
		return
	}
	b.gameOver(ctx, g)
	lines, err := b.ratingsForGame(ctx, loc, g)
	if err != nil {
		b.Log.Warn("rate finished game", "game", g.ID, "err", err)
	}
	if len(lines) > 0 {
		text := strings.Join(lines, "\n")
		reply.Content = view.ClipRunes(reply.Content, 2000-utf8.RuneCountInString(text)-1) + "\n" + text
	}
	files, err := b.GameFiles(ctx, g, false)
	if err != nil {
		b.Log.Warn("final board files", "game", g.ID, "err", err)
		return
	}
	view.ReplayAlt(loc, g, files)
	reply.Files = append(reply.Files, files...)
}
