package app

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/imaging"
)

// boardReply builds the message that carries a game's board: header,
// whose turn, clocks, outcome, the PNG and the action buttons. The image is
// drawn as the public board is (publicFlip), or the other way up with flip.
func (b *Bot) BoardReply(ctx context.Context, r *Req, g *Game, pos engine.Position, last engine.Move, head string, flip bool) (Reply, error) {
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
		add(resultText(r.Loc, g))
	}
	for _, f := range facts(r.Loc, pos) {
		add(f)
	}
	label := GameLabel(r.Loc, g.Game, g.Variant, pos)
	if ph := phase(r.Loc, pos); ph != "" && g.Status == GmActive {
		label += " · " + ph // the title changes when the draft ends
	}
	e := &Embed{Title: r.T("game.title", id, label), Description: desc, Color: boardColor(g, pos)}
	if tc.Timed() {
		e.Fields = append(e.Fields,
			Field{Name: r.T("game.sideplayer", r.T("game.white"), g.White.Name), Value: fmtDuration(g.Remaining(tc, 0, now)), Inline: true},
			Field{Name: r.T("game.sideplayer", r.T("game.black"), g.Black.Name), Value: fmtDuration(g.Remaining(tc, 1, now)), Inline: true})
	}
	if g.Last != "" {
		e.Fields = append(e.Fields, Field{Name: r.T("game.lastmove"), Value: g.Last + suffix(pos), Inline: true})
	}
	// One numbering everywhere: every action is one move (docs/flow.md).
	e.Footer = r.T("game.ply", strconv.Itoa(engine.MoveNumber(g.Ply)))
	reply := Reply{Embed: e, GameID: g.ID, Board: true, Position: pos.Encode(), Game: g.Game}
	// flip asks for the other orientation from the public board's.
	png, err := b.boardImage(ctx, g, pos, last, flip != b.PublicFlip(pos), r.Loc)
	if err != nil {
		b.Log.Warn("render board", "game", g.ID, "err", err)
	} else if png != nil {
		name := "board-" + id + "-" + strconv.Itoa(g.Ply) + ".png"
		reply.Files = []File{{Name: name, ContentType: "image/png", Data: png, Description: b.boardAlt(ctx, r.Loc, g, pos, last)}}
		e.Image = name
		reply.FallbackText = r.T("game.noimage")
	}
	if g.Status == GmActive {
		reply.Components = b.gameButtons(r, g, pos)
	} else {
		// Only what still makes sense after the end.
		reply.Components = [][]Component{{
			{Kind: Button, CustomID: GameID(g.ID, g.Seq, "rematch"), Label: r.T("btn.rematch"), Style: Primary},
			{Kind: Button, CustomID: GameID(g.ID, g.Seq, "record"), Label: r.T("btn.record"), Style: Secondary},
			{Kind: Button, CustomID: GameID(g.ID, g.Seq, "review"), Label: r.T("btn.review"), Style: Secondary},
		}}
	}
	reply.Components = b.WatchLink(ctx, r, g, reply.Components)
	return reply, nil
}

func (b *Bot) gameButtons(r *Req, g *Game, pos engine.Position) [][]Component {
	row := []Component{
		{Kind: Button, CustomID: GameID(g.ID, g.Seq, "pick"), Label: r.T("btn.pick"), Style: Primary},
		{Kind: Button, CustomID: GameID(g.ID, g.Seq, "type"), Label: r.T("btn.type"), Style: Primary},
		{Kind: Button, CustomID: GameID(g.ID, g.Seq, "flip"), Label: r.T("btn.flip"), Style: Secondary},
		{Kind: Button, CustomID: GameID(g.ID, g.Seq, "draw"), Label: r.T("btn.draw"), Style: Secondary},
		{Kind: Button, CustomID: GameID(g.ID, g.Seq, "resign"), Label: r.T("btn.resign"), Style: Danger},
	}
	rows := [][]Component{row}
	// Moves that stand for many (Gungi: finish my draft from a formation),
	// at most one row of five.
	if sc, ok := pos.(engine.Shortcuts); ok {
		var extra []Component
		for _, s := range sc.Shortcuts() {
			key, id := "shortcut."+s.Key, GameID(g.ID, g.Seq, "moveask", s.Move)
			if !i18n.Has(key) || len(extra) == 5 || len(id) > 100 {
				continue
			}
			args := make([]string, len(s.Args))
			for i, a := range s.Args {
				args[i] = words(r.Loc, g.Game, a) // a formation's words, not its id
			}
			extra = append(extra, Component{Kind: Button, CustomID: id, Label: i18n.T(r.Loc, key, args...), Style: Secondary})
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
			if w, ok := pieceWords(loc, pos.Rules().Name(), a); ok {
				args[i] = w
				continue
			}
			switch a {
			case "white", "black":
				a = i18n.T(loc, "game."+a)
			default:
				a = words(loc, pos.Rules().Name(), a)
			}
			args[i] = a
		}
		out = append(out, i18n.T(loc, key, args...))
	}
	return out
}

// pieceCounts matches a hand written as letters and counts ("M1G6P9").
var pieceCounts = regexp.MustCompile(`^(?:[A-Z][0-9]+)+$`)

// pieceWords writes a hand in words ("Marshal 1, General 6, Pawn 9") when
// every letter is a piece the catalog names ("<game>.piece.<letter>").
func pieceWords(loc, game, s string) (string, bool) {
	if !pieceCounts.MatchString(s) {
		return "", false
	}
	var parts []string
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		key := game + ".piece." + s[i:i+1]
		if !i18n.Has(key) {
			return "", false
		}
		parts = append(parts, i18n.T(loc, key)+" "+s[i+1:j])
		i = j
	}
	return strings.Join(parts, ", "), true
}

// phase names a stage of the game worth putting in the title (the Gungi
// draft), from the position's facts with a "phase.<key>" catalog entry.
func phase(loc string, pos engine.Position) string {
	d, ok := pos.(engine.Describer)
	if !ok {
		return ""
	}
	for _, f := range d.Facts() {
		if i18n.Has("phase." + f.Key) {
			return i18n.T(loc, "phase."+f.Key)
		}
	}
	return ""
}

// resultText is "Game over: Black (bob) wins on time."
func resultText(loc string, g *Game) string {
	return i18n.T(loc, "game.over", OutcomeWords(loc, g))
}

// renderPNG draws pos through the imaging package: last highlighted, Black
// at the bottom when flip, every word in loc's language (the message the
// image goes with), and, for a finished game g (nil: none), the stored
// result, which may have been decided off the board.
func RenderPNG(pos engine.Position, last engine.Move, flip bool, loc string, g *Game) ([]byte, error) {
	opt := imaging.Options{Last: last, Flip: flip, Text: i18n.Text(loc)}
	if g != nil && g.Status == gmFinished {
		for _, r := range []engine.Result{engine.WhiteWins, engine.BlackWins, engine.Draw} {
			if g.Result == r.String() {
				opt.Outcome = &engine.Outcome{Result: r, Reason: engine.Reason(g.Reason)}
			}
		}
	}
	return imaging.Render(pos, opt)
}

// publicFlip is the orientation of the public board: from the side of the
// player to move (Black at the bottom on Black's turn), unless the operator
// keeps White at the bottom.
func (b *Bot) PublicFlip(pos engine.Position) bool {
	return !b.Cfg.WhiteAtBottom && pos.Turn() == engine.Black
}
