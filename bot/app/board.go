package app

import (
	"context"
	"strconv"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// BoardReply builds the message that carries a game's board: header,
// whose turn, clocks, outcome, the PNG and the action buttons. The image is
// drawn as the public board is (publicFlip), or the other way up with flip.
func (b *Bot) BoardReply(ctx context.Context, r *Req, g *Game, pos engine.Position, last engine.Move, head string, flip bool) (view.Reply, error) {
	id := g.Num()
	desc := head
	add := func(s string) {
		if desc != "" {
			desc += "\n"
		}
		desc += s
	}
	tc, _ := ParseClock(g.Clock)
	now := b.Clk.Now()
	if g.Status == GmActive {
		turn := int(pos.Turn())
		add(r.T("game.turn", g.User(turn).Name, r.T("game."+engine.Side(turn).String())))
	} else {
		add(view.ResultText(r.Locale(), g))
	}
	for _, f := range view.Facts(r.Locale(), pos) {
		add(f)
	}
	label := view.GameLabel(r.Locale(), g.Game, g.Variant, pos)
	if ph := view.Phase(r.Locale(), pos); ph != "" && g.Status == GmActive {
		label += " · " + ph // the title changes when the draft ends
	}
	e := &view.Embed{Title: r.T("game.title", id, label), Description: desc, Color: view.BoardColor(g, pos)}
	if tc.Timed() {
		e.Fields = append(e.Fields,
			view.Field{Name: r.T("game.sideplayer", r.T("game.white"), g.White.Name), Value: fmtDuration(g.Remaining(tc, 0, now)), Inline: true},
			view.Field{Name: r.T("game.sideplayer", r.T("game.black"), g.Black.Name), Value: fmtDuration(g.Remaining(tc, 1, now)), Inline: true})
	}
	if g.Last != "" {
		e.Fields = append(e.Fields, view.Field{Name: r.T("game.lastmove"), Value: g.Last + view.Suffix(pos), Inline: true})
	}
	// One numbering everywhere: every action is one move (docs/flow.md).
	e.Footer = r.T("game.ply", strconv.Itoa(engine.MoveNumber(g.Ply)))
	reply := view.Reply{Embed: e, Sent: b.BoardRecorder(g.ID, 0), Shows: &view.Shown{Game: g.Game, Position: pos.Encode()}}
	// flip asks for the other orientation from the public board's.
	png, err := b.boardImage(ctx, g, pos, last, flip != b.PublicFlip(pos), r.Locale())
	if err != nil {
		b.Log.Warn("render board", "game", g.ID, "err", err)
	} else if png != nil {
		name := "board-" + id + "-" + strconv.Itoa(g.Ply) + ".png"
		reply.Files = []view.File{{Name: name, ContentType: "image/png", Data: png, Description: b.boardAlt(ctx, r.Locale(), g, pos, last)}}
		e.Image = name
		reply.FallbackText = r.T("game.noimage")
	}
	if g.Status == GmActive {
		reply.Components = b.gameButtons(r, g, pos)
	} else {
		// Only what still makes sense after the end.
		reply.Components = [][]view.Component{{
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "rematch"), Label: r.T("btn.rematch"), Style: view.Primary},
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "record"), Label: r.T("btn.record"), Style: view.Secondary},
			{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "review"), Label: r.T("btn.review"), Style: view.Secondary},
		}}
	}
	reply.Components = b.WatchLink(ctx, r, g, reply.Components)
	return reply, nil
}

func (b *Bot) gameButtons(r *Req, g *Game, pos engine.Position) [][]view.Component {
	row := []view.Component{
		{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "pick"), Label: r.T("btn.pick"), Style: view.Primary},
		{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "type"), Label: r.T("btn.type"), Style: view.Primary},
		{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "flip"), Label: r.T("btn.flip"), Style: view.Secondary},
		{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "draw"), Label: r.T("btn.draw"), Style: view.Secondary},
		{Kind: view.Button, CustomID: view.GameID(g.ID, g.Seq, "resign"), Label: r.T("btn.resign"), Style: view.Danger},
	}
	rows := [][]view.Component{row}
	// Moves that stand for many (Gungi: finish my draft from a formation),
	// at most one row of five.
	if sc, ok := pos.(engine.Shortcuts); ok {
		var extra []view.Component
		for _, s := range sc.Shortcuts() {
			key, id := "shortcut."+s.Key, view.GameID(g.ID, g.Seq, "moveask", s.Move)
			if !i18n.Has(key) || len(extra) == 5 || len(id) > 100 {
				continue
			}
			args := make([]string, len(s.Args))
			for i, a := range s.Args {
				args[i] = view.Words(r.Locale(), g.Game, a) // a formation's words, not its id
			}
			extra = append(extra, view.Component{Kind: view.Button, CustomID: id, Label: i18n.T(r.Locale(), key, args...), Style: view.Secondary})
		}
		if len(extra) > 0 {
			rows = append(rows, extra)
		}
	}
	return rows
}

// PublicFlip is the orientation of the public board: from the side of the
// player to move (Black at the bottom on Black's turn), unless the operator
// keeps White at the bottom.
func (b *Bot) PublicFlip(pos engine.Position) bool {
	return !b.Cfg.WhiteAtBottom && pos.Turn() == engine.Black
}
