// Package board holds /board and the board's Flip button: looks at a game, now or at any ply.
package board

import (
	"context"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

var Command = app.CommandDef{
	Name:    "board",
	Doc:     "Show the board, just to you (from your side; `flip` turns it); `public:true` posts it for everyone as the game's board; `ply:K` shows the position after move K of any game of this server; `text:true` gives it in words (text mode), `ask:` answers where white [kind], square e4, attackers e4, moves e4.",
	Opts:    []app.OptDef{{Name: "flip", Typ: app.Bool}, app.GameOptFinished, {Name: "public", Typ: app.Bool}, {Name: "ply", Typ: app.Integer, Bounds: app.AtLeast(0)}, {Name: "text", Typ: app.Bool}, {Name: "ask", Typ: app.String}},
	Run:     boardCommand,
	Actions: []app.ActionDef{{Name: "flip", Anyone: true, Doc: "Flip board: a private copy from the other side.", Run: flipView}},
}

func boardCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	g, err := b.FindGame(ctx, r)
	if err != nil {
		return nil, err
	}
	if out, ok, err := b.BoardInWords(ctx, r, g); ok {
		return out, err
	}
	if s := strings.TrimSpace(r.Options["ply"]); s != "" {
		return boardAtPly(b, ctx, r, g, s)
	}
	pos, last, err := b.ReplayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	// A player sees the board from their own side, anyone else from
	// White's; the option and the /settings flip each turn it round.
	// boardReply takes the flip relative to the public board.
	flip := r.Options["flip"] == "true"
	if s, err := b.St.Settings(ctx, r.User.ID); err == nil && s.Flip {
		flip = !flip
	}
	if side, ok := g.Side(r.User.ID); ok && side == 1 {
		flip = !flip
	}
	if r.Options["public"] != "true" {
		// A personal look: only the caller sees it, in their language,
		// without buttons (the game's own board has them).
		reply, err := b.BoardReply(ctx, r, g, pos, last, "", flip != b.PublicFlip(pos))
		if err != nil {
			return nil, err
		}
		reply.Ephemeral, reply.Components = true, nil
		return []view.Reply{reply}, nil
	}
	// Posted for everyone, it becomes the game's board: the old one loses
	// its buttons.
	reply, err := b.BoardReply(ctx, r.Public(), g, pos, last, "", r.Options["flip"] == "true")
	if err != nil {
		return nil, err
	}
	if g.Status != app.GmActive {
		reply.Sent = nil // a finished game's board stays where it is
	}
	return []view.Reply{app.InGame(r, g, reply)}, nil
}

// boardAtPly answers /board ply:K: the position after move K (0 the
// start) of any game of this server, finished or not, replayed from its
// log. It is a look at the past, never the game's board: no buttons, no
// clocks, and a public one does not retire the current board.
func boardAtPly(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, text string) ([]view.Reply, error) {
	k, err := strconv.Atoi(text)
	if err != nil || k < 0 {
		return nil, app.Refuse("refuse.ply-range", view.ClipRunes(text, app.MaxInput), strconv.Itoa(g.Ply))
	}
	pos, last, err := b.PositionAt(ctx, g, k)
	if err != nil {
		return nil, err
	}
	log, err := b.St.MoveLog(ctx, g.ID)
	if err != nil {
		return nil, app.Wrap("move log", err)
	}
	// The game as it stood after move k.
	past := *g
	past.Ply, past.Last, past.Clock = k, "", "none"
	if k > 0 && k <= len(log) {
		past.Last = log[k-1]
	}
	if k < len(log) {
		past.Status, past.Result, past.Reason = app.GmActive, "", ""
	}
	public := r.Options["public"] == "true"
	asked := r
	if public {
		asked = r.Public()
	}
	flip := r.Options["flip"] == "true"
	if !public {
		if s, err := b.St.Settings(ctx, r.User.ID); err == nil && s.Flip {
			flip = !flip
		}
		if side, ok := g.Side(r.User.ID); ok && side == 1 {
			flip = !flip
		}
		flip = flip != b.PublicFlip(pos)
	}
	head := asked.T("archive.ply", strconv.Itoa(k), strconv.Itoa(len(log)))
	reply, err := b.BoardReply(ctx, asked, &past, pos, last, head, flip)
	if err != nil {
		return nil, err
	}
	reply.Components, reply.Sent, reply.Ephemeral = nil, nil, !public
	if public {
		reply = app.InGame(r, g, reply)
	}
	return []view.Reply{reply}, nil
}

// flipView is a personal view of the board the other way up from the
// public one, whoever clicks.
func flipView(b *app.Bot, ctx context.Context, r *app.Req, g *app.Game, _ view.CustomID) ([]view.Reply, error) {
	pos, last, err := b.ReplayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	reply, err := b.BoardReply(ctx, r, g, pos, last, "", true)
	if err != nil {
		return nil, err
	}
	// A personal view: no buttons (only the game's board has them).
	reply.Ephemeral, reply.Components = true, nil
	return []view.Reply{reply}, nil
}
