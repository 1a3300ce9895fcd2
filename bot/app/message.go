package app

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

// The message flow (docs/flow.md): every move is one new public message,
// the board, whose content pings the player to move in their language;
// the previous board loses its buttons by an edit; every ending pings both
// players. This file holds the pieces those messages share.

// MaxInput is how much of a user's own text a refusal quotes.
const MaxInput = 100

// Public is r speaking to everybody: the server's language.
func (r *Req) Public() *Req {
	p := *r
	p.Loc = r.PubLoc()
	return &p
}

// userLocale is the language a user reads (see Bot.locale).
func (b *Bot) userLocale(ctx context.Context, id string) string {
	return b.Locale(ctx, Command{User: User{ID: id}})
}

// KnownLocale is the language a user chose (/settings) or Discord last
// showed for them; known is false when neither is stored.
func (b *Bot) KnownLocale(ctx context.Context, id string) (loc string, known bool) {
	s, err := b.St.Settings(ctx, id)
	if err != nil {
		return "", false
	}
	if s.Locale != "" {
		return s.Locale, true
	}
	if s.Seen != "" {
		return s.Seen, true
	}
	return "", false
}

// Pings addresses users each in their own language: one line per
// language, built by line from the mentions of the users who read it.
// It returns the content and the ids the message may ping.
func (b *Bot) Pings(ctx context.Context, users []User, line func(loc, mentions string) string) (string, []string) {
	var locs []string
	byLoc := map[string][]string{}
	var ids []string
	for _, u := range users {
		if u.ID == "" || u.ID == b.selfID() || computerEntrant(u.ID) {
			continue // the bot never pings itself (the computer player)
		}
		l := b.userLocale(ctx, u.ID)
		if _, ok := byLoc[l]; !ok {
			locs = append(locs, l)
		}
		byLoc[l] = append(byLoc[l], view.Mention(u.ID))
		ids = append(ids, u.ID)
	}
	lines := make([]string, 0, len(locs))
	for _, l := range locs {
		lines = append(lines, line(l, strings.Join(byLoc[l], " ")))
	}
	return view.ClipRunes(strings.Join(lines, "\n"), 2000), ids
}

// endContent is the content of a game-ending message: both players pinged,
// each in their language, with what happened (event, may be nil) and the
// result in words.
func (b *Bot) endContent(ctx context.Context, g *Game, event func(loc string) string) (string, []string) {
	id := g.Num()
	return b.Pings(ctx, []User{g.White, g.Black}, func(loc, who string) string {
		if event != nil {
			return i18n.T(loc, "ping.over.event", who, event(loc), id, view.OutcomeWords(loc, g))
		}
		return i18n.T(loc, "ping.over", who, id, view.OutcomeWords(loc, g))
	})
}

// InGame sends a public game message to the game's own place when the
// command came from elsewhere (the transport points the user there).
func InGame(r *Req, g *Game, reply view.Reply) view.Reply {
	if r.ChannelID != g.ChannelID {
		reply.ChannelID = g.ChannelID
		reply.Update = false
	}
	return reply
}

// turnContent is the board message's content while the game goes on: the
// player to move pinged in their language with who played what, what it
// means and the deadline. When the mover moves again (Gungi draft against a
// ready opponent) nobody is pinged.
func (b *Bot) turnContent(ctx context.Context, g *Game, pos engine.Position, mover User, what func(loc string) string) (string, []string) {
	tc, _ := ParseClock(g.Clock)
	next := g.User(int(pos.Turn()))
	id := g.Num()
	body := func(loc string) string {
		var parts []string
		if what != nil {
			parts = append(parts, what(loc))
		}
		for _, a := range pos.Announcements() {
			parts = append(parts, view.AnnounceText(loc, g, pos, a))
		}
		if d := g.Deadline(tc); !d.IsZero() {
			parts = append(parts, i18n.T(loc, "ping.yourmove", id, DiscordTime(d)))
		} else {
			parts = append(parts, i18n.T(loc, "ping.yourmove.nodeadline", id))
		}
		return strings.Join(parts, " ")
	}
	if g.AIMoves(int(pos.Turn())) {
		return b.aiTurnContent(ctx, g, pos, mover, next, what)
	}
	if next.ID == mover.ID {
		loc := b.userLocale(ctx, mover.ID)
		return view.ClipRunes(i18n.T(loc, "ping.again", body(loc)), 2000), nil
	}
	return b.Pings(ctx, []User{next}, func(loc, who string) string {
		return i18n.T(loc, "ping.turn", who, body(loc))
	})
}

// Confirmed wraps the public replies of an action confirmed in an
// ephemeral message: that message is edited to say what was done (buttons
// gone) and the public ones go to the game's place as new messages.
func Confirmed(r *Req, g *Game, done string) func([]view.Reply, error) ([]view.Reply, error) {
	return func(out []view.Reply, err error) ([]view.Reply, error) {
		if err != nil {
			return nil, err
		}
		res := []view.Reply{{Ephemeral: true, Update: true, Content: done}}
		for _, o := range out {
			if !o.Ephemeral && o.ChannelID == "" {
				o.ChannelID, o.Update = g.ChannelID, false
			}
			res = append(res, o)
		}
		return res, nil
	}
}
