package app

import (
	"context"
	"strconv"
	"strings"
)

// /board and the board's Flip button: looks at a game, now or at any ply.

var boardCmd = command{
	name:    "board",
	doc:     "Show the board, just to you (from your side; `flip` turns it); `public:true` posts it for everyone as the game's board; `ply:K` shows the position after move K of any game of this server; `text:true` gives it in words (text mode), `ask:` answers where white [kind], square e4, attackers e4, moves e4.",
	opts:    []optDef{{name: "flip", typ: Bool}, gameOptFinished, {name: "public", typ: Bool}, {name: "ply", typ: Integer, bounds: atLeast(0)}, {name: "text", typ: Bool}, {name: "ask", typ: String}},
	run:     (*Bot).boardCommand,
	actions: []action{{name: "flip", anyone: true, doc: "Flip board: a private copy from the other side.", run: (*Bot).flipView}},
}

func (b *Bot) boardCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.findGame(ctx, r)
	if err != nil {
		return nil, err
	}
	if out, ok, err := b.boardInWords(ctx, r, g); ok {
		return out, err
	}
	if s := strings.TrimSpace(r.Options["ply"]); s != "" {
		return b.boardAtPly(ctx, r, g, s)
	}
	pos, last, err := b.replayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	// A player sees the board from their own side, anyone else from
	// White's; the option and the /settings flip each turn it round.
	// boardReply takes the flip relative to the public board.
	flip := r.Options["flip"] == "true"
	if s, err := b.st.settings(ctx, r.User.ID); err == nil && s.Flip {
		flip = !flip
	}
	if side, ok := g.Side(r.User.ID); ok && side == 1 {
		flip = !flip
	}
	if r.Options["public"] != "true" {
		// A personal look: only the caller sees it, in their language,
		// without buttons (the game's own board has them).
		reply, err := b.boardReply(ctx, r, g, pos, last, "", flip != b.publicFlip(pos))
		if err != nil {
			return nil, err
		}
		reply.Ephemeral, reply.Components = true, nil
		return []Reply{reply}, nil
	}
	// Posted for everyone, it becomes the game's board: the old one loses
	// its buttons.
	reply, err := b.boardReply(ctx, r.public(), g, pos, last, "", r.Options["flip"] == "true")
	if err != nil {
		return nil, err
	}
	if g.Status != gmActive {
		reply.Board = false // a finished game's board stays where it is
	}
	return []Reply{inGame(r, g, reply)}, nil
}

// boardAtPly answers /board ply:K: the position after move K (0 the
// start) of any game of this server, finished or not, replayed from its
// log. It is a look at the past, never the game's board: no buttons, no
// clocks, and a public one does not retire the current board.
func (b *Bot) boardAtPly(ctx context.Context, r *req, g *gameRec, text string) ([]Reply, error) {
	k, err := strconv.Atoi(text)
	if err != nil || k < 0 {
		return nil, refuse("refuse.ply-range", clipRunes(text, maxInput), strconv.Itoa(g.Ply))
	}
	pos, last, err := b.positionAt(ctx, g, k)
	if err != nil {
		return nil, err
	}
	log, err := b.st.moveLog(ctx, g.ID)
	if err != nil {
		return nil, wrap("move log", err)
	}
	// The game as it stood after move k.
	past := *g
	past.Ply, past.Last, past.Clock = k, "", "none"
	if k > 0 && k <= len(log) {
		past.Last = log[k-1]
	}
	if k < len(log) {
		past.Status, past.Result, past.Reason = gmActive, "", ""
	}
	public := r.Options["public"] == "true"
	view := r
	if public {
		view = r.public()
	}
	flip := r.Options["flip"] == "true"
	if !public {
		if s, err := b.st.settings(ctx, r.User.ID); err == nil && s.Flip {
			flip = !flip
		}
		if side, ok := g.Side(r.User.ID); ok && side == 1 {
			flip = !flip
		}
		flip = flip != b.publicFlip(pos)
	}
	head := view.t("archive.ply", strconv.Itoa(k), strconv.Itoa(len(log)))
	reply, err := b.boardReply(ctx, view, &past, pos, last, head, flip)
	if err != nil {
		return nil, err
	}
	reply.Components, reply.Board, reply.Ephemeral = nil, false, !public
	if public {
		reply = inGame(r, g, reply)
	}
	return []Reply{reply}, nil
}

// flipView is a personal view of the board the other way up from the
// public one, whoever clicks.
func (b *Bot) flipView(ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
	pos, last, err := b.replayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	reply, err := b.boardReply(ctx, r, g, pos, last, "", true)
	if err != nil {
		return nil, err
	}
	// A personal view: no buttons (only the game's board has them).
	reply.Ephemeral, reply.Components = true, nil
	return []Reply{reply}, nil
}
