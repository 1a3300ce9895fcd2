package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
)

// The messages the bot edits later are recorded through the recorder their
// reply carries (view.Reply.Sent), which every transport calls once the
// message exists: a game's board (its buttons are stripped when superseded,
// and recording it cancels its move's fallback ping) and a challenge (its
// end edits it). A new kind of tracked message is a recorder here.

// boardRecorder records the message showing game's board. seq is the game
// sequence the move that drew it reached (0: not a move's board), whose
// recording cancels the move's fallback ping.
type boardRecorder struct {
	b    *Bot
	game int64
	seq  int
}

// BoardRecorder is the recorder of a reply showing game's board after the
// move that reached seq (0: not a move's answer).
func (b *Bot) BoardRecorder(game int64, seq int) view.Recorder {
	return boardRecorder{b, game, seq}
}

// boardOf is the game and move sequence of board reply r (ok false: r
// shows no game's board).
func boardOf(r view.Reply) (game int64, seq int, ok bool) {
	br, ok := r.Sent.(boardRecorder)
	return br.game, br.seq, ok
}

// seqOf is the game revision board reply r shows, which the store orders
// the game's boards by: the move's seq when set, else the seq its game
// buttons carry (a new game's first board: 0; a final, taken-back or
// re-shown board: the game's seq when drawn), else -1, "the game's seq
// when recorded" (a board without buttons).
func (k boardRecorder) seqOf(r view.Reply) int {
	if k.seq > 0 {
		return k.seq
	}
	for _, row := range r.Components {
		for _, c := range row {
			if id, ok := view.ParseCustomID(c.CustomID); ok && id.Kind == 'g' && id.ID == k.game {
				return id.Seq
			}
		}
	}
	return -1
}

func (k boardRecorder) Pending(ctx context.Context, r view.Reply, via view.Hook) {
	if err := k.b.St.setPendingBoard(ctx, k.game, k.seqOf(r), storeHook(via)); err != nil {
		k.b.Log.Warn("record pending board", "game", k.game, "err", err)
	}
}

// Sent records the board; a transport without message ids (the console)
// records only a move's answer, which cancels its fallback ping.
func (k boardRecorder) Sent(ctx context.Context, r view.Reply, _, messageID string, via view.Hook) {
	if messageID == "" && k.seq <= 0 {
		return
	}
	if err := k.b.St.setBoardMessage(ctx, k.game, k.seqOf(r), messageID, storeHook(via)); err != nil {
		k.b.Log.Warn("record board message", "game", k.game, "err", err)
	}
}

func storeHook(h view.Hook) store.BoardHook {
	return store.BoardHook{Token: h.Token, Message: h.Message, Issued: h.Issued}
}

// challengeRecorder records the message carrying a challenge's buttons.
type challengeRecorder struct {
	b  *Bot
	id int64
}

// ChallengeRecorder is the recorder of the reply carrying challenge id.
func (b *Bot) ChallengeRecorder(id int64) view.Recorder { return challengeRecorder{b, id} }

func (challengeRecorder) Pending(context.Context, view.Reply, view.Hook) {}

func (k challengeRecorder) Sent(ctx context.Context, _ view.Reply, _, messageID string, _ view.Hook) {
	if messageID == "" {
		return
	}
	if err := k.b.St.setChallengeMessage(ctx, k.id, messageID); err != nil {
		k.b.Log.Warn("record challenge message", "challenge", k.id, "err", err)
	}
}

// gameOf is the game whose board reply r shows (0: none).
func gameOf(r view.Reply) int64 {
	game, _, _ := boardOf(r)
	return game
}

// queuedAs is r queued as what it shows: a game's board or a text.
func queuedAs(r view.Reply) outbox.Post {
	if game := gameOf(r); game != 0 {
		return outbox.Board(game, r)
	}
	return outbox.Text(r)
}
