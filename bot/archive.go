package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/imaging"
)

// The archive: every game keeps its per-server number; a finished game's
// record file and animated replay can be built at any time from the
// store. These helpers are what /history game:#N, /board game:#N ply:K and
// the game-over message need (see docs/ratings.md).

// pastGame is the game a look back names (/history, /review): game:#N on
// this server, else the caller's latest game here, which may be over.
func (b *Bot) pastGame(ctx context.Context, r *req) (*gameRec, error) {
	g, byNumber, err := b.gameByNumber(ctx, r, r.Options["game"])
	if err != nil || byNumber {
		return g, err
	}
	return b.findFinished(ctx, r)
}

// gameByNumber reads "#N" (or "N") as a game number of the caller's
// server; ok is false when text is not a number, so callers can fall back
// to their other ways of naming a game.
func (b *Bot) gameByNumber(ctx context.Context, r *req, text string) (g *gameRec, ok bool, err error) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(text), "#"))
	if err != nil || n < 1 {
		return nil, false, nil
	}
	g, err = b.st.numberedGame(ctx, r.GuildID, n)
	if errors.Is(err, errNotFound) {
		return nil, true, refuse("refuse.no-game-number", "#"+strconv.Itoa(n))
	}
	if err != nil {
		return nil, true, wrap("game by number", err)
	}
	return g, true, nil
}

// gameRecord is a game's record (engine/record, imported as recfile) with its server number,
// rated flag and the ratings its players had before it.
func (b *Bot) gameRecord(ctx context.Context, g *gameRec) (*recfile.Record, error) {
	st := b.st.store()
	row, err := st.Game(ctx, g.ID)
	if err != nil {
		return nil, wrap("record", err)
	}
	num, rated := g.Number, g.Rated
	log, err := b.st.moveLog(ctx, g.ID)
	if err != nil {
		return nil, wrap("record", err)
	}
	rec := &recfile.Record{
		Game: g.Game, Variant: g.Variant, Start: g.Start, White: PlainText(g.White.Name), Black: PlainText(g.Black.Name),
		Clock: g.Clock, Date: row.Created, Number: num, Rated: rated, Moves: log,
	}
	if cs, err := st.RatingChanges(ctx, g.ID); err == nil && len(cs) == 2 {
		rec.WhiteRating, rec.BlackRating = beforeOf(cs[0]).String(), beforeOf(cs[1]).String()
	}
	if g.Status == gmFinished {
		res, _ := recfile.ParseResult(g.Result)
		rec.Outcome = engine.Outcome{Result: res, Reason: engine.Reason(g.Reason)}
	}
	return rec, nil
}

// gameFiles are the record file and, for a finished game, the animated
// replay, named by the game's server number: "game-12.txt", "game-12.gif".
// The game-over message attaches them; /history attaches them on request.
// The console writes attached images (PNG and GIF) beside its boards.
func (b *Bot) gameFiles(ctx context.Context, g *gameRec, flip bool) ([]File, error) {
	rec, err := b.gameRecord(ctx, g)
	if err != nil {
		return nil, err
	}
	text, err := recfile.Write(rec)
	if err != nil {
		return nil, wrap("record", err)
	}
	base := "game-" + strconv.Itoa(rec.Number)
	files := []File{{Name: base + ".txt", ContentType: "text/plain; charset=utf-8", Data: []byte(text)}}
	if g.Status == gmActive {
		return files, nil // the replay is for finished games
	}
	ps, ms, err := rec.Positions()
	if err != nil {
		return nil, wrap("replay", err)
	}
	anim, err := imaging.RenderReplay(ps, ms, imaging.ReplayOptions{Flip: flip})
	if err != nil {
		return nil, wrap("replay", err)
	}
	if len(anim) > maxReplayBytes {
		// A very long game: the message goes without its replay rather
		// than not at all (the record still replays it: tankbot replay).
		b.log.Info("replay too large to attach", "game", g.ID, "bytes", len(anim), "plies", len(ms))
		return files, nil
	}
	return append(files, File{Name: base + ".gif", ContentType: "image/gif", Data: anim}), nil
}

// maxReplayBytes bounds an attached replay so that a final board (board
// PNG ~40 kB, record a few kB, replay) stays far inside Discord's upload
// limit: 10 MiB on servers without boosts since 2024, 25 MiB before.
// A 100-ply game's replay weighs 0.4-1.1 MB (docs/ratings.md), so only
// games of many hundreds of plies lose theirs.
const maxReplayBytes = 8 << 20

// positionAt replays g's log to ply k (0 the start; k < 0 the final
// position) and returns the position and the move that led to it (nil at
// the start), for /board game:#N ply:K.
func (b *Bot) positionAt(ctx context.Context, g *gameRec, k int) (engine.Position, engine.Move, error) {
	rec, err := b.gameRecord(ctx, g)
	if err != nil {
		return nil, nil, err
	}
	if k > len(rec.Moves) {
		return nil, nil, refuse("refuse.ply-range", strconv.Itoa(k), strconv.Itoa(len(rec.Moves)))
	}
	ps, ms, err := rec.Positions()
	if err != nil {
		return nil, nil, wrap("replay", err)
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
func (b *Bot) finalExtras(ctx context.Context, loc string, g *gameRec, reply *Reply) {
	reply.Final = true
	if g.Status == gmActive {
		return
	}
	b.tournamentGameOver(ctx, g)
	lines, err := b.ratingsForGame(ctx, loc, g)
	if err != nil {
		b.log.Warn("rate finished game", "game", g.ID, "err", err)
	}
	if len(lines) > 0 {
		text := strings.Join(lines, "\n")
		reply.Content = clipRunes(reply.Content, 2000-utf8.RuneCountInString(text)-1) + "\n" + text
	}
	files, err := b.gameFiles(ctx, g, false)
	if err != nil {
		b.log.Warn("final board files", "game", g.ID, "err", err)
		return
	}
	reply.Files = append(reply.Files, files...)
}
