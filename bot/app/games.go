package app

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// The games the bot plays, by name, and what their descriptors say
// (engine.Descriptor: examples, showcase, words). Nothing here names a
// game: a new one is added in engine/games.

// LookupGame finds a game's rules by name.
func LookupGame(name string) (engine.Rules, bool) {
	r, err := games.Lookup(name)
	return r, err == nil
}

func GameNames() []string { return games.Names() }

// DefaultGame is the game /challenge, /rules and /leaderboard mean when
// none is named: the first listed.
func DefaultGame() string { return GameNames()[0] }

// Describe is a game's descriptor; an unknown game gets an empty one
// (plain picker, no examples, no words).
func Describe(game string) engine.Descriptor {
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
	return Describe(DefaultGame()).Example("")
}

// ExamplesLine is one example move per game in loc, for /help:
// "Tank Chess `C3 > C5N`, Camelot `F6-F5`, …".
func ExamplesLine(loc string) string {
	var parts []string
	for _, d := range games.Descriptors() {
		if ex := d.Example(""); ex != "" {
			parts = append(parts, view.GameLabel(loc, d.Rules.Name(), "x", nil)+" `"+ex+"`")
		}
	}
	return strings.Join(parts, ", ")
}

// FindFinished is findGame for /rematch: the named game, or the caller's
// latest game in this channel (which may be over).
func (b *Bot) FindFinished(ctx context.Context, r *Req) (*Game, error) {
	if r.Options["game"] != "" {
		return b.FindGame(ctx, r)
	}
	g, err := b.St.lastGame(ctx, r.User.ID, r.ChannelID)
	if err != nil {
		return nil, Refuse("refuse.nogame")
	}
	return g, nil
}
