package app

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	a11y "github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// Text mode (issue 42, docs/accessibility.md): for players who read the
// board with a screen reader. /board text:true (or the personal setting,
// /settings text:true) answers with the position in words instead of a
// picture; /board ask:… answers the blind-mode questions; a player in
// text mode who moves also gets the move in words. All of it is private
// (only the caller sees it) and in the caller's language.

// BoardInWords answers /board when the caller wants words: text:true, the
// text-mode setting (unless text:false or public:true), or a question in
// ask. handled is false when the caller wants the picture.
func (b *Bot) BoardInWords(ctx context.Context, r *Req, g *Game) (out []view.Reply, handled bool, err error) {
	ask := strings.TrimSpace(r.Options["ask"])
	text := r.Options["text"] == "true"
	if _, set := r.Options["text"]; !set && ask == "" && r.Options["public"] != "true" {
		if s, err := b.St.Settings(ctx, r.User.ID); err == nil && s.Text {
			text = true
		}
	}
	if !text && ask == "" {
		return nil, false, nil
	}
	pos, ply, err := b.wordsPosition(ctx, g, r.Options["ply"])
	if err != nil {
		return nil, true, err
	}
	var words string
	if ask != "" {
		words, err = askBoard(r.Locale(), pos, ask)
	} else {
		words, err = b.textBoard(ctx, r.Locale(), g, pos, ply)
	}
	if err != nil {
		return nil, true, err
	}
	return privateText(words), true, nil
}

// wordsPosition is the position /board shows: after move ply (the option,
// when given) or the game's current one, with its ply.
func (b *Bot) wordsPosition(ctx context.Context, g *Game, plyOpt string) (engine.Position, int, error) {
	if s := strings.TrimSpace(plyOpt); s != "" {
		k, err := strconv.Atoi(s)
		if err != nil || k < 0 {
			return nil, 0, Refuse("refuse.ply-range", s, strconv.Itoa(g.Ply))
		}
		pos, _, err := b.PositionAt(ctx, g, k)
		return pos, k, err
	}
	pos, err := g.Position()
	if err != nil {
		return nil, 0, Wrap("position", err)
	}
	return pos, g.Ply, nil
}

// textBoard is a game's position in words: which game and move, the last
// move, then describe.TextBoard (whose turn or the result, rank by rank).
func (b *Bot) textBoard(ctx context.Context, loc string, g *Game, pos engine.Position, ply int) (string, error) {
	board, err := a11y.TextBoard(loc, pos)
	if err != nil {
		return "", Wrap("text board", err)
	}
	lines := []string{i18n.T(loc, "a11y.game", i18n.T(loc, "gamename."+g.Game), g.Num(), strconv.Itoa(engine.MoveNumber(ply)))}
	if g.Status == gmFinished && pos.Encode() == g.Pos {
		lines = append(lines, view.ResultText(loc, g))
	}
	prev, last := b.stepTo(ctx, g, pos, nil)
	if s, err := a11y.LastMove(loc, a11y.Board{Game: g.Game, Pos: pos, Prev: prev, Last: last}); err == nil && s != "" {
		lines = append(lines, i18n.T(loc, "a11y.last", s))
	}
	return strings.Join(append(lines, board), "\n"), nil
}

// askBoard answers one blind-mode question about pos:
//
//	where white|black [kind]   square e4   attackers e4   moves e4
//
// The question words are English or the reader's language (the
// catalog's a11y.ask.* words); the describer words the answer.
func askBoard(loc string, pos engine.Position, q string) (string, error) {
	f := strings.Fields(q)
	verb := askVerb(loc, f[0])
	switch {
	case verb == "where" && len(f) >= 2:
		side, ok := askSide(loc, f[1])
		if !ok {
			return "", Refuse("a11y.ask.side", f[1])
		}
		return a11y.Where(loc, pos, side, strings.Join(f[2:], " "))
	case verb == "square" && len(f) == 2:
		return a11y.Square(loc, pos, f[1])
	case verb == "attackers" && len(f) == 2:
		return a11y.Attackers(loc, pos, f[1])
	case verb == "moves" && len(f) == 2:
		return a11y.Moves(loc, pos, f[1])
	}
	return "", Refuse("a11y.ask.usage", q)
}

// askVerbs are the questions' catalog keys, by their English word.
var askVerbs = map[string]string{"where": "a11y.ask.where", "square": "a11y.ask.square", "attackers": "a11y.ask.attackers", "moves": "a11y.ask.moves"}

func askVerb(loc, w string) string {
	w = strings.ToLower(w)
	for v, key := range askVerbs {
		if w == v || w == strings.ToLower(i18n.T(loc, key)) {
			return v
		}
	}
	return ""
}

func askSide(loc, w string) (engine.Side, bool) {
	w = strings.ToLower(w)
	for _, s := range []engine.Side{engine.White, engine.Black} {
		name := s.String()
		if w == name || w == name[:1] || w == strings.ToLower(i18n.T(loc, "color."+name)) {
			return s, true
		}
	}
	return 0, false
}

// moveInWords is what a player in text mode gets after their move,
// privately: the board's alt text, which says the move and what it did,
// the announcements, whose turn it is or the result, then the position,
// in words and without emoji. Nothing for anyone else (the public board
// carries the same text as its picture's alt text).
func (b *Bot) moveInWords(ctx context.Context, r *Req, g *Game, prev, next engine.Position, m engine.Move) []view.Reply {
	if s, err := b.St.Settings(ctx, r.User.ID); err != nil || !s.Text {
		return nil
	}
	alt, err := a11y.Alt(r.Locale(), a11y.Board{Game: g.Game, Number: int64(g.Number), Variant: g.Variant, Pos: next, Prev: prev, Last: m, Outcome: view.StoredOutcome(g)})
	if err != nil {
		return nil
	}
	return privateText(alt)
}

// privateText is text as private messages within Discord's 2,000
// characters each, split between lines.
func privateText(s string) []view.Reply {
	var out []view.Reply
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, view.Reply{Ephemeral: true, Content: cur.String()})
			cur.Reset()
		}
	}
	for _, line := range strings.Split(s, "\n") {
		line = view.Clip(line, view.MaxText)
		if cur.Len() > 0 && utf8.RuneCountInString(cur.String())+1+utf8.RuneCountInString(line) > view.MaxText {
			flush()
		}
		if cur.Len() > 0 {
			cur.WriteString("\n")
		}
		cur.WriteString(line)
	}
	flush()
	return out
}
