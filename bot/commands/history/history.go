// Package history holds /history and the final board's Game record button.
package history

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

var Command = app.CommandDef{
	Name: "history",
	Doc:  "A game's record as a text file (start, players, clock, numbered moves with CHECK/ESCAPE marks `+`, `-`, `+-`, result) and, once it is over, its animated replay. `game:#12` names any game of this server by its number.",
	Opts: []app.OptDef{app.GameOptFinished},
	Run:  historyCommand,
	Actions: []app.ActionDef{{Name: "record", Anyone: true, Doc: "Game record, on a finished game's board: the record file and replay, just for whoever clicks.",
		Run: func(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
			return recordReply(b, ctx, r, g)
		}},
		// Anyone may click (the board is public); the handler refuses
		// whoever is not a player, with a word of why.
		{Name: "webhide", Anyone: true, Doc: "Hide page, beside a finished game's Watch / Replay link: either player hides the game's web page (its link answers 404); the private confirmation offers Show page.",
			Run: func(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
				return b.HideWebPage(ctx, r, g, true)
			}},
		{Name: "webshow", Anyone: true, Doc: "Show page: either player shows a hidden game's web page again.",
			Run: func(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
				return b.HideWebPage(ctx, r, g, false)
			}}},
}

// historyCommand sends a game's record file (engine/record: tags, numbered
// moves with announcement marks, result) and, once the game is over, its
// animated replay. game:#N names a game by its number on this server;
// without it, the caller's game here (which may be over).
func historyCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	g, err := b.PastGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return recordReply(b, ctx, r, g)
}

// recordReply is a game's record file and, once it is over, its animated
// replay, for whoever asks (/history, the final board's record button).
func recordReply(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game) ([]view.Reply, error) {
	files, err := b.GameFiles(ctx, g, false)
	if err != nil {
		return nil, err
	}
	view.ReplayAlt(r.Locale(), g, files)
	num := strings.TrimSuffix(strings.TrimPrefix(files[0].Name, "game-"), ".txt")
	lines := []string{r.T("history.file", num), r.T("history.players", "<@"+g.White.ID+">", "<@"+g.Black.ID+">")}
	if g.Status != app.GmActive {
		lines = append(lines, r.T("history.result", view.OutcomeWords(r.Locale(), g)))
	}
	// The game's page link (and, once it is over, Hide page) as on its
	// final board.
	return []view.Reply{{Ephemeral: true, Content: strings.Join(lines, "\n"), Files: files, Components: b.WatchLink(ctx, r, g, nil)}}, nil
}
