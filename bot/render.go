package bot

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store/clock"
)

// boardReply builds the message that carries a game's board: header,
// whose turn, clocks, outcome, the PNG and the action buttons. The image is
// drawn as the public board is (publicFlip), or the other way up with flip.
func (b *Bot) boardReply(ctx context.Context, r *req, g *gameRec, pos engine.Position, last engine.Move, head string, flip bool) (Reply, error) {
	id := strconv.FormatInt(g.ID, 10)
	desc := head
	add := func(s string) {
		if desc != "" {
			desc += "\n"
		}
		desc += s
	}
	tc, _ := parseClock(g.Clock)
	now := b.clk.Now()
	if g.Status == gmActive {
		turn := int(pos.Turn())
		add(r.t("game.turn", g.user(turn).Name, r.t("game."+engine.Side(turn).String())))
	} else {
		add(resultText(r.loc, g))
	}
	for _, f := range facts(r.loc, pos) {
		add(f)
	}
	e := &Embed{Title: r.t("game.title", id, g.Game+" "+variantLabelG(g)), Description: desc}
	if tc.Timed() {
		e.Fields = append(e.Fields,
			Field{Name: r.t("game.sideplayer", r.t("game.white"), g.White.Name), Value: fmtDuration(g.remaining(tc, 0, now)), Inline: true},
			Field{Name: r.t("game.sideplayer", r.t("game.black"), g.Black.Name), Value: fmtDuration(g.remaining(tc, 1, now)), Inline: true})
	}
	if g.Last != "" {
		e.Fields = append(e.Fields, Field{Name: r.t("game.lastmove"), Value: g.Last + suffix(pos), Inline: true})
	}
	e.Footer = r.t("game.ply", strconv.Itoa(g.Ply))
	reply := Reply{Embed: e, GameID: g.ID, Board: true, Position: pos.Encode(), Game: g.Game}
	// flip asks for the other orientation from the public board's.
	png, err := renderPNG(pos, last, flip != b.publicFlip(pos), r.loc, g)
	if err != nil {
		b.log.Warn("render board", "game", g.ID, "err", err)
	} else if png != nil {
		name := "board-" + id + "-" + strconv.Itoa(g.Ply) + ".png"
		reply.Files = []File{{Name: name, ContentType: "image/png", Data: png}}
		e.Image = name
		if b.cfg.PNGDir != "" {
			path := filepath.Join(b.cfg.PNGDir, name)
			if err := os.WriteFile(path, png, 0o644); err != nil {
				b.log.Warn("write png", "path", path, "err", err)
			}
		}
	}
	if g.Status == gmActive {
		reply.Components = b.gameButtons(r, g, pos)
	} else {
		reply.Components = [][]Component{{{Kind: Button, CustomID: gameID(g.ID, g.Ply, "rematch"), Label: r.t("btn.rematch"), Style: Primary}}}
	}
	return reply, nil
}

func variantLabelG(g *gameRec) string {
	if g.Variant != "" {
		return g.Variant
	}
	return "custom"
}

func (b *Bot) gameButtons(r *req, g *gameRec, pos engine.Position) [][]Component {
	row := []Component{
		{Kind: Button, CustomID: gameID(g.ID, g.Ply, "pick"), Label: r.t("btn.pick"), Style: Primary},
		{Kind: Button, CustomID: gameID(g.ID, g.Ply, "type"), Label: r.t("btn.type"), Style: Primary},
		{Kind: Button, CustomID: gameID(g.ID, g.Ply, "flip"), Label: r.t("btn.flip"), Style: Secondary},
		{Kind: Button, CustomID: gameID(g.ID, g.Ply, "draw"), Label: r.t("btn.draw"), Style: Secondary},
		{Kind: Button, CustomID: gameID(g.ID, g.Ply, "resign"), Label: r.t("btn.resign"), Style: Danger},
	}
	rows := [][]Component{row}
	// Moves that stand for many (Gungi: finish my draft from a formation),
	// at most one row of five.
	if sc, ok := pos.(engine.Shortcuts); ok {
		var extra []Component
		for _, s := range sc.Shortcuts() {
			key, id := "shortcut."+s.Key, gameID(g.ID, g.Ply, "move", s.Move)
			if !i18n.Has(key) || len(extra) == 5 || len(id) > 100 {
				continue
			}
			extra = append(extra, Component{Kind: Button, CustomID: id, Label: i18n.T(r.loc, key, s.Args...), Style: Secondary})
		}
		if len(extra) > 0 {
			rows = append(rows, extra)
		}
	}
	return rows
}

// facts states what the position says beside the board (Camelot castle
// moves left, Gungi hands and draft), each through the catalog key
// "fact.<key>"; side names in the arguments are translated.
func facts(loc string, pos engine.Position) []string {
	d, ok := pos.(engine.Describer)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range d.Facts() {
		key := "fact." + f.Key
		if !i18n.Has(key) {
			continue
		}
		args := make([]string, len(f.Args))
		for i, a := range f.Args {
			switch a {
			case "white", "black":
				a = i18n.T(loc, "game."+a)
			case "placing":
				a = i18n.T(loc, "fact.gungi.placing")
			case "placing-alone":
				a = i18n.T(loc, "fact.gungi.placing-alone")
			}
			args[i] = a
		}
		out = append(out, i18n.T(loc, key, args...))
	}
	return out
}

// resultText is "White wins — by resignation".
func resultText(loc string, g *gameRec) string {
	reason := g.Reason
	if i18n.Has("reason." + g.Reason) {
		reason = i18n.T(loc, "reason."+g.Reason)
	}
	return i18n.T(loc, "game.over", i18n.T(loc, "result."+g.Result), reason)
}

// turnPing is the new message that mentions the player to move, with their
// deadline.
func (b *Bot) turnPing(r *req, g *gameRec, tc clock.Settings) Reply {
	pos, err := g.position()
	side := g.Turn
	if err == nil {
		side = int(pos.Turn())
	}
	u := g.user(side)
	id := strconv.FormatInt(g.ID, 10)
	var text string
	if d := g.deadline(tc); !d.IsZero() {
		text = r.t("game.yourturn", "<@"+u.ID+">", id, discordTime(d))
	} else {
		text = r.t("game.yourturn.nodeadline", "<@"+u.ID+">", id)
	}
	return Reply{ChannelID: g.ChannelID, Content: text, Mentions: []string{u.ID}}
}

// scheduleClock schedules the flag-fall and reminders of the side to move.
// Events carry the ply: those of an earlier turn are dropped when claimed.
func (b *Bot) scheduleClock(ctx context.Context, g *gameRec, tc clock.Settings) error {
	d := g.deadline(tc)
	if d.IsZero() {
		return nil
	}
	evs := []event{{Kind: evFlag, Ref: g.ID, Ply: g.Ply, Due: d}}
	if tc.Kind == clock.Correspondence {
		for _, before := range []time.Duration{24 * time.Hour, time.Hour} {
			if tc.PerMove > before {
				evs = append(evs, event{Kind: evRemind, Ref: g.ID, Ply: g.Ply, Due: d.Add(-before)})
			}
		}
	} else if low := tc.Initial / 10; g.ClockState.Left[g.ClockState.ToMove] > low {
		evs = append(evs, event{Kind: evRemind, Ref: g.ID, Ply: g.Ply, Due: d.Add(-low)})
	}
	for _, e := range evs {
		if err := b.st.schedule(ctx, e); err != nil {
			return wrap("schedule", err)
		}
	}
	return nil
}
