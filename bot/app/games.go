package app

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// The games the bot plays, by name, and what their descriptors say
// (engine.Descriptor: examples, showcase, words). Nothing here names a
// game: a new one is added in engine/games.

// lookupGame finds a game's rules by name.
func lookupGame(name string) (engine.Rules, bool) {
	r, err := games.Lookup(name)
	return r, err == nil
}

func gameNames() []string { return games.Names() }

// defaultGame is the game /challenge, /rules and /leaderboard mean when
// none is named: the first listed.
func defaultGame() string { return gameNames()[0] }

// describe is a game's descriptor; an unknown game gets an empty one
// (plain picker, no examples, no words).
func describe(game string) engine.Descriptor {
	d, _ := games.Describe(game)
	return d
}

// MoveExample is a move in the game's notation, legal at the start of its
// first variant (the descriptor's examples, checked by a test), for the
// console's banner; unknown games get the default game's.
func MoveExample(game string) string {
	if d, ok := games.Describe(game); ok {
		return d.Example("")
	}
	return describe(defaultGame()).Example("")
}

// examplesLine is one example move per game in loc, for /help:
// "Tank Chess `C3 > C5N`, Camelot `F6-F5`, …".
func examplesLine(loc string) string {
	var parts []string
	for _, d := range games.Descriptors() {
		if ex := d.Example(""); ex != "" {
			parts = append(parts, gameLabel(loc, d.Rules.Name(), "x", nil)+" `"+ex+"`")
		}
	}
	return strings.Join(parts, ", ")
}

// words translates a value a game's facts or shortcuts carry through its
// descriptor's Words ("quick" → "quick formation"); other values stay.
func words(loc, game, value string) string {
	if key, ok := describe(game).Words[value]; ok && i18n.Has(key) {
		return i18n.T(loc, key)
	}
	return value
}

// findFinished is findGame for /rematch: the named game, or the caller's
// latest game in this channel (which may be over).
func (b *Bot) findFinished(ctx context.Context, r *req) (*gameRec, error) {
	if r.Options["game"] != "" {
		return b.findGame(ctx, r)
	}
	g, err := b.st.lastGame(ctx, r.User.ID, r.ChannelID)
	if err != nil {
		return nil, refuse("refuse.nogame")
	}
	return g, nil
}
