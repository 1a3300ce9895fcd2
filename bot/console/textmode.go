package console

import (
	"strings"

	"github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// textMode is the console's text mode (issue 42): boards printed in words
// (bot/describe) instead of a grid of letters, and the blind-mode
// questions about the last board shown:
//
//	text on | text off
//	board                    the last board, in words
//	where white|black [kind] where a side's pieces (of a kind) are
//	square e4                what is on a square
//	attackers e4             what either side could capture or shoot there
//	moves e4                 the legal moves of the piece on a square
type textMode struct {
	on   bool
	game string // the last board shown
	pos  string
}

// boardText is a board Reply's position as the console prints it, and
// remembers it for the questions.
func (c *Console) boardText(game, encoded string) string {
	c.mu.Lock()
	c.text.game, c.text.pos = game, encoded
	on := c.text.on
	c.mu.Unlock()
	if on {
		if p, err := decode(game, encoded); err == nil {
			if s, err := describe.TextBoard(c.Locale, p); err == nil {
				return s + "\n"
			}
		}
	}
	return TextBoard(game, encoded)
}

func decode(game, encoded string) (engine.Position, error) {
	r, err := games.Lookup(game)
	if err != nil {
		return nil, err
	}
	return games.Position(r, encoded)
}

// textCommand runs a text-mode line; handled is false for any other line.
func (c *Console) textCommand(line string) (handled bool, err error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false, nil
	}
	say := func(s string) { c.Out.Write([]byte(s + "\n")) }
	t := func(key string) string { return i18n.T(c.Locale, key) }
	switch {
	case f[0] == "text" && len(f) == 2 && (f[1] == "on" || f[1] == "off"):
		c.mu.Lock()
		c.text.on = f[1] == "on"
		c.mu.Unlock()
		say(t("a11y.console.help"))
		return true, nil
	case f[0] == "board" && len(f) == 1,
		f[0] == "where" && len(f) >= 2,
		(f[0] == "square" || f[0] == "attackers" || f[0] == "moves") && len(f) == 2:
	default:
		return false, nil
	}
	c.mu.Lock()
	game, enc := c.text.game, c.text.pos
	c.mu.Unlock()
	if enc == "" {
		say(t("a11y.console.nogame"))
		return true, nil
	}
	pos, err := decode(game, enc)
	if err != nil {
		return true, err
	}
	var out string
	switch f[0] {
	case "board":
		out, err = describe.TextBoard(c.Locale, pos)
	case "where":
		var side engine.Side
		switch strings.ToLower(f[1]) {
		case "white", "w":
			side = engine.White
		case "black", "b":
			side = engine.Black
		default:
			say(t("a11y.console.side"))
			return true, nil
		}
		out, err = describe.Where(c.Locale, pos, side, strings.Join(f[2:], " "))
	case "square":
		out, err = describe.Square(c.Locale, pos, f[1])
	case "attackers":
		out, err = describe.Attackers(c.Locale, pos, f[1])
	case "moves":
		out, err = describe.Moves(c.Locale, pos, f[1])
	}
	if err != nil {
		// The describer's errors are already in the reader's words.
		say(err.Error())
		return true, nil
	}
	say(out)
	return true, nil
}
