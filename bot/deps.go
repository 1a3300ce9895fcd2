package bot

import (
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/imaging"
)

// lookupGame finds a game's rules by name.
func lookupGame(name string) (engine.Rules, bool) {
	r, err := games.Lookup(name)
	return r, err == nil
}

func gameNames() []string { return games.Names() }

// renderPNG draws pos through the imaging package: last highlighted, Black
// at the bottom when flip, every word in loc's language (the message the
// image goes with), and, for a finished game g (nil: none), the stored
// result, which may have been decided off the board.
func renderPNG(pos engine.Position, last engine.Move, flip bool, loc string, g *gameRec) ([]byte, error) {
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
func (b *Bot) publicFlip(pos engine.Position) bool {
	return !b.cfg.WhiteAtBottom && pos.Turn() == engine.Black
}
