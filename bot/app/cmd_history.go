package app

import (
	"context"
	"strings"
)

// /history and the final board's Game record button.

var historyCmd = command{
	name: "history",
	doc:  "A game's record as a text file (start, players, clock, numbered moves with CHECK/ESCAPE marks `+`, `-`, `+-`, result) and, once it is over, its animated replay. `game:#12` names any game of this server by its number.",
	opts: []optDef{gameOptFinished},
	run:  (*Bot).historyCommand,
	actions: []action{{name: "record", anyone: true, doc: "Game record, on a finished game's board: the record file and replay, just for whoever clicks.",
		run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
			return b.recordReply(ctx, r, g)
		}},
		// Anyone may click (the board is public); the handler refuses
		// whoever is not a player, with a word of why.
		{name: "webhide", anyone: true, doc: "Hide page, beside a finished game's Watch / Replay link: either player hides the game's web page (its link answers 404); the private confirmation offers Show page.",
			run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
				return b.hideWebPage(ctx, r, g, true)
			}},
		{name: "webshow", anyone: true, doc: "Show page: either player shows a hidden game's web page again.",
			run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
				return b.hideWebPage(ctx, r, g, false)
			}}},
}

// historyCommand sends a game's record file (engine/record: tags, numbered
// moves with announcement marks, result) and, once the game is over, its
// animated replay. game:#N names a game by its number on this server;
// without it, the caller's game here (which may be over).
func (b *Bot) historyCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.pastGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return b.recordReply(ctx, r, g)
}

// recordReply is a game's record file and, once it is over, its animated
// replay, for whoever asks (/history, the final board's record button).
func (b *Bot) recordReply(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	files, err := b.gameFiles(ctx, g, false)
	if err != nil {
		return nil, err
	}
	replayAlt(r.loc, g, files)
	num := strings.TrimSuffix(strings.TrimPrefix(files[0].Name, "game-"), ".txt")
	lines := []string{r.t("history.file", num), r.t("history.players", "<@"+g.White.ID+">", "<@"+g.Black.ID+">")}
	if g.Status != gmActive {
		lines = append(lines, r.t("history.result", outcomeWords(r.loc, g)))
	}
	// The game's page link (and, once it is over, Hide page) as on its
	// final board.
	return []Reply{{Ephemeral: true, Content: strings.Join(lines, "\n"), Files: files, Components: b.watchLink(ctx, r, g, nil)}}, nil
}
